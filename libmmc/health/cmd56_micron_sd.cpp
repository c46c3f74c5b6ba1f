// Micron industrial SD: CMD56 argument 0x110005FB, "ME" at offset 0, three
// bytes of utilisation at 7-9 (Micron TN-SD-02, as sdmon issue 15 quotes it).
// No open reader says what unit those bytes are in (a new i400 shows a step
// of 1), so they stay this source's own fields and life used is not
// normalised: the verdict on such a card rests on other sources or is unknown.
#include "health/block_bytes.h"
#include "health/layouts.h"

namespace mmc::health {

LayoutResult decode_micron_sd(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x110005fb, "ME", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    Reading r;
    r.source = "cmd56:micron_sd";
    r.add("percentage_step_utilization", static_cast<int64_t>(b.u8(7)), "Utilisation step");
    r.add("tlc_area_utilization", static_cast<int64_t>(b.u8(8)), "TLC area utilisation");
    r.add("slc_area_utilization", static_cast<int64_t>(b.u8(9)), "SLC area utilisation");
    r.notes.push_back("TN-SD-02's unit for the utilisation bytes is not published in an open reader; life used is not normalised");
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
