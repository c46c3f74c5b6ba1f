// STUB: replaced by the real decoder.
#include "regs/decode.h"

#include <stdexcept>

namespace mmc::regs {

DecodedRegister decode_ssr(std::span<const uint8_t> reg) { (void)reg; throw std::logic_error("ssr decoder not written yet"); }
std::span<const FieldSpec> ssr_table() { return {}; }

} // namespace mmc::regs
