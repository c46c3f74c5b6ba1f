// ADATA (Silicon Motion SM2706): CMD56 argument 0x110005F1, 0x09 0x41 at
// offset 0 ([sdmon] PR 22, taken from SDeMMCHealth), big-endian.
// The SLC refresh count is read as the big-endian word at 140-143. sdmon
// reads bytes 140, 141, 143 and 144 (skipping 142), a slip inherited from
// SDeMMCHealth that no document supports; we do not copy it, so on the cards
// in sdmon's issues (PR 22, issue 44) our figure may differ from theirs.
// Some Transcend cards on the same controller answer this layout too
// (sdmon issue 44, a 460T): the signature decides, not the brand.
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

LayoutResult decode_adata(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x110005f1, "\x09\x41", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    auto be = [&](std::size_t at, std::size_t w) { return static_cast<int64_t>(b.be(at, w)); };
    Reading r;
    r.source = "cmd56:adata";
    r.add("factory_bad_block_count", be(24, 2), "Factory bad blocks");
    r.add("grown_bad_block_count", be(26, 1), "Grown bad blocks");
    r.add("spare_slc_block_count", be(27, 1), "Spare SLC blocks");
    r.add("spare_block_count", be(30, 2), "Spare blocks");
    r.add("data_area_minimum_erase_count", be(32, 4), "Data area minimum erase count");
    r.add("data_area_maximum_erase_count", be(36, 4), "Data area maximum erase count");
    r.add("data_area_total_erase_count", be(40, 4), "Data area total erase count");
    r.add("data_area_average_erase_count", be(44, 4), "Data area average erase count");
    r.add("system_area_minimum_erase_count", be(48, 4), "System area minimum erase count");
    r.add("system_area_maximum_erase_count", be(52, 4), "System area maximum erase count");
    r.add("system_area_total_erase_count", be(56, 4), "System area total erase count");
    r.add("system_area_average_erase_count", be(60, 4), "System area average erase count");
    r.add("raw_card_capacity_mb", be(64, 4), "Raw capacity", fmt::format("{} MB", be(64, 4)));
    r.add("pe_cycle_life", be(68, 2), "Rated P/E cycles");
    r.add("remaining_life", be(70, 1), "Life remaining", fmt::format("{}%", be(70, 1)));
    r.add("power_cycle_count", be(76, 4), "Power cycles");
    r.add("flash_id", b.hex(80, 7), "Flash ID");
    r.add("controller", b.ascii(88, 6), "Controller");
    r.add("tlc_read_reclaim", be(96, 2), "TLC read reclaims");
    r.add("slc_read_reclaim", be(98, 2), "SLC read reclaims");
    r.add("firmware_block_refresh", be(100, 2), "Firmware block refreshes");
    r.add("tlc_read_threshold", be(104, 4), "TLC read threshold");
    r.add("slc_read_threshold", be(108, 4), "SLC read threshold");
    r.add("fw_version", b.ascii(128, 6), "Firmware");
    r.add("tlc_refresh_count", be(136, 4), "TLC refreshes");
    r.add("slc_refresh_count", be(140, 4), "SLC refreshes");
    r.notes.push_back("slc_refresh_count is bytes 140-143; sdmon reads 140, 141, 143, 144 and may show another figure");

    r.wear.set_life_remaining(static_cast<double>(be(70, 1)));
    r.wear.bad_blocks = {static_cast<uint64_t>(be(24, 2)), static_cast<uint64_t>(be(26, 1))};
    r.wear.erase_count = {static_cast<uint64_t>(be(32, 4)), static_cast<uint64_t>(be(36, 4)),
                          static_cast<uint64_t>(be(40, 4)), static_cast<double>(be(44, 4))};
    r.wear.rated_erase_cycles = static_cast<uint64_t>(be(68, 2));
    r.wear.power_cycles = static_cast<uint64_t>(be(76, 4));
    r.wear.firmware = b.ascii(128, 6);
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
