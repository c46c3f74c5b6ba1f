// Transcend (Silicon Motion SM2706/SM2707): CMD56 argument 0x110005F9,
// "Transcend" at offset 0 (Transcend's own reader checks all nine letters and
// "SM2706" at 88; sdmon checks "Tr"). We require "Tr", as sdmon, and decode
// from Transcend's offsets ([transcend] mmc_cmds.c parsing_SMART_info).
//
// The published readers disagree on byte order. Transcend's reader, written
// for SM2706 cards (430T, 450I), reads every number big-endian; sdmon's
// (PR 20, tested on a 230I with an SM2707E) reads the erase counts
// little-endian, and its user's decoded output (maximum erase count 1) is
// only plausible that way. So the controller named at 88 decides: erase
// counts are little-endian on an SM2707, big-endian otherwise; every other
// number is big-endian as Transcend reads it. sdmon's own offsets that
// Transcend does not use (secured mode at 11, power loss at 28) are not read.
// Cards under 8 GB use other offsets (sdmon PR 20) that nobody has published.
#include "health/block_bytes.h"
#include "health/layouts.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

LayoutResult decode_transcend(std::span<const Cmd56Block> blocks)
{
    LayoutResult result;
    const Cmd56Block* block = checked_block(blocks, 0x110005f9, "Tr", result);
    if (!block) return result;
    const BlockBytes b(block->bytes);
    const std::string controller = b.ascii(88, 8);
    const bool little = controller.starts_with("SM2707");
    auto be = [&](std::size_t at, std::size_t w) { return static_cast<int64_t>(b.be(at, w)); };
    auto erase = [&](std::size_t at) { return static_cast<int64_t>(little ? b.le(at, 4) : b.be(at, 4)); };
    Reading r;
    r.source = "cmd56:transcend";
    r.add("card_marker", b.ascii(0, 16), "Card marker");
    r.add("bus_width", be(16, 1), "Bus width", b.u8(16) == 0x10 ? "4 bits" : b.u8(16) == 0 ? "1 bit" : "unknown");
    r.add("secured_mode", be(17, 1), "Secured mode", b.u8(17) ? "yes" : "no");
    r.add("speed_class", be(18, 1), "Speed class (code)");
    r.add("uhs_speed_grade", be(19, 1), "UHS speed grade (code)");
    r.add("new_bad_block_count", be(26, 1), "New bad blocks");
    r.add("spare_block", be(30, 2), "Spare blocks");
    r.add("min_erase_count", erase(32), "Minimum erase count");
    r.add("max_erase_count", erase(36), "Maximum erase count");
    r.add("total_erase_count", erase(40), "Total erase count");
    r.add("avg_erase_count", erase(44), "Average erase count");
    r.add("erase_count_byte_order", std::string(little ? "little-endian" : "big-endian"), "Erase counts read");
    r.add("nand_pe_cycle", be(68, 2) * 100, "Rated P/E cycles");
    r.add("card_life", be(70, 1), "Life remaining", fmt::format("{}%", be(70, 1)));
    r.add("speed_mode", be(71, 1), "Speed mode (code)");
    r.add("total_write_crc_count", be(72, 4), "Write CRC errors");
    r.add("power_on_off_count", be(76, 4), "Power cycles");
    r.add("nand_flash_id", b.hex(80, 6), "Flash ID");
    r.add("controller", controller, "Controller");
    r.add("sd_firmware_version", b.ascii(128, 6), "Firmware");
    r.add("abnormal_power_detect", be(164, 4), "Abnormal power events");

    r.wear.set_life_remaining(static_cast<double>(be(70, 1)));
    r.wear.bad_blocks.runtime = static_cast<uint64_t>(be(26, 1));
    r.wear.erase_count = {static_cast<uint64_t>(erase(32)), static_cast<uint64_t>(erase(36)),
                          static_cast<uint64_t>(erase(40)), static_cast<double>(erase(44))};
    r.wear.rated_erase_cycles = static_cast<uint64_t>(be(68, 2) * 100);
    r.wear.power_cycles = static_cast<uint64_t>(be(76, 4));
    r.wear.abnormal_power_losses = static_cast<uint64_t>(be(164, 4));
    r.wear.firmware = b.ascii(128, 6);
    result.reading = std::move(r);
    return result;
}

} // namespace mmc::health
