#include "views/health_view.h"

#include "cli/size.h"
#include "views/register_json.h"

#include <fmt/format.h>

namespace mmc::out {

namespace {

using Json = nlohmann::ordered_json;
using health::Reading;
using health::Verdict;

template <typename T>
Json or_null(const std::optional<T>& v)
{
    return v ? Json(*v) : Json(nullptr);
}

std::string percent(double v) { return v == static_cast<int64_t>(v) ? fmt::format("{}%", static_cast<int64_t>(v)) : fmt::format("{:.2f}%", v); }

// "64 KiB written, 64 KiB of it lost (from byte 0)": what the canary found.
std::string canary_words(const health::CanaryResult& c)
{
    using health::CanaryState;
    switch (c.state) {
    case CanaryState::ok: return fmt::format("{} written and read back", cli::format_bytes(c.written));
    case CanaryState::read_only: return fmt::format("the write was refused ({})", c.error);
    case CanaryState::dead: return fmt::format("the write failed and nothing reads ({})", c.error);
    case CanaryState::lost_writes:
    case CanaryState::corrupt:
    case CanaryState::read_errors: break;
    }
    const char* how = c.state == CanaryState::lost_writes ? "lost" : c.state == CanaryState::corrupt ? "corrupt" : "unreadable";
    return fmt::format("{} written, {} of it {}{}", cli::format_bytes(c.written), cli::format_bytes(c.lost), how,
                       c.first_bad_offset ? fmt::format(" (from byte {})", *c.first_bad_offset) : "");
}

// "life used 90% (ext_csd)": what decided the verdict, in words.
std::string basis_text(const health::HealthReport& report)
{
    const auto& j = report.judgement;
    if (j.source.empty()) return {};
    if (j.figure == health::DecidingFigure::canary && report.canary)
        return fmt::format("the write canary: {}", canary_words(*report.canary));
    if (j.figure == health::DecidingFigure::writable) {
        for (const auto& r : report.writability.reasons)
            if (r.scope == health::WpScope::card) return r.what;
        return {};
    }
    for (const auto& r : report.readings) {
        if (r.source != j.source) continue;
        const auto& w = r.wear;
        if (j.figure == health::DecidingFigure::life_used_percent && w.life_used_percent)
            return fmt::format("life used {}{} ({})", percent(*w.life_used_percent),
                               w.life_exhausted.value_or(false) ? ", exhausted" : "", r.source);
        if (j.figure == health::DecidingFigure::pre_eol && w.pre_eol) return fmt::format("PRE_EOL {} ({})", to_string(*w.pre_eol), r.source);
        if (j.figure == health::DecidingFigure::spare_blocks_percent && w.spare_blocks_percent)
            return fmt::format("spare blocks left {} ({})", percent(*w.spare_blocks_percent), r.source);
    }
    return {};
}

std::string verdict_words(Verdict v)
{
    switch (v) {
    case Verdict::healthy: return "healthy";
    case Verdict::worn: return "worn";
    case Verdict::end_of_life: return "end of life";
    case Verdict::read_only: return "read-only";
    case Verdict::unknown: return "unknown";
    }
    return "?";
}

void wear_lines(std::string& out, const Reading& r)
{
    const auto& w = r.wear;
    auto line = [&](std::string_view label, const std::string& value) { out += fmt::format("    {:<28} {}\n", label, value); };
    if (w.life_used_percent) line("Life used", percent(*w.life_used_percent) + (w.life_exhausted.value_or(false) ? " (exhausted)" : ""));
    if (w.pre_eol) line("Pre-EOL", std::string(to_string(*w.pre_eol)));
    if (w.spare_blocks_percent) line("Spare blocks left", percent(*w.spare_blocks_percent));
    if (w.bad_blocks.factory || w.bad_blocks.runtime)
        line("Bad blocks", fmt::format("factory {}, runtime {}", w.bad_blocks.factory ? std::to_string(*w.bad_blocks.factory) : "-",
                                       w.bad_blocks.runtime ? std::to_string(*w.bad_blocks.runtime) : "-"));
    const auto& e = w.erase_count;
    if (e.min || e.max || e.avg || e.total) {
        auto n = [](const std::optional<uint64_t>& v) { return v ? std::to_string(*v) : std::string("-"); };
        line("Erase count", fmt::format("min {}, avg {}, max {}, total {}", n(e.min), e.avg ? fmt::format("{:g}", *e.avg) : "-",
                                        n(e.max), n(e.total)));
    }
    if (w.rated_erase_cycles) line("Rated erase cycles", std::to_string(*w.rated_erase_cycles));
    if (w.power_cycles) line("Power cycles", std::to_string(*w.power_cycles));
    if (w.abnormal_power_losses) line("Abnormal power losses", std::to_string(*w.abnormal_power_losses));
    if (w.bytes_written) line("Bytes written", std::to_string(*w.bytes_written));
    if (w.firmware) line("Firmware", *w.firmware);
    if (!r.fields.empty()) out += "    As the source reports it:\n";
    // A text field the block leaves blank (spaces or NULs) is said to be so,
    // not printed as an empty value a reader takes for a misaligned table.
    for (const auto& f : r.fields)
        out += fmt::format("      {:<26} {}\n", f.label,
                           f.text.find_first_not_of(" \t") == std::string::npos ? "none (blank in the block)" : f.text);
    for (const auto& n : r.notes) out += fmt::format("    note: {}\n", n);
}

} // namespace

std::string health_text(const CardHealth& card, bool color)
{
    const auto& report = card.report;
    const Verdict v = report.judgement.verdict;
    const char* on = "";
    if (color) on = v == Verdict::healthy ? "\033[32m" : v == Verdict::unknown ? "\033[33m" : "\033[31m";
    const char* off = color ? "\033[0m" : "";
    std::string out = fmt::format("{}{}: {}{}{}", card.name, card.device.empty() ? "" : " (" + card.device + ")", on,
                                  verdict_words(v), off);
    if (auto basis = basis_text(report); !basis.empty()) out += " - " + basis;
    out += "\n";
    for (const auto& r : report.readings) {
        out += fmt::format("  Wear from {}:\n", r.source);
        wear_lines(out, r);
    }
    if (!report.no_data.empty()) {
        out += "  No health data:\n";
        for (const auto& n : report.no_data) out += fmt::format("    {:<28} {}\n", n.source, n.why);
    }
    const auto& w = report.writability;
    out += fmt::format("  Writable: {}\n", !w.writable ? "unknown" : *w.writable ? "yes" : "no");
    for (const auto& r : w.reasons)
        out += fmt::format("    - {}{}\n      what to do: {}\n", r.what, r.permanent ? " (cannot be undone)" : "", r.remedy);
    if (report.rpmb_bytes && *report.rpmb_bytes) out += fmt::format("  RPMB: {}\n", cli::format_bytes_exact(*report.rpmb_bytes));
    if (const auto& c = report.canary) {
        out += fmt::format("  Canary: {} - {}\n", c->state == health::CanaryState::ok ? "ok" : "FAILED", canary_words(*c));
        out += fmt::format("    {:<28} {}{}\n", "Written to", c->where, c->offset ? fmt::format(" at byte {}", *c->offset) : "");
    }
    for (const auto& n : report.notes) out += fmt::format("  Note: {}\n", n);
    return out;
}

Json wear_json(const Reading& r)
{
    const auto& w = r.wear;
    Json j;
    j["source"] = r.source;
    j["life_used_percent"] = or_null(w.life_used_percent);
    j["life_exhausted"] = or_null(w.life_exhausted);
    j["pre_eol"] = w.pre_eol ? Json(std::string(to_string(*w.pre_eol))) : Json(nullptr);
    j["spare_blocks_percent"] = or_null(w.spare_blocks_percent);
    j["bad_blocks"] = {{"factory", or_null(w.bad_blocks.factory)}, {"runtime", or_null(w.bad_blocks.runtime)}};
    j["erase_count"] = {{"min", or_null(w.erase_count.min)},
                        {"avg", or_null(w.erase_count.avg)},
                        {"max", or_null(w.erase_count.max)},
                        {"total", or_null(w.erase_count.total)}};
    j["rated_erase_cycles"] = or_null(w.rated_erase_cycles);
    j["power_cycles"] = or_null(w.power_cycles);
    j["abnormal_power_losses"] = or_null(w.abnormal_power_losses);
    j["bytes_written"] = or_null(w.bytes_written);
    j["firmware"] = or_null(w.firmware);
    Json fields = Json::object();
    for (const auto& f : r.fields) fields[f.key] = value_json(f.value);
    j["fields"] = fields;
    j["notes"] = r.notes;
    return j;
}

Json health_json(const CardHealth& card)
{
    const auto& report = card.report;
    Json j;
    j["name"] = card.name;
    j["device"] = card.device.empty() ? Json(nullptr) : Json(card.device);
    j["card"] = card.identity ? *card.identity : Json(nullptr);
    j["verdict"] = to_string(report.judgement.verdict);
    j["verdict_basis"] = report.judgement.source.empty()
                             ? Json(nullptr)
                             : Json{{"source", report.judgement.source}, {"figure", to_string(report.judgement.figure)}};
    Json wear = Json::array();
    for (const auto& r : report.readings) wear.push_back(wear_json(r));
    j["wear"] = wear;
    Json none = Json::array();
    for (const auto& n : report.no_data) none.push_back({{"source", n.source}, {"why", n.why}});
    j["no_health_data"] = none;
    Json reasons = Json::array();
    for (const auto& r : report.writability.reasons)
        reasons.push_back({{"cause", to_string(r.cause)},
                           {"scope", to_string(r.scope)},
                           {"permanent", r.permanent},
                           {"what", r.what},
                           {"remedy", r.remedy}});
    j["writability"] = {{"writable", or_null(report.writability.writable)}, {"reasons", reasons}};
    j["rpmb_bytes"] = or_null(report.rpmb_bytes);
    j["notes"] = report.notes;
    if (report.canary) j["canary"] = canary_json(*report.canary);
    return j;
}

Json canary_json(const health::CanaryResult& c)
{
    return {{"mode", c.mode},
            {"where", c.where},
            {"offset", or_null(c.offset)},
            {"sequence", c.sequence},
            {"size", c.size},
            {"written", c.written},
            {"read_back_ok", c.read_back_ok},
            {"lost", c.lost},
            {"first_bad_offset", or_null(c.first_bad_offset)},
            {"state", to_string(c.state)},
            {"error", c.error.empty() ? Json(nullptr) : Json(c.error)}};
}

} // namespace mmc::out
