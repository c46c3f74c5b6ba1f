#include "cli/size.h"

#include "cli/cli.h"

#include <cctype>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::cli {

namespace {

// GCC's 128-bit integer: room to multiply a 64-bit size by its unit exactly.
__extension__ typedef unsigned __int128 u128;

[[noreturn]] void bad_size(std::string_view text, std::string_view why)
{
    throw std::invalid_argument(fmt::format("'{}': {}", text, why));
}

int unit_shift(std::string_view text, std::string_view typed)
{
    std::string unit(typed);
    for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (unit.empty() || unit == "b") return 0;
    if (unit.size() == 3 && unit.substr(1) == "ib") unit.resize(1);
    else if (unit.size() == 2 && unit[1] == 'b') unit.resize(1);
    if (unit == "k") return 10;
    if (unit == "m") return 20;
    if (unit == "g") return 30;
    if (unit == "t") return 40;
    if (unit == "p") return 50;
    bad_size(text, fmt::format("unknown unit '{}' (use k, M, G or T)", typed));
}

} // namespace

uint64_t parse_size(std::string_view text)
{
    // Exact integer arithmetic: a double would round sizes above 2^53.
    std::size_t i = 0;
    u128 whole = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        whole = whole * 10 + static_cast<unsigned>(text[i] - '0');
        if (whole > UINT64_MAX) bad_size(text, "too large");
        ++i;
    }
    const bool has_whole = i > 0;
    u128 frac = 0, frac_scale = 1;
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
            if (frac_scale < UINT64_MAX) { // further digits beyond 19 cannot matter
                frac = frac * 10 + static_cast<unsigned>(text[i] - '0');
                frac_scale *= 10;
            }
            ++i;
        }
        if (frac_scale == 1 && !has_whole) bad_size(text, "expected a size like 4k, 512k, 16M, 1G");
    }
    if (!has_whole && frac_scale == 1) bad_size(text, "expected a size like 4k, 512k, 16M, 1G");
    const int shift = unit_shift(text, text.substr(i));
    const u128 bytes = whole << shift;
    const u128 frac_bytes = frac << shift;
    if (frac_bytes % frac_scale != 0) bad_size(text, "not a whole number of bytes");
    const u128 total = bytes + frac_bytes / frac_scale;
    if (total > UINT64_MAX) bad_size(text, "too large");
    return static_cast<uint64_t>(total);
}

uint64_t size_option(std::string_view option, std::string_view text)
{
    try {
        return parse_size(text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("{}: {}", option, e.what()));
    }
}

std::string format_bytes(uint64_t bytes)
{
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    double v = static_cast<double>(bytes);
    while (v >= 1024 && u < 6) { v /= 1024; ++u; }
    if (u == 0) return fmt::format("{} B", bytes);
    // Whole numbers print without a fraction; others with up to 3 significant digits.
    if (v == static_cast<double>(static_cast<uint64_t>(v))) return fmt::format("{} {}", static_cast<uint64_t>(v), units[u]);
    return fmt::format("{:.3g} {}", v, units[u]);
}

} // namespace mmc::cli
