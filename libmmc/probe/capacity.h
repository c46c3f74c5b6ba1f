// The fake-capacity probe: is the storage a card announces really there?
// Pure search logic over a BlockIo (capacity_device.h is the real device's;
// the unit tests hand it a simulated card), after F3's model of a fake:
//   blocks [0, U) store data; a block at or beyond U is limbo (a write is
//   dropped or kept in a small cache of recent limbo writes, a read returns
//   garbage or the cache); with a module M (a power of two, high address
//   lines ignored) address p is p mod M. good: U = announced; limbo: U <
//   announced, no module; wraparound: U = M; chain: U < M < announced;
//   bad: nothing stores (U = 0).
//
// The method (F3's facts, our own search; see man mmc-probe, CAPACITY):
//  1. cache: stamps at the anchor (the first block after 1 MiB; nothing
//     below it is written, so a partition table survives a crash) and at
//     the last block, then the blocks below the last rewritten in place
//     (read, write the same bytes back: no copy needed) until its stamp
//     reads back wrong. The count is the limbo cache (0: wrong at once);
//     when the bound passes first, the last block is storage (or an alias).
//  2. wrap: the anchor, flushed by step 1, must have kept its stamp (else
//     bad); then its stamp is looked for at anchor + 2^k.
//  3. search for U between the anchor and the first known-bad block, in
//     rounds: stamps at k evenly spaced blocks, the cache flushed (the same
//     in-place rewrite), the stamps read back in random order. k balances the
//     flush's cost against the number of rounds, a probe weighed by its
//     measured cost: 1 (a binary search) when there is no cache.
// Every block the probe stamps is copied (in memory: a few hundred blocks,
// at most max_backup_blocks) just before its first write and written back
// at the end, newest first, so that aliases come back right; Ctrl-C
// (`stop`) restores too.
#pragma once

#include "probe/confidence.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

namespace mmc::probe {

// The probe's whole view of the device: whole blocks by number.
class BlockIo {
public:
    virtual ~BlockIo() = default;
    virtual uint64_t block_count() const = 0;
    virtual uint32_t block_size() const = 0; // a power of two, at least 512
    // `out` and `data` are whole blocks; throw std::runtime_error on failure.
    virtual void read(uint64_t block, std::span<uint8_t> out) = 0;
    virtual void write(uint64_t block, std::span<const uint8_t> data) = 0;
};

enum class Verdict { good, limbo, wraparound, chain, bad };

// The probe's steps, in the order they run (the method above; restore last).
enum class CapacityPhase { cache, wrap, search, restore };

struct CapacityProgress {
    CapacityPhase phase = CapacityPhase::cache;
    uint64_t done = 0;       // units of this phase done
    uint64_t total = 0;      // and expected (an estimate for search)
    uint64_t blocks_written = 0;
};

struct CapacityOptions {
    // The largest limbo cache a fake is assumed to have (F3 assumes 1 GiB).
    // The cache check never rewrites more than the smaller of this and a
    // sixteenth of the announced size.
    uint64_t max_cache_bytes = uint64_t{1} << 30;
    bool destructive = false;           // no copies, nothing restored
    // A read cache in front of the card (a USB reader's bridge; found by
    // timing, read_cache.h): it answers a re-read of a block written or read
    // recently with what it holds, not what the card kept. The checks are
    // then spaced so that at least this much other data is rewritten
    // between a write and its verification, and every search round's flush
    // rewrites at least this much: each verifying read reaches the card.
    uint64_t read_cache_bytes = 0;
    uint64_t seed = 0;                  // stamps' salt and read order; 0: random
    const std::atomic<bool>* stop = nullptr; // set asynchronously: stop, restore, return interrupted
    std::function<void(const CapacityProgress&)> progress;
};

// What the probe may do, said before it starts.
struct CapacityPlan {
    uint64_t block_size = 0;
    uint64_t block_count = 0;
    uint64_t anchor = 0;             // the first block it may write; nothing below
    uint64_t cache_check_blocks = 0; // the bound of step 1
    uint64_t max_blocks_written = 0; // worst case (a cache as large as the bound), restores included
    uint64_t typical_blocks_written = 0; // without a cache
    uint64_t max_backup_blocks = 0;  // copies held in memory at most
};

// Throws std::invalid_argument for a device too small to probe (< 4 MiB).
CapacityPlan plan_capacity(uint64_t block_count, uint32_t block_size, const CapacityOptions&);

struct CapacityResult {
    std::optional<Verdict> verdict;     // none when interrupted
    uint64_t announced_bytes = 0;
    uint64_t usable_bytes = 0;          // exact to the block
    std::optional<uint64_t> module_bytes; // the wrap module, when addresses wrap
    std::optional<uint64_t> cache_bytes;  // approximate (an upper bound): 0 = none; nothing when the
                                          // last block is storage, so no limbo cache could be seen
    uint64_t blocks_written = 0;        // every block written, restores included
    uint64_t blocks_read = 0;
    uint64_t blocks_backed_up = 0;      // copies taken (and written back, unless destructive)
    bool restored = false;              // every copy was written back
    bool interrupted = false;
    bool usable_is_lower_bound = false; // U fell inside the cache-flush area: usable is at least this
    // high, or low when a read cache in front of the card is larger than
    // the probe may rewrite to get past it (its verifying reads may be the cache's).
    Confidence confidence = Confidence::high;
    uint64_t read_cache_bytes = 0;      // the options' read cache, as given
    std::string read_cache_evidence;    // what timing found in front of the card (mmc-probe says it here)
    double seconds = 0;
};

// Runs the whole probe. Throws std::runtime_error on an I/O error after
// restoring what it can (the message says whether restoring worked).
CapacityResult probe_capacity(BlockIo&, const CapacityOptions&);

} // namespace mmc::probe
