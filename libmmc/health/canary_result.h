// What the write canary found (canary.h runs it): kept in the health
// report, shown by the views, the metrics and the check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mmc::health {

// What one run of the canary wrote: 64 KiB, four pages of 16 KiB flash,
// so that a lost write is a whole page's worth; at the hourly timer
// (monitoring/mmckit-health.timer) 24 runs, 1.5 MiB of data a day, plus the
// file system's own writes for the file it creates and removes.
inline constexpr uint64_t canary_default_bytes = 64 * 1024;
inline constexpr uint64_t canary_runs_a_day = 24;
// A raw region (--destructive) is the user's choice, up to this much.
inline constexpr uint64_t canary_max_region_bytes = 16 * 1024 * 1024;

enum class CanaryState {
    ok,           // every byte read back as written
    lost_writes,  // acknowledged, then read back as something else (old data, zeros, another address's)
    corrupt,      // read back with bits flipped
    read_errors,  // written, then unreadable
    read_only,    // the write or the flush refused (EROFS, EPERM, EACCES), or failed (EIO)
                  // on a card that still reads: a card that write-protected itself
    dead,         // the write failed (EIO) and the card no longer reads either
};

std::string_view to_string(CanaryState s); // "ok", "lost_writes", ... (health/canary.cpp)

struct CanaryResult {
    std::string mode;  // "file" or "region"
    std::string where; // the file, or the device
    std::optional<uint64_t> offset; // region: its first byte on the device
    uint64_t sequence = 0;
    uint64_t size = 0;    // the bytes it meant to write
    uint64_t written = 0; // the bytes the target acknowledged
    bool read_back_ok = false;
    uint64_t lost = 0; // acknowledged bytes that did not read back as written
    std::optional<uint64_t> first_bad_offset; // from the canary's first byte
    CanaryState state = CanaryState::ok;
    std::string error; // the refused or failed call, in words
};

} // namespace mmc::health
