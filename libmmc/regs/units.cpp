#include "regs/units.h"

#include <fmt/format.h>

namespace mmc::regs {

std::string seconds_text(double seconds, int significant)
{
    if (seconds >= 1.0) return fmt::format("{:.{}g} s", seconds, significant);
    if (seconds >= 1e-3) return fmt::format("{:.{}g} ms", seconds * 1e3, significant);
    if (seconds >= 1e-6) return fmt::format("{:.{}g} us", seconds * 1e6, significant);
    return fmt::format("{:.{}g} ns", seconds * 1e9, significant);
}

std::string hertz_text(double hertz)
{
    if (hertz >= 1e6) return fmt::format("{:g} MHz", hertz / 1e6);
    if (hertz >= 1e3) return fmt::format("{:g} kHz", hertz / 1e3);
    return fmt::format("{:g} Hz", hertz);
}

} // namespace mmc::regs
