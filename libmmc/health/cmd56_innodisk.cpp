// Innodisk: CMD56 argument 0x110005FD, "LX" at offset 0 ([sdmon]). Counters
// are single bytes at 24-27 and big-endian 32-bit words from 28.
// Byte 27 is the spare blocks' utilisation rate (used, percent); the schema
// keeps what is left, 100 minus it.
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

LayoutResult decode_innodisk(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x110005fd, "LX", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    auto u8 = [&](std::size_t at) { return static_cast<int64_t>(b.u8(at)); };
    auto be32 = [&](std::size_t at) { return static_cast<int64_t>(b.be(at, 4)); };
    Reading r;
    r.source = "cmd56:innodisk";
    r.add("bus_width", u8(16), "Bus width", b.u8(16) == 0x10 ? "4 bits" : b.u8(16) == 0 ? "1 bit" : "unknown");
    r.add("speed_class", u8(18), "Speed class (code)");
    r.add("uhs_speed_grade", u8(19), "UHS speed grade (code)");
    r.add("total_spare_blocks", u8(24), "Spare blocks");
    r.add("factory_bad_blocks", u8(25), "Factory bad blocks");
    r.add("runtime_bad_blocks", u8(26), "Runtime bad blocks");
    r.add("spare_utilization_rate", u8(27), "Spare blocks used", fmt::format("{}%", u8(27)));
    r.add("spor_failure_count", be32(28), "Sudden power-off failures");
    r.add("minimum_erase_count", be32(32), "Minimum erase count");
    r.add("maximum_erase_count", be32(36), "Maximum erase count");
    r.add("total_erase_count", be32(40), "Total erase count");
    r.add("average_erase_count", be32(44), "Average erase count");
    r.add("fw_version", b.ascii(53, 16), "Firmware");

    r.wear.spare_blocks_percent = std::max(0.0, 100.0 - static_cast<double>(u8(27)));
    r.wear.bad_blocks = {static_cast<uint64_t>(u8(25)), static_cast<uint64_t>(u8(26))};
    r.wear.erase_count = {static_cast<uint64_t>(be32(32)), static_cast<uint64_t>(be32(36)),
                          static_cast<uint64_t>(be32(40)), static_cast<double>(be32(44))};
    r.wear.abnormal_power_losses = static_cast<uint64_t>(be32(28));
    r.wear.firmware = b.ascii(53, 16);
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
