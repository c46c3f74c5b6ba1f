// STUB: replaced by the real decoder.
#include "regs/decode.h"

#include <stdexcept>

namespace mmc::regs {

DecodedRegister decode_switch_status(std::span<const uint8_t> reg) { (void)reg; throw std::logic_error("switch_status decoder not written yet"); }
std::span<const FieldSpec> switch_status_table() { return {}; }

} // namespace mmc::regs
