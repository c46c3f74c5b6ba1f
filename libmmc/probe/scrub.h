// A read scrub: the whole device read once, front to back, every read
// timed. Worn and aged flash tells on itself before it fails: its reads
// need read retries, each another array read, so a region's read latency
// rises long before a read fails. Per region the median and the 99th
// percentile of its reads; the regions whose median is at least
// slow_factor times the card's own median (adjacent ones joined, the
// factor the largest); and every logical block that could not be read
// (EIO), found by reading a failed request again block by block. Nothing
// is written. Pure over a ReadTimer (a block device's, or the flash model's
// in the tests).
#pragma once

#include "probe/read_timer.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace mmc::probe {

struct ScrubOptions {
    uint64_t request_bytes = 1 << 20;  // one read (a multiple of the block; at most max_read_bytes)
    uint64_t region_bytes = 16 << 20;  // one row of the latency surface (a multiple of the request)
    double slow_factor = 2.0;
    std::size_t max_read_errors = 10000; // listed; counted beyond
    const std::atomic<bool>* stop = nullptr;
    std::function<void(uint64_t done, uint64_t total)> progress;
};

struct ScrubRegion {
    uint64_t offset = 0, size = 0;
    double p50_us = 0, p99_us = 0;
};

struct SlowRegion {
    uint64_t offset = 0, size = 0;
    double factor = 0; // the region's median over the card's
};

struct ScrubResult {
    std::vector<ScrubRegion> regions;
    std::vector<SlowRegion> slow_regions;
    std::vector<uint64_t> read_errors; // byte offsets of unreadable blocks, the first max_read_errors
    uint64_t read_error_count = 0;
    uint64_t bytes_read = 0;
    double median_us = 0; // of every read of a whole request
    double read_seconds = 0; // the reads' own time: bytes_read over it is the scrub's read rate
    bool interrupted = false;
};

ScrubResult run_scrub(ReadTimer&, const ScrubOptions&);

} // namespace mmc::probe
