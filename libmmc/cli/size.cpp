#include "cli/size.h"

#include "cli/cli.h"

#include <cctype>
#include <fmt/format.h>
#include <numeric>
#include <stdexcept>

namespace mmc::cli {

namespace {

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
    // Exact integer arithmetic: a double would round sizes above 2^53. (No
    // 128-bit integers either: 32-bit ARM, where the tools also run, has none.)
    const auto digit = [&](std::size_t i) { return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); };
    std::size_t i = 0;
    uint64_t whole = 0;
    for (; digit(i); ++i)
        if (__builtin_mul_overflow(whole, 10u, &whole) || __builtin_add_overflow(whole, text[i] - '0', &whole))
            bad_size(text, "too large");
    const bool has_whole = i > 0;
    uint64_t frac = 0, frac_scale = 1; // the fraction is frac / frac_scale
    bool has_frac = false;
    if (i < text.size() && text[i] == '.') {
        for (++i; digit(i); ++i) {
            has_frac = true;
            if (frac_scale < 1'000'000'000'000'000'000u) {
                frac = frac * 10 + static_cast<uint64_t>(text[i] - '0');
                frac_scale *= 10;
            } else if (text[i] != '0') {
                bad_size(text, "not a whole number of bytes");
            }
        }
    }
    if (!has_whole && !has_frac) bad_size(text, "expected a size like 4k, 512k, 16M, 1G");
    const int shift = unit_shift(text, text.substr(i));
    if (shift && whole > (UINT64_MAX >> shift)) bad_size(text, "too large");
    const uint64_t bytes = whole << shift;
    // frac / frac_scale of 2^shift bytes is whole only when the reduced
    // denominator is a power of two no larger than 2^shift.
    const uint64_t g = std::gcd(frac, frac_scale);
    const uint64_t num = frac / g, den = frac_scale / g;
    if ((den & (den - 1)) != 0 || den > (uint64_t{1} << shift)) bad_size(text, "not a whole number of bytes");
    const uint64_t frac_bytes = num * ((uint64_t{1} << shift) / den);
    if (bytes > UINT64_MAX - frac_bytes) bad_size(text, "too large");
    return bytes + frac_bytes;
}

uint64_t size_option(std::string_view option, std::string_view text)
{
    try {
        return parse_size(text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("{}: {}", option, e.what()));
    }
}

std::optional<uint64_t> au_option(std::string_view text, std::optional<std::string>& given)
{
    if (given) throw UsageError(fmt::format("--au given twice ('{}' and '{}'); give one", *given, text));
    given = std::string(text);
    if (text == "measure") return std::nullopt;
    const uint64_t bytes = size_option("--au", text);
    if (bytes < 512 || bytes % 512) throw UsageError(fmt::format("--au {}: expected a multiple of 512", text));
    return bytes;
}

namespace {

// A byte count in its largest binary unit of at least one: 1536 -> 1.5 and
// 1 (KiB). Both forms below scale alike and differ only in their digits.
struct Scaled {
    double value;
    int unit; // 0 bytes, 1 KiB, ... 6 EiB
};

Scaled scale(uint64_t bytes)
{
    Scaled s{static_cast<double>(bytes), 0};
    while (s.value >= 1024 && s.unit < 6) {
        s.value /= 1024;
        ++s.unit;
    }
    return s;
}

constexpr const char* binary_units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

} // namespace

std::string format_bytes(uint64_t bytes)
{
    const auto [v, u] = scale(bytes);
    if (u == 0) return fmt::format("{} B", bytes);
    // Whole numbers print without a fraction; others with up to 3 significant digits.
    if (v == static_cast<double>(static_cast<uint64_t>(v))) return fmt::format("{} {}", static_cast<uint64_t>(v), binary_units[u]);
    return fmt::format("{:.3g} {}", v, binary_units[u]);
}

std::string format_bytes_exact(uint64_t bytes, ExactCount count)
{
    const auto [value, u] = scale(bytes);
    if (u == 0) return fmt::format("{} bytes", bytes);
    const bool exact = bytes % (uint64_t{1} << (10 * u)) == 0;
    const std::string scaled = exact ? fmt::format("{:g} {}", value, binary_units[u]) : fmt::format("{:.2f} {}", value, binary_units[u]);
    if (exact && bytes < (uint64_t{1} << 30) && count == ExactCount::when_needed) return scaled;
    return fmt::format("{} ({} bytes)", scaled, bytes);
}

std::string format_figure(double value, int decimals)
{
    std::string s = fmt::format("{:.{}f}", value, decimals);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

std::string format_hz(double hz)
{
    if (hz >= 1e6) return format_figure(hz / 1e6, 3) + " MHz";
    if (hz >= 1e3) return format_figure(hz / 1e3, 3) + " kHz";
    return format_figure(hz, 0) + " Hz";
}

} // namespace mmc::cli
