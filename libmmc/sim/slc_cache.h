// The SLC cache of a simulated card (Params::Sustained): part of its flash
// run as SLC, fast to program, which idle time folds back into the native
// (TLC, QLC) flash. Tracks how much of it holds data not folded yet.
//
// The model, and why this one:
// - A write's data lands in the cache at slc_rate while the cache has room;
//   what does not fit goes straight to the native flash at native_rate. A
//   write that crosses the knee is split there, so the knee falls exactly
//   at the cache's size.
// - Once full, the cache stays full while writes come back to back: they
//   bypass it, and folding waits for idle time. We take bypass rather than
//   "write into the cache and fold at the same time" because then the
//   post-cache speed is exactly native_rate, the figure the option names
//   and a benchmark is compared with. A card that folds while it writes
//   (host data and fold copies sharing the native flash, the deeper cliff
//   some reviews show) looks the same from the host with a lower
//   native_rate; give that.
// - Idle time (between the end of one request and the start of the next)
//   folds the cache at slc_fold_rate, freeing its room, once the card has
//   been idle for slc_fold_after: a gap shorter than that folds nothing.
#pragma once

#include "sim/counters.h"
#include "sim/params.h"

#include <cstdint>

namespace mmc::sim {

class SlcCache {
public:
    explicit SlcCache(const Params& p) : p_(p) {}

    // The card was idle for `ns`: fold what that time allows.
    void idle(uint64_t ns, Counters&);
    // A write of `bytes` over `pages` flash pages: fills the cache and
    // returns the time its data takes to program (timing.h program_ns).
    uint64_t program(uint64_t bytes, uint64_t pages, Counters&);

    uint64_t used_bytes() const { return used_; }

private:
    Params p_;
    uint64_t used_ = 0;
};

} // namespace mmc::sim
