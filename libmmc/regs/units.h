// Human renderings shared by the decoders: sizes, times, frequencies.
#pragma once

#include <cstdint>
#include <string>

namespace mmc::regs {

// "3.69 GiB (3963617280 bytes)"; small sizes as "512 bytes" or "4 MiB".
std::string bytes_text(uint64_t bytes);
// "1.5 ms", "100 ns", "2.5 s"; to at most `significant` digits (a quotient
// such as 1 s / 15 AU is "66.7 ms", not "66.6667 ms").
std::string seconds_text(double seconds, int significant = 6);
// "25 MHz", "400 kHz"
std::string hertz_text(double hertz);

} // namespace mmc::regs
