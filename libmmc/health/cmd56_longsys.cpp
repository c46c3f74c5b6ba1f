// Longsys (Lexar's controller maker): CMD56 argument 1, "pX" (0x70 0x58) at
// offset 0, every number little-endian ([sdmon], the one published reader).
// sdmon prints 48 and 56 divided by 1024 as TB, so they count GB.
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

LayoutResult decode_longsys(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x00000001, "pX", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    auto le32 = [&](std::size_t at) { return static_cast<int64_t>(b.le(at, 4)); };
    Reading r;
    r.source = "cmd56:longsys";
    r.add("smart_version", le32(4), "SMART version");
    r.add("size_of_dev_smart", le32(12), "SMART size");
    r.add("original_bad_block", le32(16), "Factory bad blocks");
    r.add("increase_bad_block", le32(20), "Grown bad blocks");
    const auto sectors = static_cast<int64_t>(b.le(24, 8));
    r.add("write_all_sect_num", sectors, "Sectors written");
    r.add("replace_block_left", le32(32), "Replacement blocks left");
    const double wear = static_cast<double>(le32(36)) / 1000.0;
    r.add("degree_of_wear", wear, "Average erase cycles", fmt::format("{:.3f}", wear));
    r.add("sector_total", le32(40), "Sectors");
    r.add("remain_life_time", le32(44), "Life remaining", fmt::format("{}%", le32(44)));
    r.add("remain_wr_gb_num", le32(48), "Writes remaining", fmt::format("{} GB", le32(48)));
    r.add("life_time_total", le32(52), "Rated erase cycles");
    r.add("phy_wr_gb_num", le32(56), "NAND written", fmt::format("{} GB", le32(56)));

    r.wear.set_life_remaining(static_cast<double>(le32(44)));
    r.wear.bad_blocks = {static_cast<uint64_t>(le32(16)), static_cast<uint64_t>(le32(20))};
    r.wear.erase_count.avg = wear;
    r.wear.rated_erase_cycles = static_cast<uint64_t>(le32(52));
    r.wear.bytes_written = static_cast<uint64_t>(sectors) * 512;
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
