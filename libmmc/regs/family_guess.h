// Which family (SD or MMC) pasted registers say they are, where they say it:
// an EXT_CSD is MMC-only; an SCR, SSR or switch status SD-only; a CSD's
// CSD_STRUCTURE 3 and its bits [125:120] (SPEC_VERS on MMC, reserved zero on
// SD) are MMC; a CID's byte 1 is an SD OID letter but on MMC six reserved
// zero bits and CBX. A CSD_STRUCTURE 0 CSD with those bits zero, an OCR or a
// card status can be either. Pure: bytes in, a guess out.
#pragma once

#include "regs/card_registers.h"

#include <optional>
#include <string>
#include <vector>

namespace mmc::regs {

struct FamilyGuess {
    std::optional<CardFamily> family; // nullopt: the registers do not say, or disagree
    std::string why; // "CSD_STRUCTURE 3 is MMC-only"; or why it cannot tell
};

// What one register says, when it says anything.
std::optional<FamilyGuess> family_of_register(const RawRegister& reg);

// What they say together: the family every register that says one agrees on.
FamilyGuess guess_family(const std::vector<RawRegister>& inputs);

} // namespace mmc::regs
