// STUB: replaced by the real decoder.
#include "regs/decode.h"

#include <stdexcept>

namespace mmc::regs {

DecodedRegister decode_ext_csd(std::span<const uint8_t> reg) { (void)reg; throw std::logic_error("ext_csd decoder not written yet"); }
std::span<const FieldSpec> ext_csd_table() { return {}; }

} // namespace mmc::regs
