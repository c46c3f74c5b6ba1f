// The flash translation layer of a simulated card: which AUs are open for
// writing, which pages hold valid data, and what each write or discard costs
// the flash. After the behaviour Arnd Bergmann measured on SD cards
// ("Optimizing Linux with cheap flash drives", LWN 2011; the flashbench
// README; the Linaro flash card survey): the card writes into a few open
// allocation units (AU = erase block here) and collapses when writes are
// spread over more AUs than it keeps open.
//
// The model, per AU (all costs are flash time, added to the request):
// - Opening an AU for writing takes a fresh erased block, its log: free when
//   the AU was wholly discarded (its block is already erased), otherwise one
//   block erase. Opening an AU when open_aus are open closes the least
//   recently written one first.
// - Writes into an open AU append to its log at page_program per page. A
//   partial page costs a whole program, plus a page_read when the rest of
//   the page holds valid data (read-modify-write).
// - The log stays in order while each write starts at its pointer or in
//   its last page (4 KiB writes filling a 16 KiB page). The first write
//   into an empty log may start anywhere: the valid pages before it are
//   copied from the old block first (page_read + page_program each).
//   Any other write (behind the pointer, or leaving a hole) is appended all
//   the same, and the log stops being in order. flashbench --open-au
//   --random shows cards absorbing writes in random order inside their open
//   AUs and collapsing only past the open-AU count; so random writes over
//   open_aus AUs stay cheap and over one more AU they collapse.
// - Closing an AU is a merge. An in-order log becomes the AU's block once
//   the valid pages beyond its pointer are copied into it. An out-of-order
//   log needs a full merge: every valid page of the AU copied into a fresh
//   block (one erase). An AU whose log fills up is closed and reopened.
// - A log written in order to its end is closed for free: nothing to copy.
//   So a whole AU written in order costs one erase and no copies.
// - A fragmented AU (StartState::fragmented: its data scattered over several
//   blocks) needs a full merge before its first write: every valid page
//   copied and one erase; then it is opened as above.
// - Discarding a whole AU invalidates its pages and erases its block
//   (block_erase, counted, unless already erased; an open AU is dropped);
//   a partial discard invalidates only the pages it wholly covers, so later
//   merges copy fewer pages, and nothing else.
// - Blocks made free (Counters::blocks_made_free, what garbage-collection
//   stalls count, card.h): every erase a write needs (opening an AU whose
//   block is not erased, a full merge, a full log), and opening an erased AU
//   that leaves fewer erased AUs than the controller's reserve
//   (gc_reserve): it makes one up by collecting garbage. So a clean card
//   makes none until it has used up all but its reserve, a full one one per
//   AU opened, a fragmented one two (the merge and the opening).
// - The FAT area (Params::fat_area_bytes): each AU that begins below it is
//   written in a mode for small random writes, apart from the open AUs (it
//   takes no open_aus slot and is never closed to open another). Its log is
//   page-mapped: a write anywhere appends its pages (a partial page takes a
//   whole one), nothing is copied when a log starts mid-AU, and writing out
//   of order costs nothing more until the log is full. Then, as an open
//   AU's full log, the AU's valid pages are merged into a fresh block (one
//   erase) and a fresh log begun (another). A log written in order to its
//   end is the AU's block, closed for free. After the same sources: cards keep the FAT, written in
//   small pieces all over its first AUs, fast this way (LWN 2011: "Optimizing
//   Linux with cheap flash drives"; flashbench's --find-fat looks at these
//   AUs and its --open-au test starts past them).
// Every erase counts against its AU's block (wear.h).
// An erase is counted where a fresh block is needed; the blocks merges
// release are erased then. Writing into pages that hold valid data (a full
// card) therefore costs copies and erases that a discarded card does not.
#pragma once

#include "sim/counters.h"
#include "sim/params.h"
#include "sim/wear.h"

#include <cstdint>
#include <vector>

namespace mmc::sim {

class Ftl {
public:
    // `physical_bytes`: the storage really there (fakes have less).
    Ftl(const Params&, uint64_t physical_bytes);

    uint64_t pages() const { return pages_; }
    uint32_t page_bytes() const { return page_bytes_; }
    uint64_t aus() const { return aus_; }
    bool valid(uint64_t page) const { return (valid_[page / 64] >> (page % 64)) & 1; }

    // A write of physical bytes [offset, offset + length), inside one AU.
    // Updates the state and the flash counters; returns the flash time.
    uint64_t write(uint64_t offset, uint64_t length, Counters&);

    // Invalidates the pages wholly inside [offset, offset + length) (inside
    // one AU), calling drop(page) for each page that held data. Returns the
    // flash time (block_erase when the AU is wholly discarded).
    template <class Drop> uint64_t discard(uint64_t offset, uint64_t length, Counters& c, Drop drop)
    {
        const auto [first, end] = covered_pages(offset, length);
        for (uint64_t p = first; p < end; ++p)
            if (valid(p)) {
                set_valid(p, false);
                drop(p);
            }
        return discard_done(offset / au_bytes_, first, end, c);
    }

    void summarize(AuSummary&) const;
    uint64_t erased_aus() const { return erased_aus_; }
    const BlockWear& wear() const { return wear_; }

private:
    struct OpenAu {
        uint64_t au;
        uint64_t used;        // log pages programmed
        bool in_order = true; // the log holds the AU's pages [0, used) in order
    };
    enum : uint8_t { erased_flag = 1, fragmented_flag = 2 };

    std::pair<uint64_t, uint64_t> covered_pages(uint64_t offset, uint64_t length) const;
    uint64_t discard_done(uint64_t au, uint64_t first, uint64_t end, Counters&);
    uint64_t au_pages(uint64_t au) const;
    void set_valid(uint64_t page, bool v);
    uint64_t copy_valid(uint64_t first_page, uint64_t end_page, Counters&);
    uint64_t erase(uint64_t au, Counters&);
    OpenAu* find_open(uint64_t au);
    uint64_t close(std::size_t open_index, Counters&);
    uint64_t open(uint64_t au, Counters&);
    uint64_t full_merge(uint64_t au, Counters&);
    // Takes a block for a new log of this AU: free when the AU is erased.
    uint64_t take_block(uint64_t au, Counters&);
    // A write of pages [first, last] of an AU of the FAT area.
    uint64_t write_fat_area(uint64_t au, uint64_t first, uint64_t last, bool ends_on_page, Counters&);
    // A write of pages [first, last] of any other AU: the open-AU scheme.
    uint64_t write_open_au(uint64_t au, uint64_t first, uint64_t last, bool ends_on_page, Counters&);
    // Whether a write starting at this page of the AU keeps its log in order.
    bool in_order_with(const OpenAu&, uint64_t page_in_au) const;

    Timing t_;
    uint32_t page_bytes_;
    uint64_t au_bytes_;
    uint64_t pages_per_au_;
    uint64_t pages_;
    uint64_t aus_;
    unsigned open_limit_;
    uint64_t reserve_aus_;     // gc_reserve in AUs, rounded up
    uint64_t erased_aus_ = 0;  // AUs with erased_flag
    std::vector<uint64_t> valid_;  // one bit per page
    std::vector<uint8_t> flags_;   // per AU
    std::vector<OpenAu> open_;     // least recently written first
    uint64_t fat_aus_;             // AUs [0, fat_aus_) are the FAT area
    std::vector<OpenAu> fat_logs_; // the FAT area's logs (used = pages in the log)
    BlockWear wear_;
};

} // namespace mmc::sim
