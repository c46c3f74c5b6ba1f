#include "sim/wear.h"

#include <algorithm>

namespace mmc::sim {

namespace {
// Age in ns times four times the endurance overflows 64 bits within a year.
// 32-bit ARM (the armhf tools) has no 128-bit integer: there the product is
// a double's, whose rounding can move a step's boundary by a few ns; the
// exact figures are those of the 64-bit hosts the simulator's tests run on.
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 wide_t;
#else
typedef double wide_t;
#endif
} // namespace

BlockWear::BlockWear(const Params& p, uint64_t blocks)
    : endurance_(p.wear.endurance), page_bytes_(p.page_bytes), block_bytes_(p.au_bytes), weak_(p.wear.weak),
      erases_(blocks, 0), spares_(p.wear.spare_blocks)
{
}

void BlockWear::erased(uint64_t block)
{
    if (!endurance_ || worn_out_) return;
    if (++erases_[block] < endurance_) return;
    if (spares_ == 0) {
        worn_out_ = true;
        return;
    }
    --spares_;
    ++remapped_;
    erases_[block] = 0;
}

unsigned BlockWear::retry_steps(uint64_t page, uint64_t age_ns) const
{
    const uint64_t begin = page * page_bytes_, end = begin + page_bytes_;
    uint64_t steps = 0;
    for (const WeakRegion& w : weak_)
        if (w.offset < end && begin < w.offset + w.size) steps = std::max<uint64_t>(steps, w.level);
    const uint64_t erases = erases_[begin / block_bytes_];
    if (endurance_) steps += 4 * erases / endurance_;
    // age * (1 + 3 * erases / endurance) / year, in integers: exact on the virtual clock.
    const wide_t scale = endurance_ ? endurance_ : 1;
    const wide_t aged = static_cast<wide_t>(age_ns) * (scale + (endurance_ ? 3 * erases : 0));
    steps += static_cast<uint64_t>(aged / (scale * year_ns));
    return static_cast<unsigned>(std::min<uint64_t>(steps, 1000));
}

} // namespace mmc::sim
