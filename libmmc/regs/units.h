// Human renderings shared by the decoders: times, frequencies. Sizes are
// cli/size.h's format_bytes_exact, the one byte formatter.
#pragma once

#include <cstdint>
#include <string>

namespace mmc::regs {

// "1.5 ms", "100 ns", "2.5 s"; to at most `significant` digits (a quotient
// such as 1 s / 15 AU is "66.7 ms", not "66.6667 ms").
std::string seconds_text(double seconds, int significant = 6);
// "25 MHz", "400 kHz"
std::string hertz_text(double hertz);

} // namespace mmc::regs
