// How a simulated card's flash wears (Params::Wear), per erase block (an AU
// here, as in ftl.h):
// - Every erase counts against the block. A block erased `endurance` times
//   is worn out: a spare block takes its place (counted as remapped; the
//   AU starts again on fresh flash) while spares last. With none left the
//   card reaches its end of life (EndOfLife): from the next request on it
//   is read-only, loses writes or is dead (card.h).
// - Reads of worn and aged flash need read retries: the controller reads
//   the page again at shifted reference voltages, each step another array
//   read (page_read). A page needs
//       weak level + (4 * erases) / endurance + age * (1 + (3 * erases) / endurance) / year
//   steps, each term rounded down: a quarter of the rated life costs a
//   step; a fresh block loses a step's worth of charge a year, a block at
//   its rated life four times as fast (retention falls with wear). The
//   age is the card's (Params::Wear::age_ns) plus the virtual time.
// - Past max_read_retries steps the bit errors are beyond the ECC: the page
//   cannot be read (a read error, EIO on the served device).
// With endurance 0 nothing wears: no erase counts against a block, and
// only weak regions and age add steps.
#pragma once

#include "sim/params.h"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace mmc::sim {

// The read-retry steps a controller tries before it gives a page up: the
// length of a NAND read-retry table (7 shifted reference voltages is common).
inline constexpr unsigned max_read_retries = 7;
inline constexpr uint64_t year_ns = 365ull * 24 * 3600 * 1'000'000'000;

// A request the card did not serve: a read it could not correct, a write
// to a card that write-protected itself, anything to a dead card. The card
// was busy with it until done_ns all the same.
class RequestFailed : public std::runtime_error {
public:
    enum class Kind { read_error, write_protected, dead };
    RequestFailed(Kind kind, uint64_t offset, uint64_t done_ns, const std::string& what)
        : std::runtime_error(what), kind(kind), offset(offset), done_ns(done_ns)
    {
    }
    Kind kind;
    uint64_t offset;  // the first byte that failed (a read error) or the request's offset
    uint64_t done_ns;
};

class BlockWear {
public:
    BlockWear(const Params&, uint64_t blocks);

    // An erase of this block; remaps it or ends the card's life once worn out.
    void erased(uint64_t block);
    // Read-retry steps a page of physical `page` needs at card age `age_ns`
    // (may exceed max_read_retries: the page is unreadable).
    unsigned retry_steps(uint64_t page, uint64_t age_ns) const;

    bool end_of_life() const { return worn_out_; }
    const std::vector<uint64_t>& erase_counts() const { return erases_; }
    uint64_t remapped() const { return remapped_; }
    uint64_t spares_left() const { return spares_; }

private:
    uint64_t endurance_;
    uint64_t page_bytes_, block_bytes_;
    std::vector<WeakRegion> weak_;
    std::vector<uint64_t> erases_; // per block, since it was last remapped
    uint64_t spares_;
    uint64_t remapped_ = 0;
    bool worn_out_ = false;
};

} // namespace mmc::sim
