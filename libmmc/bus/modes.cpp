// Bus modes: the short name of what ios reports, and what each mode is rated
// for. SD: Physical Layer Simplified Specification 9.10, 3.9 (bus speed modes)
// and 4.3.10 (CMD6). MMC: JESD84-B51, 5.3.2 (bus speed modes).
#include "bus/doctor.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace mmc::bus {

namespace {

// mmc_ios_show's timing strings. The name comes from the text because the
// numbers changed between kernels (v3.7 printed 4 for SDR104).
struct TimingName {
    std::string_view text;
    std::string_view name;
};
constexpr std::array<TimingName, 12> timings{{
    {"legacy", "legacy"},
    {"sd high-speed", "HS"},
    {"sd uhs SDR12", "SDR12"},
    {"sd uhs SDR25", "SDR25"},
    {"sd uhs SDR50", "SDR50"},
    {"sd uhs SDR104", "SDR104"},
    {"sd uhs DDR50", "DDR50"},
    {"mmc high-speed", "MMC-HS"},
    {"mmc DDR52", "DDR52"},
    {"mmc HS200", "HS200"},
    {"mmc HS400", "HS400"},
    {"mmc HS400 enhanced strobe", "HS400ES"},
}};

// Rated clock and width. SD buses are 4 bits wide at most, eMMC 8; the
// MMC-HS rating assumes 8 bits, so a 4-bit eMMC shows its loss in the clock
// ceiling (52 MHz x 4 bits = 26 MB/s) rather than in the mode.
constexpr std::array<ModeSpec, 14> specs{{
    {"legacy", 25e6, 4, false},  // SD default speed; MMC legacy is below
    {"HS", 50e6, 4, false},
    {"SDR12", 25e6, 4, false},
    {"SDR25", 50e6, 4, false},
    {"SDR50", 100e6, 4, false},
    {"SDR104", 208e6, 4, false},
    {"DDR50", 50e6, 4, true},
    {"HS26", 26e6, 8, false},
    {"MMC-HS", 52e6, 8, false},
    {"DDR52", 52e6, 8, true},
    {"HS200", 200e6, 8, false},
    {"HS400", 200e6, 8, true},
    {"HS400ES", 200e6, 8, true},
    {"legacy", 26e6, 8, false},  // MMC legacy (backward-compatible) timing
}};

bool same_text(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

std::string mode_name(const Ios& ios)
{
    // Runtime PM leaves "0 Hz, legacy, 1 bits": that is no mode at all.
    if (ios.powered_off()) return "off";
    for (const auto& t : timings)
        if (same_text(ios.timing, t.text)) return std::string(t.name);
    return {}; // "invalid" (SD Express, UHS-II on kernels without a name) or nothing
}

std::optional<ModeSpec> mode_spec(std::string_view mode, std::optional<regs::CardFamily> card)
{
    if (mode == "legacy" && card == regs::CardFamily::mmc) return specs.back();
    for (const auto& s : specs)
        if (s.name == mode) return s;
    return std::nullopt;
}

std::optional<double> mode_ceiling_mb_s(std::string_view mode, std::optional<regs::CardFamily> card)
{
    const auto s = mode_spec(mode, card);
    if (!s) return std::nullopt;
    return s->clock_hz * s->width_bits * (s->ddr ? 2 : 1) / 8 / 1e6;
}

} // namespace mmc::bus
