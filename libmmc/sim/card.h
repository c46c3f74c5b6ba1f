// A simulated SD card: a fake map (fakes.h) in front of a flash translation
// layer (ftl.h) over sparse page data (store.h), on virtual time. Pure: no
// I/O, no real clock. Requests are served one at a time in arrival order.
//
// Service time of one request (ns; formulas in timing.h):
// - read:    command + page_read per flash page touched + au_cross per AU
//            boundary it crosses + bus transfer. Reads wait for the write
//            cache to drain (the flash is one resource).
// - write:   command + bus transfer + the FTL's flash time (ftl.h). With a
//            write cache, the write completes after command + bus while the
//            cache has room for it, the flash work runs behind in virtual
//            time, and a write waits for room when the cache is full. A
//            write larger than the cache waits for it to drain and is
//            served directly.
//            The flash time is flash_writes.h's: the FTL's, its page
//            programs timed by the SLC cache's model (slc_cache.h), plus
//            the garbage-collection stalls the FTL's state sets off, each
//            recorded in the counters. Idle time before any request folds
//            the SLC cache.
// - discard: waits for the drain; command + block_erase per whole AU whose
//            block was not already erased.
// - flush:   waits for the drain; command.
// Limbo addresses of a fake (no storage behind them) cost command + bus for
// a write (the data goes nowhere) and the read formula for a read; a
// discard there does nothing (F3's devices have no discard).
// A worn card (wear.h): each read-retry step a page needs costs another
// page_read; a page past the ECC fails the read (RequestFailed, after the
// time the retries took). At the end of life: read-only refuses writes and
// discards (RequestFailed after command); lose-writes acknowledges them
// after command + bus and stores nothing (a discard does nothing); dead
// fails every request after command. The request that wears the last
// block out is served; the end begins with the next one.
// With a bridge cache (a USB reader's RAM, bridge_cache.h) a read it can
// answer costs the bus transfer alone and never reaches the card: not
// counted as the card's read, but in counters_json()'s "bridge_cache".
#pragma once

#include "sim/bridge_cache.h"
#include "sim/counters.h"
#include "sim/fakes.h"
#include "sim/flash_writes.h"
#include "sim/params.h"
#include "sim/store.h"
#include "sim/wear.h"

#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>

namespace mmc::sim {

class Card {
public:
    explicit Card(const Params&); // validates; the starting state follows from params and seed

    uint64_t size_bytes() const { return p_.size_bytes; } // announced
    const Params& params() const { return p_; }

    // Each returns the virtual time the request completes: it starts at
    // max(arrival_ns, the end of the previous request). A range beyond the
    // announced size throws std::out_of_range; a request a worn card does
    // not serve throws RequestFailed.
    uint64_t read(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns);
    // The next part of a multi-block read whose previous part ended at
    // `offset` (the SD lab's sector-at-a-time requests, command_joiner.h):
    // no command, the page the previous part ended in is not read again, an
    // AU boundary at `offset` is crossed; counted as bytes of that read, not
    // as a request. The parts together cost what the whole read would. A
    // part starts when the previous one ended, whenever it arrives: on a
    // real host one command's data streams by DMA, so the host's own pace
    // (QEMU's per-sector round trip) overlaps the card's work rather than
    // adding to it; the part is answered at the later of the two.
    uint64_t read_on(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns);
    uint64_t write(uint64_t offset, std::span<const uint8_t> data, uint64_t arrival_ns);
    uint64_t discard(uint64_t offset, uint64_t length, uint64_t arrival_ns);
    uint64_t flush(uint64_t arrival_ns);

    // When the previous request completed (0 before the first).
    uint64_t idle_at() const { return host_free_; }

    const Counters& counters() const; // the per-AU summary is brought up to date on each call
    nlohmann::json counters_json() const;

    // What one request arriving at an idle card (cache drained) would take,
    // with no side effect: the prediction tools are held to.
    uint64_t predict_read(uint64_t offset, uint64_t length) const;
    uint64_t predict_write(uint64_t offset, uint64_t length) const;

private:
    void check_range(const char* what, uint64_t offset, uint64_t length) const;
    uint64_t read(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns, bool continues);
    // Calls f(logical, physical or nullopt for limbo, length) for each piece
    // of [offset, offset + length) inside one logical page.
    template <class F> void pieces(uint64_t offset, uint64_t length, F f) const;
    // Calls f(physical offset, length) for runs of physically contiguous
    // storage inside one AU: the units the FTL works on.
    template <class F> void storage_runs(uint64_t offset, uint64_t length, F f) const;
    // The flash work of a write, applied to `flash` (a copy for a prediction).
    FlashWrites::Work write_flash(FlashWrites&, Counters&, uint64_t start, uint64_t offset, uint64_t length) const;
    // The card was idle until `start`: the SLC cache folds.
    void fold_idle(uint64_t start);
    uint64_t drained(uint64_t at);
    // Read-retry steps for the pages [first_page, end_page) of the storage
    // behind [offset, ...) at virtual time `at`: the steps taken, and the
    // logical offset of the first page past the ECC, if any.
    struct Retries {
        uint64_t steps = 0;
        std::optional<uint64_t> unreadable;
    };
    Retries retries(uint64_t offset, uint64_t length, uint64_t at, bool skip_first_page) const;
    // At the end of life, what a request other than a read meets: throws
    // for read-only (writes and discards) and dead, having taken command.
    void refuse_at_end_of_life(const char* what, uint64_t offset, uint64_t start, bool changes_data);
    bool losing_writes() const;

    Params p_;
    FakeMap fakes_;
    FlashWrites flash_;
    PageStore store_;
    mutable Counters counters_;
    uint64_t host_free_ = 0;  // end of the previous request
    uint64_t flash_free_ = 0; // end of the flash work queued behind the write cache
    struct Pending {
        uint64_t done_ns;
        uint64_t bytes;
    };
    std::deque<Pending> cached_; // writes in the cache, oldest first
    uint64_t cached_bytes_ = 0;
    std::optional<BridgeCache> bridge_;
};

} // namespace mmc::sim
