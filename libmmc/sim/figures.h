// The figures a card's parameters imply, computed by running the model on
// virtual time: what fio or dd on the served card should measure, the
// "modelled" column of a measured-vs-modelled table. QD1, one request at a
// time, flash-bound (no write cache); MB/s are 10^6 bytes per second.
// Measured where the card really has storage (below a fake's real size and
// wrap), from the fifth AU on, as flashbench does.
#pragma once

#include "sim/params.h"
#include "sim/timing.h" // host_request_bytes

#include <cstdint>
#include <nlohmann/json.hpp>

namespace mmc::sim {

// Requests of `block` bytes, one after the other from an AU boundary.
double sequential_read_mb_s(const Params&, uint64_t block);
double sequential_write_mb_s(const Params&, StartState, uint64_t block); // over four whole AUs
// Requests of `block` bytes at random block-aligned offsets.
double random_read_iops(const Params&, uint64_t block);
// On a full card, over the first `span` bytes of the measured area, in
// steady state (every open AU's log filled and merged more than once).
double random_write_iops(const Params&, uint64_t span, uint64_t block);

// The premise measured (what erasing buys): figures from a starting state
// with no warm-up, as a benchmark meets a card it has just been given.
// Sequential writes of `block` bytes over four whole AUs from the first
// measured AU, after a discard of [discard_offset, + discard_length) (both
// relative to that AU; length 0: none) made on the card in state `s`.
double sequential_write_mb_s_after_discard(const Params&, StartState, uint64_t block, int64_t discard_offset,
                                           uint64_t discard_length);
// The first `writes` random `block`-byte writes over the whole measured
// area, from state `s`: IOPS over them.
double random_write_iops_first(const Params&, StartState, uint64_t block, uint64_t writes);

struct Figures {
    double seq_read_mb_s = 0;             // 1 MiB reads, as host requests of host_request_bytes
    double seq_write_mb_s_clean = 0;      // 1 MiB writes (the same) over whole AUs, from each starting state
    double seq_write_mb_s_full = 0;
    double seq_write_mb_s_fragmented = 0;
    double rand_read_iops = 0;            // 4 KiB reads
    double rand_write_iops_open_aus = 0;  // 4 KiB writes over as many AUs as the card keeps open
    double rand_write_iops_card = 0;      // 4 KiB writes over the whole card: the collapse

    // The premise, at the request size the host chain delivers
    // (host_request_bytes; mmc-sim's chain may deliver them out of order).
    struct Premise {
        double seq_write_mb_s_clean = 0, seq_write_mb_s_full = 0, seq_write_mb_s_fragmented = 0;
        double seq_write_mb_s_fragmented_erased = 0;          // after a discard of the four AUs, aligned
        double seq_write_mb_s_fragmented_erased_half_au = 0;  // after one shifted by half an AU: mmc-erase
                                                              // discards the three whole AUs inside it
        double rand_write_iops_first_clean = 0, rand_write_iops_first_full = 0, rand_write_iops_first_fragmented = 0;
    } premise;
};
inline constexpr uint64_t premise_random_writes = 16;

// All of the above at once. A bad fake (no storage) has none: all zero.
Figures modelled_figures(const Params&);

nlohmann::json to_json(const Figures&);

// Sustained writing (Params::Sustained): what a benchmark writing
// host_request_bytes requests back to back, sequentially over the whole
// storage, should find. The formulas are the card's own (timing.h,
// flash_writes.h); the stall pattern and the per-AU figures come from
// running the flash model over the whole storage from each state.
struct SustainedFigures {
    uint64_t knee_bytes = 0;          // written from an empty SLC cache until it is full (0: no cache)
    double burst_mb_s = 0;            // a request while the cache has room, clean card (no merges)
    double post_cache_mb_s = 0;       // once it is full (= burst without a cache)
    double recovery_bytes_per_s = 0;  // cache freed per second of idle time (0: no cache),
                                      // once the card has been idle for slc_fold_after
    struct Stalls {                   // over one write of the whole storage from a starting state
        uint64_t count = 0;           // stalled requests
        uint64_t first_at_bytes = 0;  // bytes written before the first
        uint64_t every_bytes = 0;     // mean bytes written from one to the next (0 with fewer than two)
        uint64_t longest_ns = 0;
    } clean, full, fragmented;
    double worst_au_mb_s = 0;         // clean: the slowest AU, its bytes over the time its requests took
    uint64_t worst_au_offset = 0;     // where that AU starts
};
SustainedFigures sustained_figures(const Params&);

// The knee when `gap_ns` of idle time passes before each request (a host's
// own cost per request): each gap longer than slc_fold_after folds part of
// what the last request put in. 0 without a cache or when the gaps fold as
// much as the requests fill.
uint64_t knee_bytes(const Params&, uint64_t request, uint64_t gap_ns);

nlohmann::json to_json(const SustainedFigures&);

} // namespace mmc::sim
