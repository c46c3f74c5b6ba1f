// A short, read-only, sequential O_DIRECT read: how fast the bus and card
// deliver right now. Bounded in time and bytes; used by mmc-bus --measure.
// (The calibrated benchmarks live in mmc-bench.)
#pragma once

#include <cstdint>
#include <string>

namespace mmc::bench {

struct QuickRead {
    uint64_t bytes = 0;
    double seconds = 0;
    double mb_s = 0; // 10^6 bytes per second
};

// Reads `device` from offset 0 in `block_bytes` requests until `max_seconds`
// pass or `max_bytes` (0: the device size) are read. Throws std::system_error.
QuickRead quick_read(const std::string& device, double max_seconds, uint32_t block_bytes = 1u << 20,
                     uint64_t max_bytes = 0);

} // namespace mmc::bench
