// For the decoders: a field's raw value by its spec name.
#pragma once

#include "regs/register.h"

#include <cstdint>
#include <string_view>

namespace mmc::regs {

// The raw value of a field of the decoder's own table, which is always there:
// a decoder asks only for names its table defines.
inline uint64_t field_raw(const DecodedRegister& r, std::string_view name) { return r.field(name)->raw; }

} // namespace mmc::regs
