#include "sim/timing.h"

#include <cmath>

namespace mmc::sim {

uint64_t rate_ns(double bytes_per_s, uint64_t bytes)
{
    if (bytes_per_s <= 0) return 0; // page_program 0: the flash takes no time
    return static_cast<uint64_t>(std::llround(static_cast<double>(bytes) * 1e9 / bytes_per_s));
}

uint64_t bus_ns(const Timing& t, uint64_t bytes) { return rate_ns(t.bus_bytes_per_s, bytes); }

uint64_t program_ns(const Params& p, uint64_t cached, uint64_t native, uint64_t pages)
{
    if (p.sustained.slc_cache_bytes == 0 && p.sustained.native_rate == 0) return pages * p.timing.page_program_ns;
    return rate_ns(slc_rate(p), cached) + rate_ns(native_rate(p), native);
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

uint64_t gc_stalls_due(const Sustained& s, uint64_t& pending, uint64_t made_free)
{
    if (s.gc_stall_ns == 0) return 0;
    pending += made_free;
    const uint64_t due = pending / s.gc_every;
    pending %= s.gc_every;
    return due;
}

} // namespace mmc::sim
