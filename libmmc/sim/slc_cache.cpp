#include "sim/slc_cache.h"

#include "sim/timing.h"

#include <algorithm>
#include <cmath>

namespace mmc::sim {

void SlcCache::idle(uint64_t ns, Counters& c)
{
    if (used_ == 0 || ns <= p_.sustained.slc_fold_after_ns) return;
    ns -= p_.sustained.slc_fold_after_ns;
    const double can = std::floor(static_cast<double>(ns) * slc_fold_rate(p_) / 1e9);
    const uint64_t folded = can >= static_cast<double>(used_) ? used_ : static_cast<uint64_t>(can);
    used_ -= folded;
    c.slc.bytes_folded += folded;
    c.slc.used_bytes = used_;
}

uint64_t SlcCache::program(uint64_t bytes, uint64_t pages, Counters& c)
{
    const uint64_t cached = std::min(bytes, p_.sustained.slc_cache_bytes - used_);
    const uint64_t native = bytes - cached;
    if (cached && used_ + cached == p_.sustained.slc_cache_bytes && c.slc.first_full_at_bytes == 0)
        c.slc.first_full_at_bytes = c.writes.bytes + cached; // the knee, in bytes written
    used_ += cached;
    c.slc.bytes_cached += cached;
    c.slc.bytes_native += native;
    c.slc.used_bytes = used_;
    return program_ns(p_, cached, native, pages);
}

} // namespace mmc::sim
