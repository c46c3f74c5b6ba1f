// SanDisk / Western Digital industrial SD: CMD56 argument 1, "DS" or "DW" at
// offset 0 ([sdmon]; SanDisk's industrial datasheets call it the health status
// block). Offsets follow sdmon master: the power-on count is a 24-bit
// big-endian number at 24, where sdmon first read it at 23 (fixed in commit
// 625bb1b and again in PR 47); we follow the fixed reading.
// Byte 8 is "percent of life used in 1% steps, 0x01 = 0-0.99%, 0x64 =
// 99-99.99%, may exceed 0x64": its value is the upper bound of the step.
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <fmt/format.h>

namespace mmc::health {

LayoutResult decode_sandisk(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x00000001, "D", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    if (b.u8(1) != 'S' && b.u8(1) != 'W') {
        result.not_health = fmt::format("the block does not start with \"DS\" or \"DW\" (it starts 0x{:02x} 0x{:02x})",
                                        b.u8(0), b.u8(1));
        return result;
    }
    Reading r;
    r.source = "cmd56:sandisk";
    r.add("signature", b.ascii(0, 2), "Signature");
    r.add("manufacture_yymmdd", b.ascii(2, 6), "Manufactured (YYMMDD)");
    const auto used = static_cast<int64_t>(b.u8(8));
    r.add("health_status_percent_used", used, "Life used", fmt::format("{}% (1% steps)", used));
    r.add("feature_revision", static_cast<int64_t>(b.u8(11)), "Feature revision", fmt::format("0x{:02x}", b.u8(11)));
    r.add("generation_identifier", static_cast<int64_t>(b.u8(14)), "Generation");
    const auto power_on = static_cast<int64_t>(b.be(24, 3));
    r.add("power_on_count", power_on, "Power-on count");
    r.add("product_string", b.ascii(49, 32), "Product");
    r.wear.life_used_percent = static_cast<double>(used);
    r.wear.life_exhausted = used > 0x64; // beyond "99-99.99%"
    r.wear.power_cycles = static_cast<uint64_t>(power_on);
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
