// Bus modes: which one the kernel runs (from the ios timing text), and what
// each is rated for. The doctor reasons over Mode; only to_string writes the
// words, which the views and the JSON print.
#pragma once

#include "bus/ios.h"
#include "regs/register.h"

#include <array>
#include <optional>
#include <string_view>

namespace mmc::bus {

// The SD modes (legacy is SD default speed, hs SD high speed), the MMC modes
// (hs26: an eMMC that does high-speed timing only at 26 MHz; mmc_hs is HS52),
// and off: a powered-off host (runtime PM), which runs no mode at all.
enum class Mode { legacy, hs, sdr12, sdr25, sdr50, sdr104, ddr50, hs26, mmc_hs, ddr52, hs200, hs400, hs400es, off };

// Each family's modes, worst first; among modes of equal ceiling, in the
// order the kernel prefers them (it picks DDR50 over SDR50, UHS SDR25 over
// HS). The doctor ranks by these, and mmc-tune bus plans by them.
using ModeList = std::array<Mode, 7>;
inline constexpr ModeList sd_modes{Mode::legacy, Mode::sdr12, Mode::hs, Mode::sdr25, Mode::sdr50, Mode::ddr50, Mode::sdr104};
inline constexpr ModeList mmc_modes{Mode::legacy, Mode::hs26, Mode::mmc_hs, Mode::ddr52, Mode::hs200, Mode::hs400, Mode::hs400es};
inline const ModeList& family_modes(regs::CardFamily f) { return f == regs::CardFamily::mmc ? mmc_modes : sd_modes; }
// A mode that signals at 1.8 V (or 1.2 V): every UHS-I mode, HS200 and up.
bool low_voltage_mode(Mode mode);

// "legacy", "HS", "SDR12", "SDR25", "SDR50", "SDR104", "DDR50", "HS26",
// "MMC-HS", "DDR52", "HS200", "HS400", "HS400ES", "off".
std::string_view to_string(Mode);

// The mode from the ios timing text: "sd high-speed" -> hs, "mmc high-speed"
// -> mmc_hs, "mmc HS400 enhanced strobe" -> hs400es; off when powered off;
// nullopt when the kernel names none ("invalid": SD Express, UHS-II) or no
// timing line was read.
std::optional<Mode> mode_name(const Ios& ios);

// The clock and bus width a mode is rated for; its ceiling is
// clock_hz x width_bits (x2 when ddr) / 8.
struct ModeSpec {
    Mode mode;
    double clock_hz = 0;
    int width_bits = 0;
    bool ddr = false;
};
// nullopt for off. legacy is SD default speed, or MMC legacy (26 MHz x 8
// bits) when the card is known to be an MMC.
std::optional<ModeSpec> mode_spec(Mode mode, std::optional<regs::CardFamily> card = std::nullopt);
// Ceiling of a mode in MB/s (10^6 bytes), nullopt for off: SD legacy 12.5,
// MMC legacy 26.
std::optional<double> mode_ceiling_mb_s(Mode mode, std::optional<regs::CardFamily> card = std::nullopt);

} // namespace mmc::bus
