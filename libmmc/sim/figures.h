// The figures a card's parameters imply, computed by running the model on
// virtual time: what fio or dd on the served card should measure, the
// "modelled" column of a measured-vs-modelled table. QD1, one request at a
// time, flash-bound (no write cache); MB/s are 10^6 bytes per second.
// Measured where the card really has storage (below a fake's real size and
// wrap), from the fifth AU on, as flashbench does.
#pragma once

#include "sim/params.h"

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

struct Figures {
    double seq_read_mb_s = 0;             // 1 MiB reads
    double seq_write_mb_s_clean = 0;      // 1 MiB writes over whole AUs, from each starting state
    double seq_write_mb_s_full = 0;
    double seq_write_mb_s_fragmented = 0;
    double rand_read_iops = 0;            // 4 KiB reads
    double rand_write_iops_open_aus = 0;  // 4 KiB writes over as many AUs as the card keeps open
    double rand_write_iops_card = 0;      // 4 KiB writes over the whole card: the collapse
};

// All of the above at once. A bad fake (no storage) has none: all zero.
Figures modelled_figures(const Params&);

nlohmann::json to_json(const Figures&);

} // namespace mmc::sim
