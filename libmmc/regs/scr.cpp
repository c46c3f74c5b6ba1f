// STUB: replaced by the real decoder.
#include "regs/decode.h"

#include <stdexcept>

namespace mmc::regs {

DecodedRegister decode_scr(std::span<const uint8_t> reg) { (void)reg; throw std::logic_error("scr decoder not written yet"); }
std::span<const FieldSpec> scr_table() { return {}; }

} // namespace mmc::regs
