// Which debugfs caps and caps2 bits offer a bus mode to the kernel, and
// which of them a write may change: the one mapping from a mode to the bits
// a trial sets (mmc-tune bus). Beside the bits' names in bus/caps.cpp.
// Only the current layout (v4.11 on): caps became writable in Linux 6.4
// (mmc_caps_set / mmc_caps2_set in drivers/mmc/core/debugfs.c), which
// accept a value whose changed bits are within AGGRESSIVE_PM, the two
// high-speed bits, the UHS bits and the 1.8/1.2 V DDR bits (caps), and the
// HS200/HS400 1.8/1.2 V bits (caps2).
#pragma once

#include "bus/modes.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bus {

struct CapsPair {
    uint32_t caps = 0;
    uint32_t caps2 = 0;
    bool operator==(const CapsPair&) const = default;
};

// Which caps bit and which device-tree property offer a mode: mmc_of_parse
// turns the property into the cap. mmc-hs400-* also sets the HS200 cap of
// its voltage (the rows with no cap); one mode may have several rows (the
// voltages).
struct ModeFlag {
    std::string_view cap;     // "UHS_SDR104", "" when the property sets no cap of its own
    std::string_view dt_flag; // "sd-uhs-sdr104"
    Mode mode;
};
std::span<const ModeFlag> mode_flags(regs::CardFamily family);

// A caps or caps2 bit by its name in caps.cpp's tables ("UHS_SDR104",
// "HS200_1_8V_SDR"); 0 for a name not there.
uint32_t caps_bit(std::string_view name);
uint32_t caps2_bit(std::string_view name);

// The bits a debugfs write may change (Linux 6.4 on).
CapsPair writable_caps_bits();

// The host's caps with the mode bits such that `mode` is the best the
// kernel can choose: the bits of every mode the kernel prefers to it
// cleared, its own and those of the modes below it set; the other bits as
// in `start`. The kernel picks SDR104, then DDR50, SDR50, SDR25, SDR12
// (any UHS bit makes it try UHS), then high speed. nullopt when debugfs
// cannot ask for the mode (`family` tells SD legacy from MMC legacy): HS400 enhanced strobe (caps2 HS400_ES is not
// writable) unless the host has it already, SDR12, "off".
std::optional<CapsPair> caps_for_mode(Mode mode, CapsPair start, regs::CardFamily family);

// The names of the bits that differ between a and b ("+UHS_SDR104",
// "-UHS_DDR50"), caps first.
std::vector<std::string> caps_change(CapsPair from, CapsPair to);

} // namespace mmc::bus
