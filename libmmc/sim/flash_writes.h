// The flash side of a write, in one place for the card (card.h) and the
// figures (figures.h), so that a prediction is the card's own arithmetic:
// the FTL's work (ftl.h) with its page programs timed by the SLC cache's
// model (slc_cache.h) instead of page_program, and a garbage-collection
// stall of gc_stall for every gc_every blocks the FTL made free
// (timing.h gc_stalls_due). With no SLC cache, native rate or stall set,
// a write costs exactly the FTL's flash time.
#pragma once

#include "sim/counters.h"
#include "sim/ftl.h"
#include "sim/params.h"
#include "sim/slc_cache.h"
#include "sim/timing.h"

#include <cstdint>

namespace mmc::sim {

class FlashWrites {
public:
    // `physical_bytes`: the storage really there (fakes have less).
    FlashWrites(const Params& p, uint64_t physical_bytes) : p_(p), ftl_(p, physical_bytes), slc_(p) {}

    struct Work {
        uint64_t ns = 0;       // the flash work, the data's program time included
        uint64_t stall_ns = 0; // the garbage-collection stalls it set off
    };
    // One write: `runs(f)` calls f(physical offset, length) for each run of
    // it inside one AU, in order. A stall is recorded in the counters as
    // `where` (its start, offset and bytes written before it) with its length.
    template <class Runs> Work write(Runs runs, Counters& c, GcStall where)
    {
        const uint64_t pages_before = c.pages_programmed, made_free_before = c.blocks_made_free;
        uint64_t ns = 0, stored = 0;
        runs([&](uint64_t phys, uint64_t n) {
            ns += ftl_.write(phys, n, c);
            stored += n;
        });
        // The FTL charged page_program per page; the SLC cache's model times them instead.
        const uint64_t pages = c.pages_programmed - pages_before;
        ns = ns - pages * p_.timing.page_program_ns + slc_.program(stored, pages, c);
        const uint64_t stalls = gc_stalls_due(p_.sustained, gc_pending_, c.blocks_made_free - made_free_before);
        where.ns = stalls * p_.sustained.gc_stall_ns;
        if (where.ns) c.gc_stalls.record(where);
        return {ns, where.ns};
    }
    // The card was idle for `ns`: the SLC cache folds.
    void idle(uint64_t ns, Counters& c) { slc_.idle(ns, c); }

    Ftl& ftl() { return ftl_; }
    const Ftl& ftl() const { return ftl_; }
    const SlcCache& slc() const { return slc_; }

private:
    Params p_;
    Ftl ftl_;
    SlcCache slc_;
    uint64_t gc_pending_ = 0; // blocks made free since the last stall
};

} // namespace mmc::sim
