// The figures a card's parameters imply, computed by running the model on
// virtual time: what fio or dd on the served card should measure, the
// "modelled" column of a measured-vs-modelled table. QD1, one request at a
// time, flash-bound (no write cache); MB/s are 10^6 bytes per second.
#pragma once

#include "sim/params.h"

#include <nlohmann/json.hpp>

namespace mmc::sim {

struct Figures {
    double seq_read_mb_s = 0;             // 1 MiB reads
    double seq_write_mb_s_clean = 0;      // 1 MiB writes over whole AUs, from each starting state
    double seq_write_mb_s_full = 0;
    double seq_write_mb_s_fragmented = 0;
    double rand_read_iops = 0;            // 4 KiB reads at random 4 KiB-aligned offsets
    double rand_write_iops_open_aus = 0;  // 4 KiB random writes over as many AUs as the card keeps open (full card)
    double rand_write_iops_card = 0;      // 4 KiB random writes over the whole card (full card): the collapse
};

// Runs on the storage really there (a fake's real size), starting 4 AUs in.
Figures modelled_figures(const Params&);

nlohmann::json to_json(const Figures&);

} // namespace mmc::sim
