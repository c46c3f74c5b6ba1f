// Swissbit SD: CMD56 argument 0x53420001 ("SB" and 1), "Sw" at offset 0,
// big-endian words ([sdmon]). sdmon labels the words at 68-76 "User area"
// a second time; they follow the user area's and are the system area's, as
// the spare, bad-block and refresh pairs at 88-111 are (user, then system).
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

LayoutResult decode_swissbit(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x53420001, "Sw", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    auto be32 = [&](std::size_t at) { return static_cast<int64_t>(b.be(at, 4)); };
    Reading r;
    r.source = "cmd56:swissbit";
    r.add("fw_version", b.ascii(32, 16), "Firmware");
    r.add("user_area_rated_cycles", be32(48), "User area rated cycles");
    r.add("user_area_max_cycle_count", be32(52), "User area maximum erase count");
    r.add("user_area_total_cycle_count", be32(56), "User area total erase count");
    r.add("user_area_average_cycle_count", be32(60), "User area average erase count");
    r.add("system_area_max_cycle_count", be32(68), "System area maximum erase count");
    r.add("system_area_total_cycle_count", be32(72), "System area total erase count");
    r.add("system_area_average_cycle_count", be32(76), "System area average erase count");
    r.add("remaining_lifetime_percent", static_cast<int64_t>(b.u8(80)), "Life remaining", fmt::format("{}%", b.u8(80)));
    r.add("speed_mode", static_cast<int64_t>(b.u8(86)), "Speed mode (code)");
    r.add("bus_width", static_cast<int64_t>(b.u8(87)), "Bus width", b.u8(87) == 0x10 ? "4 bits" : b.u8(87) == 0 ? "1 bit" : "unknown");
    r.add("user_area_spare_blocks", be32(88), "User area spare blocks");
    r.add("system_area_spare_blocks", be32(92), "System area spare blocks");
    r.add("user_area_runtime_bad_blocks", be32(96), "User area runtime bad blocks");
    r.add("system_area_runtime_bad_blocks", be32(100), "System area runtime bad blocks");
    r.add("user_area_refresh_count", be32(104), "User area refreshes");
    r.add("system_area_refresh_count", be32(108), "System area refreshes");
    r.add("interface_crc_count", be32(112), "Interface CRC errors");
    r.add("power_cycle_count", be32(116), "Power cycles");

    r.wear.set_life_remaining(static_cast<double>(b.u8(80)));
    r.wear.bad_blocks.runtime = static_cast<uint64_t>(be32(96) + be32(100));
    r.wear.erase_count.max = static_cast<uint64_t>(be32(52));
    r.wear.erase_count.total = static_cast<uint64_t>(be32(56));
    r.wear.erase_count.avg = static_cast<double>(be32(60));
    r.wear.rated_erase_cycles = static_cast<uint64_t>(be32(48));
    r.wear.power_cycles = static_cast<uint64_t>(be32(116));
    r.wear.firmware = b.ascii(32, 16);
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
