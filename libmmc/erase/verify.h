// Reading an erased range back (O_DIRECT) and judging what it holds against
// what the method and the card's registers promise. A card that reads back
// the other erased pattern (0xff where SCR says 0x00, as the lab's emulated
// card does) is a warning with the facts; any other data is a failure,
// except after a DISCARD, which the spec allows to keep old data.
#pragma once

#include "erase/methods.h"
#include "erase/plan.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::erase {

enum class VerifyMode { none, sampled, full };
std::string_view to_string(VerifyMode m); // "none", "sampled", "full"

enum class VerifyResult { pass, warning, fail };
std::string_view to_string(VerifyResult r); // "pass", "warning", "fail"

// A part of the erased range and what it should hold (relative to the
// opened device).
struct Segment {
    Extent extent;
    Outcome expect;
    std::string what; // "erased range", "head (zeroed)", "tail (zeroed)"
};

// What some bytes hold.
struct Scan {
    uint64_t zeros = 0, ones = 0, other = 0;
    std::optional<uint64_t> first_other; // offset of the first byte that is neither
    uint8_t first_other_value = 0;
    void add(const Scan& s);
};
Scan scan(std::span<const uint8_t> bytes, uint64_t base_offset);

struct VerifyReport {
    VerifyMode mode = VerifyMode::none;
    std::string expected;  // "0x00 (SCR DATA_STAT_AFTER_ERASE)"
    std::string found;     // "0xff", "0x00 and 0xff", "other data"
    uint64_t bytes_checked = 0;
    VerifyResult result = VerifyResult::pass;
    std::vector<std::string> details;
};

// The verdict for scans of each segment (scans[i] belongs to segments[i]). Pure.
VerifyReport judge(const std::vector<Segment>& segments, const std::vector<Scan>& scans, VerifyMode mode);

// Which windows of a segment a sampled check reads: the first and last
// 64 KiB, 4 KiB at both ends of every chunk inside it (at most 4096 chunks,
// evenly picked), and 64 windows of 64 KiB spread over it. Sorted, merged,
// inside the segment. Full mode: the whole segment. Pure.
std::vector<Extent> sample_windows(const Extent& segment, const std::vector<Extent>& chunks, VerifyMode mode);

// Read the windows of every segment from `path` (O_DIRECT where the device
// allows it, else buffered) and judge. Stops early when `stop` is set.
VerifyReport verify(const std::string& path, const std::vector<Segment>& segments, const std::vector<Extent>& chunks,
                    VerifyMode mode, uint64_t logical_block, const std::atomic<bool>& stop);

} // namespace mmc::erase
