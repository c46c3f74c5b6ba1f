#include "sim/timing.h"

#include <cmath>

namespace mmc::sim {

uint64_t bus_ns(const Timing& t, uint64_t bytes)
{
    return static_cast<uint64_t>(std::llround(static_cast<double>(bytes) * 1e9 / t.bus_bytes_per_s));
}

uint64_t transfer_ns(const Timing& t, uint64_t bytes) { return t.command_ns + bus_ns(t, bytes); }

uint64_t read_service_ns(const Params& p, uint64_t offset, uint64_t length)
{
    const Timing& t = p.timing;
    if (length == 0) return t.command_ns;
    const uint64_t last = offset + length - 1;
    const uint64_t pages = last / p.page_bytes - offset / p.page_bytes + 1;
    const uint64_t crossings = last / p.au_bytes - offset / p.au_bytes;
    return t.command_ns + pages * t.page_read_ns + crossings * t.au_cross_ns + bus_ns(t, length);
}

} // namespace mmc::sim
