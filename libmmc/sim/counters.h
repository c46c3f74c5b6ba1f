// The device-side ground truth of a simulated card: what the host asked and
// what the flash did for it. Tools are held against these.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace mmc::sim {

struct RequestCounters {
    uint64_t requests = 0;
    uint64_t bytes = 0;
    uint64_t busy_ns = 0; // service time: from start to completion, waits for the cache included
};

struct AuSummary {            // the state of every AU of the real storage, now
    uint64_t total = 0;
    uint64_t open = 0;        // in the open list, being written
    uint64_t erased = 0;      // wholly discarded: its block is erased, opening it is free
    uint64_t fragmented = 0;  // its next write needs a full merge first
    uint64_t valid_pages = 0; // pages holding data (written, or there from the start)
};

struct SlcCounters {               // the SLC cache (slc_cache.h)
    uint64_t bytes_cached = 0;       // written into it
    uint64_t bytes_native = 0;       // written past it, into the native flash (it was full)
    uint64_t bytes_folded = 0;       // folded into the native flash by idle time
    uint64_t used_bytes = 0;         // holding data now
    uint64_t first_full_at_bytes = 0; // bytes written when it first filled: the knee (0 = never)
};

// One garbage-collection stall (Params::Sustained): a request that had to
// wait while the FTL made free blocks.
struct GcStall {
    uint64_t at_ns = 0;        // the virtual time the stalled request started
    uint64_t offset = 0;       // its byte offset
    uint64_t bytes_before = 0; // bytes written since the start, before it
    uint64_t ns = 0;           // the stall's length (gc_stall for each stall it took)
};

struct GcStalls {
    static constexpr std::size_t kept = 10000; // the list keeps the first ones; count and longest all
    uint64_t count = 0;    // stalled requests
    uint64_t total_ns = 0;
    GcStall longest;
    std::vector<GcStall> first;
    void record(const GcStall&);
};

// The flash's wear (wear.h) and what it has cost the host.
struct WearCounters {
    std::vector<uint64_t> erase_counts; // per erase block (AU), since its last remap
    uint64_t read_retries = 0;     // read-retry steps taken, each another page read
    uint64_t read_errors = 0;      // reads failed: a page past the ECC
    uint64_t remapped_blocks = 0;  // worn-out blocks a spare took the place of
    uint64_t spare_blocks_left = 0;
    bool end_of_life = false;      // a block wore out with no spare left
    uint64_t lost_writes = 0;      // writes acknowledged and not stored (end of life: lose-writes)
    uint64_t lost_write_bytes = 0;
    uint64_t refused_writes = 0;   // writes and discards refused (end of life: read-only)
};

struct Counters {
    RequestCounters reads, writes, discards, flushes;
    uint64_t busy_ns = 0;          // total service time
    uint64_t pages_read = 0;       // flash pages read for the host
    uint64_t pages_programmed = 0; // for the host (copies not included)
    uint64_t pages_copied = 0;     // by merges and gap fills: one read + one program each
    uint64_t merges = 0;           // AUs closed or consolidated with copies or an erase
    uint64_t erases = 0;           // blocks erased (by opening, merging or discarding)
    uint64_t au_crossings = 0;     // AU boundaries crossed by reads
    uint64_t cache_wait_ns = 0;    // time writes waited for room in the write cache
    uint64_t limbo_bytes_written = 0; // fakes: bytes written where no storage is
    uint64_t limbo_bytes_read = 0;
    uint64_t blocks_made_free = 0; // by writes: the erases they needed, and AUs opened below the
                                   // reserve (ftl.h); what garbage-collection stalls count
    SlcCounters slc;
    GcStalls gc_stalls;
    AuSummary aus;
    WearCounters wear;
    uint64_t pages_stored = 0;     // memory the simulator holds for data, in pages
};

nlohmann::json to_json(const Counters&);

} // namespace mmc::sim
