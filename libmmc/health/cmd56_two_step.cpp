// The two-step layout (Apacer; Kingston SDCIT, SDCIT2, SDCE; GOODRAM; some
// SanDisk consumer cards, sdmon issue 41): a CMD56 write with argument 0x10
// (one block of zeros) asks for the report, a CMD56 read with argument 0x21
// returns it ([sdmon] "2step"). The block has no signature, so it is held to
// what a report can be: the good-block rate at most 100.00%, the remaining
// life at most 200.00%, and the erase counts in order (min <= avg <= max).
// Random bytes pass all three about once in 250 times; the result says the
// layout was confirmed by plausibility, not by a signature.
//
// Widths: sdmon reads the abnormal power-off count at 128 and the refresh
// count at 160 as 16-bit big-endian numbers; a description in circulation
// calls them 32-bit. We follow sdmon, whose users' published outputs
// (issues 30, 40, 41) are the only evidence. The Kingston SDCE's sectors
// written at 328 are sdmon's finding from real data, read only when the
// flash ID is the SDCE's, as sdmon does.
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace mmc::health {

namespace {

constexpr std::array<uint8_t, 9> kingston_sdce_flash_id{0x98, 0x3e, 0xa8, 0x03, 0x7a, 0xe4, 0x08, 0x16, 0x00};

uint64_t split_count(const BlockBytes& b, std::size_t high, std::size_t low)
{
    return (b.be(high, 2) << 16) + b.be(low, 2);
}

} // namespace

LayoutResult decode_two_step(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x00000021, "", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    const uint64_t good_rate = b.be(64, 2), remain = b.be(96, 2);
    const uint64_t avg = split_count(b, 104, 98), min = split_count(b, 106, 100), max = split_count(b, 108, 102);
    if (good_rate > 10000 || remain > 20000 || min > avg || avg > max) {
        result.not_health = fmt::format("the block is not a plausible two-step report (good-block rate {:.2f}%, life "
                                        "remaining {:.2f}%, erase counts min {} avg {} max {})",
                                        good_rate / 100.0, remain / 100.0, min, avg, max);
        return result;
    }
    Reading r;
    r.source = "cmd56:two_step";
    r.add("flash_id", b.hex(0, 9), "Flash ID");
    r.add("ic_version", b.hex(9, 2), "Controller version");
    r.add("fw_version", regs::IntList{b.u8(11), b.u8(12)}, "Firmware", fmt::format("{}.{}", b.u8(11), b.u8(12)));
    r.add("ce_number", static_cast<int64_t>(b.u8(14)), "Chip enables");
    r.add("spare_block_count", static_cast<int64_t>(b.be(16, 2)), "Spare blocks");
    const uint64_t initial_bad = b.sum(32, 32), later_bad = b.sum(184, 32);
    r.add("initial_bad_block_count", static_cast<int64_t>(initial_bad), "Initial bad blocks");
    r.add("good_block_rate_percent", good_rate / 100.0, "Good blocks", fmt::format("{:.2f}%", good_rate / 100.0));
    r.add("total_erase_count", static_cast<int64_t>(b.be(80, 4)), "Total erase count");
    r.add("endurance_remain_life_percent", remain / 100.0, "Life remaining", fmt::format("{:.2f}%", remain / 100.0));
    r.add("avg_erase_count", static_cast<int64_t>(avg), "Average erase count");
    r.add("min_erase_count", static_cast<int64_t>(min), "Minimum erase count");
    r.add("max_erase_count", static_cast<int64_t>(max), "Maximum erase count");
    r.add("power_up_count", static_cast<int64_t>(b.be(112, 4)), "Power-ups");
    r.add("abnormal_power_off_count", static_cast<int64_t>(b.be(128, 2)), "Abnormal power-offs");
    r.add("total_refresh_count", static_cast<int64_t>(b.be(160, 2)), "Refreshes");
    r.add("product_marker", b.hex(176, 8), "Product marker");
    r.add("later_bad_block_count", static_cast<int64_t>(later_bad), "Later bad blocks");
    r.notes.push_back("two-step reports carry no signature: the block was accepted as plausible, not recognised");

    r.wear.set_life_remaining(remain / 100.0);
    r.wear.bad_blocks = {initial_bad, later_bad};
    r.wear.erase_count = {min, max, b.be(80, 4), static_cast<double>(avg)};
    r.wear.power_cycles = b.be(112, 4);
    r.wear.abnormal_power_losses = b.be(128, 2);
    r.wear.firmware = fmt::format("{}.{}", b.u8(11), b.u8(12));
    if (std::equal(kingston_sdce_flash_id.begin(), kingston_sdce_flash_id.end(), block->bytes.begin())) {
        const uint64_t sectors = b.be(328, 4);
        r.add("sectors_written_count", static_cast<int64_t>(sectors), "Sectors written (Kingston SDCE)");
        r.wear.bytes_written = sectors * 512;
    }
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
