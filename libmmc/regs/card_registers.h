// A card's registers decoded together: EXT_CSD first (the MMC CID year rule
// needs its revision), then the rest, then the checks that need more than one
// register (an A2 card with an SCR below 6.0, a CSD size class the OCR
// contradicts, ...). Pure, like the decoders.
#pragma once

#include "regs/register.h"

#include <string>
#include <vector>

namespace mmc::regs {

struct RawRegister {
    RegKind kind;
    std::vector<uint8_t> bytes;
    std::string source; // "sysfs", "debugfs", "ioctl" or "input"
};

struct SourcedRegister {
    DecodedRegister reg;
    std::string source;
};

struct CardRegisters {
    CardFamily card{};
    std::vector<SourcedRegister> registers; // in the order given
    std::vector<std::string> warnings;      // cross-register contradictions

    const DecodedRegister* get(RegKind kind) const;
};

CardRegisters decode_card(CardFamily card, const std::vector<RawRegister>& inputs);

// The SD physical-layer version the SCR claims, as major*100 + minor*10
// (100 = 1.0, 110 = 1.10, 200, 300, 400, 500, 600, ... 900).
int scr_spec_level(const DecodedRegister& scr);

} // namespace mmc::regs
