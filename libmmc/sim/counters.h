// The device-side ground truth of a simulated card: what the host asked and
// what the flash did for it. Tools are held against these.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

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
    AuSummary aus;
    uint64_t pages_stored = 0;     // memory the simulator holds for data, in pages
};

nlohmann::json to_json(const Counters&);

} // namespace mmc::sim
