#include "health/block_bytes.h"
#include "health/sources.h"

#include <fmt/format.h>

namespace mmc::health {

SourceResult ssr_swissbit(std::span<const uint8_t> ssr)
{
    SourceResult out;
    if (ssr.size() != 64) {
        out.none_because = fmt::format("the SD status is {} bytes, not 64", ssr.size());
        return out;
    }
    const BlockBytes b(ssr);
    const uint8_t spare = b.u8(33);
    if (spare > 100) {
        out.none_because = fmt::format("SD status byte 33 is {}, not a percentage: no Swissbit figures", spare);
        return out;
    }
    Reading r;
    r.source = "ssr:swissbit";
    r.add("spare_blocks_percent", static_cast<int64_t>(spare), "Spare blocks left", fmt::format("{}%", spare));
    r.add("block_erases", static_cast<int64_t>(b.be(46, 6)), "Block erases");
    r.add("power_on_count", static_cast<int64_t>(b.be(56, 4)), "Power-on count");
    r.wear.spare_blocks_percent = spare;
    r.wear.erase_count.total = b.be(46, 6);
    r.wear.power_cycles = b.be(56, 4);
    out.reading = std::move(r);
    return out;
}

} // namespace mmc::health
