// A bundle's words, its file name and time stamps; its JSON is in bundle_json.cpp.
#include "report/bundle.h"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>

namespace mmc::report {

std::string_view to_string(VerdictResult result)
{
    switch (result) {
    case VerdictResult::pass: return "pass";
    case VerdictResult::fail: return "fail";
    case VerdictResult::not_applicable: return "not-applicable";
    case VerdictResult::other: break;
    }
    return "";
}

std::string_view to_string(VerdictUnit unit)
{
    switch (unit) {
    case VerdictUnit::mb_s: return "MB/s";
    case VerdictUnit::iops: return "IOPS";
    case VerdictUnit::other: break;
    }
    return "";
}

std::string_view to_string(BundleKind kind)
{
    switch (kind) {
    case BundleKind::measured: return "measured";
    case BundleKind::imported: return "imported";
    case BundleKind::other: break;
    }
    return "";
}

std::string_view to_string(CapacityVerdict verdict)
{
    switch (verdict) {
    case CapacityVerdict::good: return "good";
    case CapacityVerdict::limbo: return "limbo";
    case CapacityVerdict::wraparound: return "wraparound";
    case CapacityVerdict::chain: return "chain";
    case CapacityVerdict::bad: return "bad";
    case CapacityVerdict::other: break;
    }
    return "";
}

std::string_view to_string(CardType type)
{
    switch (type) {
    case CardType::sd: return "SD";
    case CardType::mmc: return "MMC";
    case CardType::other: break;
    }
    return "";
}

bool Results::empty() const
{
    return !seq_read_mb_s && !seq_write_mb_s && rand_read_iops.empty() && rand_write_iops.empty();
}

std::string card_cid(const Bundle& b)
{
    const json* regs = b.registers.is_object() && b.registers.contains("registers") ? &b.registers["registers"] : nullptr;
    if (!regs || !regs->is_object() || !regs->contains("cid")) return {};
    const json& cid = (*regs)["cid"];
    return cid.is_object() && cid.contains("hex") && cid["hex"].is_string() ? cid["hex"].get<std::string>() : std::string();
}

std::string safe_name_part(std::string_view text, std::size_t max_length, std::string_view fallback)
{
    std::string out;
    bool dash = false;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.') {
            if (dash && !out.empty()) out += '-';
            dash = false;
            if (c == '.' && (out.empty() || out.back() == '.')) continue; // no leading dot, no ".."
            out += static_cast<char>(c);
        } else if (c >= 'A' && c <= 'Z') {
            if (dash && !out.empty()) out += '-';
            dash = false;
            out += static_cast<char>(c - 'A' + 'a');
        } else {
            dash = true;
        }
        if (out.size() >= max_length) break;
    }
    out.resize(std::min(out.size(), max_length));
    while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
    return out.empty() ? std::string(fallback) : out;
}

std::string bundle_file_name(const Bundle& b)
{
    std::string when;
    for (const char c : b.created)
        if ((c >= '0' && c <= '9') || c == 'T' || c == 'Z') when += c;
    if (when.empty()) when = "undated";
    when.resize(std::min<std::size_t>(when.size(), 20));
    return fmt::format("{}-{}-{}.json", safe_name_part(b.card.label, 48, "card"), safe_name_part(b.host.label, 48, "host"), when);
}

std::string iso8601_utc(int64_t seconds)
{
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace mmc::report
