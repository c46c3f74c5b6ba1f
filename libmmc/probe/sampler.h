// Measuring a read-timing ladder on a device: small O_DIRECT reads just
// before, across and just after each candidate boundary, at several places
// on the device, repeated with the fastest kept (the others were delayed by
// something else). Never reads past the device's end: unlike flashbench -a,
// which wraps its offsets around the end at large alignments, a row has only
// the positions that fit.
#pragma once

#include "probe/ladder.h"
#include "probe/read_cache.h"
#include "probe/read_timer.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace mmc::probe {

struct SampleOptions {
    unsigned repeats = 3;   // reads per place, the fastest kept
    unsigned positions = 8; // places per row, at most (odd multiples of the row's alignment)
    uint64_t max_align = 0; // 0: half the device
    const std::atomic<bool>* stop = nullptr;
    std::function<void(uint64_t done, uint64_t total)> progress;
};

// The rows tested, in order: powers of two from twice the read size (two
// logical blocks) and 3*2^n from 3 KiB, up to max_align.
std::vector<uint64_t> ladder_aligns(uint64_t read_bytes, uint64_t max_align);

// The places a row's reads are made: odd multiples of `align` (so a row
// crosses boundaries of `align` but not of 2*align), spread over the
// device, each with room for the post read before the end.
std::vector<uint64_t> row_positions(uint64_t align, uint64_t device_size, uint32_t read_bytes, unsigned most);

// Each row: per place, pre/on/post each the fastest of `repeats`; the row
// keeps the fastest place (a boundary only some places cross is not the
// row's). noise_ns: the median gap between the fastest
// and second fastest repeat. Stops early (fewer rows) when *stop is set.
Ladder sample_ladder(ReadTimer& device, const SampleOptions& options);

struct GeometryReading {
    Ladder ladder;
    Geometry geometry;
    ReadCacheFinding read_cache;
};

// The ladder read and analyzed. A busy machine delays single reads: when
// `again_if_unclear` and the first reading is not of high confidence, the
// ladder is read again with three times the repeats (more chances for each
// place to be read undisturbed, the fastest kept), at three times the cost,
// and the evidence says so. Both mmc-probe geometry and mmc-erase --au
// measure read the card this way. A read cache in front of the card (a USB
// reader's bridge, read_cache.h) is looked for first; when found, the
// ladder's re-reads are made cold (ColdReads) and the evidence says so;
// when it cannot be emptied, the confidence is low.
GeometryReading read_geometry(ReadTimer& device, SampleOptions options, bool again_if_unclear);

} // namespace mmc::probe
