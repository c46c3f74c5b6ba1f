// Text view of decoded registers for people: the summary first, then the
// derived values aligned, then warnings; verbose adds every spec field with
// its bit range, raw value and meaning.
#pragma once

#include "regs/register.h"

#include <string>

namespace mmc::out {

struct TextStyle {
    bool verbose = false;
    bool color = false; // only on a terminal and never with NO_COLOR
};

std::string register_text(const regs::DecodedRegister& reg, std::string_view source, const TextStyle& style);

} // namespace mmc::out
