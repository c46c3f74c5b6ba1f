#include "regs/units.h"

#include <array>
#include <fmt/format.h>

namespace mmc::regs {

std::string bytes_text(uint64_t bytes)
{
    static constexpr std::array<const char*, 6> unit{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = static_cast<double>(bytes);
    std::size_t i = 0;
    while (value >= 1024.0 && i + 1 < unit.size()) {
        value /= 1024.0;
        ++i;
    }
    if (i == 0) return fmt::format("{} bytes", bytes);
    const bool exact = bytes % (1ull << (10 * i)) == 0;
    const std::string scaled = exact ? fmt::format("{:g} {}", value, unit[i]) : fmt::format("{:.2f} {}", value, unit[i]);
    if (exact && bytes < (1ull << 30)) return scaled;
    return fmt::format("{} ({} bytes)", scaled, bytes);
}

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
