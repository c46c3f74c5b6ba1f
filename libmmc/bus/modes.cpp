// Bus modes: the short name of what ios reports, and what each mode is rated
// for. SD: Physical Layer Simplified Specification 9.10, 3.9 (bus speed modes)
// and 4.3.10 (CMD6). MMC: JESD84-B51, 5.3.2 (bus speed modes).
#include "bus/modes.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace mmc::bus {

namespace {

// mmc_ios_show's timing strings. The name comes from the text because the
// numbers changed between kernels (v3.7 printed 4 for SDR104).
struct TimingName {
    std::string_view text;
    Mode mode;
};
constexpr std::array<TimingName, 12> timings{{
    {"legacy", Mode::legacy},
    {"sd high-speed", Mode::hs},
    {"sd uhs SDR12", Mode::sdr12},
    {"sd uhs SDR25", Mode::sdr25},
    {"sd uhs SDR50", Mode::sdr50},
    {"sd uhs SDR104", Mode::sdr104},
    {"sd uhs DDR50", Mode::ddr50},
    {"mmc high-speed", Mode::mmc_hs},
    {"mmc DDR52", Mode::ddr52},
    {"mmc HS200", Mode::hs200},
    {"mmc HS400", Mode::hs400},
    {"mmc HS400 enhanced strobe", Mode::hs400es},
}};

// Rated clock and width. SD buses are 4 bits wide at most, eMMC 8; the
// MMC-HS rating assumes 8 bits, so a 4-bit eMMC shows its loss in the clock
// ceiling (52 MHz x 4 bits = 26 MB/s) rather than in the mode.
constexpr std::array<ModeSpec, 14> specs{{
    {Mode::legacy, 25e6, 4, false},  // SD default speed; MMC legacy is below
    {Mode::hs, 50e6, 4, false},
    {Mode::sdr12, 25e6, 4, false},
    {Mode::sdr25, 50e6, 4, false},
    {Mode::sdr50, 100e6, 4, false},
    {Mode::sdr104, 208e6, 4, false},
    {Mode::ddr50, 50e6, 4, true},
    {Mode::hs26, 26e6, 8, false},
    {Mode::mmc_hs, 52e6, 8, false},
    {Mode::ddr52, 52e6, 8, true},
    {Mode::hs200, 200e6, 8, false},
    {Mode::hs400, 200e6, 8, true},
    {Mode::hs400es, 200e6, 8, true},
    {Mode::legacy, 26e6, 8, false},  // MMC legacy (backward-compatible) timing
}};

bool same_text(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

std::string_view to_string(Mode m)
{
    switch (m) {
    case Mode::legacy: return "legacy";
    case Mode::hs: return "HS";
    case Mode::sdr12: return "SDR12";
    case Mode::sdr25: return "SDR25";
    case Mode::sdr50: return "SDR50";
    case Mode::sdr104: return "SDR104";
    case Mode::ddr50: return "DDR50";
    case Mode::hs26: return "HS26";
    case Mode::mmc_hs: return "MMC-HS";
    case Mode::ddr52: return "DDR52";
    case Mode::hs200: return "HS200";
    case Mode::hs400: return "HS400";
    case Mode::hs400es: return "HS400ES";
    case Mode::off: return "off";
    }
    return "off";
}

std::optional<Mode> mode_name(const Ios& ios)
{
    // Runtime PM leaves "0 Hz, legacy, 1 bits": that is no mode at all.
    if (ios.powered_off()) return Mode::off;
    for (const auto& t : timings)
        if (same_text(ios.timing, t.text)) return t.mode;
    return std::nullopt; // "invalid" (SD Express, UHS-II on kernels without a name) or nothing
}

std::optional<ModeSpec> mode_spec(Mode mode, std::optional<regs::CardFamily> card)
{
    if (mode == Mode::legacy && card == regs::CardFamily::mmc) return specs.back();
    for (const auto& s : specs)
        if (s.mode == mode) return s;
    return std::nullopt;
}

std::optional<double> mode_ceiling_mb_s(Mode mode, std::optional<regs::CardFamily> card)
{
    const auto s = mode_spec(mode, card);
    if (!s) return std::nullopt;
    return s->clock_hz * s->width_bits * (s->ddr ? 2 : 1) / 8 / 1e6;
}

bool low_voltage_mode(Mode m)
{
    switch (m) {
    case Mode::sdr12: case Mode::sdr25: case Mode::sdr50: case Mode::ddr50: case Mode::sdr104:
    case Mode::hs200: case Mode::hs400: case Mode::hs400es: return true;
    default: return false;
    }
}

} // namespace mmc::bus
