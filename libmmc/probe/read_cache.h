// A read cache in front of the card: a USB card reader's bridge keeps the
// sectors it last moved in its RAM and answers a re-read of them without
// asking the card (F3 resets the USB device between writing and verifying
// for this reason). The timing probes re-read the same places to keep the
// fastest of several reads; answered by the bridge, every re-read is fast,
// the ladder goes flat and the geometry is lost.
//
// Detected by timing: a block read twice in a row, at several places, the
// re-reads much faster than the first reads (under half). Measured by
// flooding: a fresh block read, then N bytes read elsewhere, then the block
// again, N doubling from 64 KiB until the re-read is slow again; that N is
// an upper bound on the cache. Then confirmed: a second flood of N, and
// fresh blocks re-read after it must read cold too; if they do not (a
// loaded host once slowed the cold reads the first pass compared against,
// and a 4 MiB bridge cache was sized at 1 MiB), N doubles and is confirmed
// again, up to the limit. Defeated by ColdReads: before a timed read
// of blocks that were all read since the last flood, N bytes are read
// elsewhere first (a scan of N distinct bytes leaves an LRU cache of at most
// N holding only them), so the timed read reaches the card.
#pragma once

#include "probe/confidence.h"
#include "probe/read_timer.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>

namespace mmc::probe {

struct ReadCacheFinding {
    bool detected = false;
    std::optional<uint64_t> bytes; // a flood this large defeats it (an upper bound); none: not found up to the limit
    double first_ns = 0, again_ns = 0; // medians of first reads and immediate re-reads
    std::string evidence;              // one sentence, empty when nothing was detected
    // The confirming pass disagreed with the first: the size it found did
    // not empty the cache when flooded again, and was doubled until one did.
    // The timing is then less sure than two passes agreeing.
    bool passes_disagreed = false;
    // What the cache leaves of a probe's confidence: high when none was
    // detected, or it was sized and the second pass agreed; medium when the
    // passes disagreed and a larger size was confirmed; low when it could
    // not be emptied (no size).
    Confidence confidence() const;
};

// The largest cache looked for: 64 MiB or an eighth of the device.
uint64_t max_read_cache_bytes(uint64_t device_size);

// Reads about 16 blocks when there is no cache; with one, also about twice
// its size. Returns what it found so far when *stop is set.
ReadCacheFinding find_read_cache(ReadTimer&, const std::atomic<bool>* stop = nullptr);

// A ReadTimer whose timed reads miss a read cache of at most flood_bytes.
class ColdReads : public ReadTimer {
public:
    ColdReads(ReadTimer& device, uint64_t flood_bytes);
    uint64_t size() const override { return dev_.size(); }
    uint32_t block() const override { return dev_.block(); }
    double read_ns(uint64_t offset, uint32_t length) override;
    uint32_t max_read_bytes() const override { return dev_.max_read_bytes(); }
    uint64_t floods() const { return floods_; }

private:
    void flood(uint64_t avoid_offset);
    ReadTimer& dev_;
    uint64_t flood_bytes_;
    std::unordered_set<uint64_t> seen_; // blocks read since the last flood
    uint64_t flooded_ = 0, flooded_end_ = 0; // the last flood's range: held by the cache too
    uint64_t floods_ = 0;
};

// Reads [offset, offset + length) in the largest pieces the ReadTimer takes.
void read_range(ReadTimer&, uint64_t offset, uint64_t length);

} // namespace mmc::probe
