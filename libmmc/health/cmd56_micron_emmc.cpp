// Micron eMMC: three CMD56 reads ([collectd] src/mmc.c; Micron TN-FC-42's
// argument format: bit 0 set = read, bits 7:1 the report). Each block starts
// with three big-endian 16-bit numbers:
//   0x11  initial bad blocks, runtime bad blocks, spare blocks remaining
//   0x23  SLC area erase count: min, max, avg
//   0x25  MLC area erase count: min, max, avg
// No signature: each block must pass not_health_data() and hold its erase
// counts in order (min <= avg <= max). The schema's erase counts are the MLC
// area's, where user data lives.
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <fmt/format.h>

namespace mmc::health {

LayoutResult decode_micron_emmc(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* bad = checked_block(blocks, 0x11, "", result);
    if (!bad) return result;
    const Cmd56Block* slc = checked_block(blocks, 0x23, "", result);
    if (!slc) return result;
    const Cmd56Block* mlc = checked_block(blocks, 0x25, "", result);
    if (!mlc) return result;
    const BlockBytes b(bad->bytes), s(slc->bytes), m(mlc->bytes);
    for (const auto* area : {&s, &m}) {
        const uint64_t min = area->be(0, 2), max = area->be(2, 2), avg = area->be(4, 2);
        if (min > avg || avg > max) {
            result.not_health = fmt::format("the erase counts are out of order (min {} avg {} max {}): not a health report",
                                            min, avg, max);
            return result;
        }
    }
    Reading r;
    r.source = "cmd56:micron_emmc";
    auto be16 = [](const BlockBytes& x, std::size_t at) { return static_cast<int64_t>(x.be(at, 2)); };
    r.add("initial_bad_blocks", be16(b, 0), "Initial bad blocks");
    r.add("runtime_bad_blocks", be16(b, 2), "Runtime bad blocks");
    r.add("remaining_spare_blocks", be16(b, 4), "Spare blocks remaining");
    r.add("slc_erase_min", be16(s, 0), "SLC minimum erase count");
    r.add("slc_erase_max", be16(s, 2), "SLC maximum erase count");
    r.add("slc_erase_avg", be16(s, 4), "SLC average erase count");
    r.add("mlc_erase_min", be16(m, 0), "MLC minimum erase count");
    r.add("mlc_erase_max", be16(m, 2), "MLC maximum erase count");
    r.add("mlc_erase_avg", be16(m, 4), "MLC average erase count");

    r.wear.bad_blocks = {b.be(0, 2), b.be(2, 2)};
    r.wear.erase_count.min = m.be(0, 2);
    r.wear.erase_count.max = m.be(2, 2);
    r.wear.erase_count.avg = static_cast<double>(m.be(4, 2));
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
