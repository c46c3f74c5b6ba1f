// The corpus as a whole: every entry of tests/data/registers.json, whatever
// its kind, decodes as a card; and the CSD entries value by value (the other
// kinds are checked in their own *_test.cpp).
#include "corpus.h"
#include "regs/card_registers.h"
#include "regs/decode.h"
#include "regs/hex.h"

#include <cstdint>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace mmc::regs;
using namespace mmc::test;
using nlohmann::json;

namespace {

std::string label_of(const json& e) { return e.value("kind", "?") + " " + e.value("card", "?"); }

DecodedRegister decode_csd_entry(const json& e)
{
    return decode_csd(parse_register_hex(RegKind::csd, e.at("hex").get<std::string>()), family_of(e));
}

// CSD source values that are one of our fields or decoded values under the
// source's name. Aaru (DecodeCSD, SD and MMC), ESP32 Arduino SD_MMC's log,
// and usbsdmux's reference decode.
const std::map<std::string, std::string> csd_source_aliases{
    // Aaru
    {"structure", "field:csd_structure"},
    {"spec_vers", "field:spec_vers"},
    {"taac", "field:taac"},
    {"nsac", "field:nsac"},
    {"speed", "field:tran_speed"},
    {"classes", "field:ccc"},
    {"read_block_length", "field:read_bl_len"},
    {"read_bl_len", "field:read_bl_len"},
    {"size", "field:c_size"},
    {"c_size", "field:c_size"},
    {"size_multiplier", "field:c_size_mult"}, // CSD 1.0 only, see skipped_csd_source
    {"c_size_mult", "field:c_size_mult"},
    {"erase_sector_size", "field:sector_size"},
    {"erase_grp_size", "field:erase_grp_size"},
    {"erase_grp_mult", "field:erase_grp_mult"},
    {"write_protect_group_size", "field:wp_grp_size"},
    {"wp_grp_size", "field:wp_grp_size"},
    {"r2w_factor", "field:r2w_factor"},
    {"r2w", "field:r2w_factor"},
    // ESP32
    {"csd_capacity_sectors", "decoded:capacity_512b_sectors"},
    {"raw_capacity_bytes", "decoded:capacity_bytes"},
    // usbsdmux
    {"C_SIZE", "field:c_size"},
    {"CCC", "field:ccc"},
    {"capacity_bytes", "decoded:capacity_bytes"},
};

// CSD source values that are not facts of the CSD, with the reason.
const std::map<std::string, std::string> not_csd_facts{
    {"decoder", "names the program that produced the source values"},
    {"card_type", "ESP-IDF prints SDHC/SDXC from the OCR CCS bit, not from the CSD"},
    {"preferred_erase_size", "Linux mmc_init_erase takes it from the SSR AU on SD cards and, on eMMC, from EXT_CSD "
                             "HC_ERASE_GRP_SIZE or capacity thresholds"},
    {"mbr_partition_sectors", "the MBR partition table of the card's contents"},
    {"block_size_attr_512b_sectors", "EXT_CSD SEC_COUNT: this eMMC's CSD holds the C_SIZE placeholder"},
    {"bytes", "EXT_CSD SEC_COUNT x 512: this eMMC's CSD holds the C_SIZE placeholder"},
    {"raw_rpmb_size_mult", "EXT_CSD RPMB_SIZE_MULT"},
    {"rel_sectors", "EXT_CSD REL_WR_SEC_C"},
    {"MDT_Y", "CID field of the same card (usbsdmux reference; checked in cid_test)"},
    {"MDT_M_raw", "CID field of the same card (usbsdmux reference; checked in cid_test)"},
    {"CID_reserved_bits_23_20", "CID field of the same card (usbsdmux reference; checked in cid_test)"},
    {"SCR_CMD_SUPPORT", "SCR field of the same card (usbsdmux reference)"},
    {"SCR_RESERVED_42_34_raw", "SCR field of the same card (usbsdmux reference)"},
};

bool skipped_csd_source(const DecodedRegister& r, const std::string& key)
{
    // Only CSD 1.0 has C_SIZE_MULT; for CSD 2.0 Aaru prints its default 0,
    // and bits [49:47] are part of C_SIZE and reserved.
    if (key == "size_multiplier") return r.card == CardFamily::sd && r.field("csd_structure")->raw != 0;
    return not_csd_facts.count(key) != 0;
}

int64_t decoded_int(const DecodedRegister& r, std::string_view key) { return std::get<int64_t>(r.find(key)->value); }

// A size as Linux's string_get_size(STRING_UNITS_2) prints it in the block
// layer's log line: three significant digits, e.g. "58.0 GiB".
std::string linux_gib_text(int64_t bytes)
{
    const double gib = static_cast<double>(bytes) / (1 << 30);
    const int precision = gib < 10 ? 2 : gib < 100 ? 1 : 0;
    return fmt::format("{:.{}f} GiB", gib, precision);
}

// Linux's erase_size attribute in bytes (card->erase_size << 9), from the CSD
// as drivers/mmc/core/sd.c and mmc.c decode it: SD CSD 2.0 fixes it at one
// 512-byte sector; CSD 1.0 uses one sector when ERASE_BLK_EN is set, else
// SECTOR_SIZE + 1 write blocks; MMC uses (ERASE_GRP_SIZE + 1) x
// (ERASE_GRP_MULT + 1) write blocks unless EXT_CSD ERASE_GROUP_DEF selects the
// high-capacity erase group.
int64_t linux_erase_size_bytes(const DecodedRegister& r)
{
    const auto raw = [&](std::string_view name) { return static_cast<int64_t>(r.field(name)->raw); };
    if (r.card == CardFamily::mmc) return decoded_int(r, "erase_group_size_blocks") << raw("write_bl_len");
    if (raw("csd_structure") != 0 || raw("erase_blk_en")) return 512;
    return (raw("sector_size") + 1) << raw("write_bl_len");
}

testing::AssertionResult number_is(int64_t got, const json& want)
{
    if (want.is_number_integer() && want.get<int64_t>() == got) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "the CSD gives " << got << ", corpus " << want.dump();
}

testing::AssertionResult text_is(const std::string& got, const json& want)
{
    if (want.is_string() && want.get<std::string>() == got) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "the CSD gives \"" << got << "\", corpus " << want.dump();
}

testing::AssertionResult text_contains(const std::string& part, const json& want)
{
    if (want.is_string() && want.get<std::string>().find(part) != std::string::npos)
        return testing::AssertionSuccess();
    return testing::AssertionFailure() << "\"" << part << "\" not in corpus " << want.dump();
}

// A CSD source value against the decode, for the keys skipped_csd_source keeps.
testing::AssertionResult compare_csd_source(const DecodedRegister& r, const std::string& key, const json& want)
{
    if (key == "erase_size_blocks") // ESP32: SECTOR_SIZE + 1 write blocks
        return number_is(static_cast<int64_t>(r.field("sector_size")->raw) + 1, want);
    if (key == "erase_single_block") // ESP32: ERASE_BLK_EN as yes/no
        return text_is(r.field("erase_blk_en")->raw ? "yes" : "no", want);
    if (key == "erase_size") return number_is(linux_erase_size_bytes(r), want); // Linux sysfs, bytes
    if (key == "kernel_log_capacity") // Linux block layer: the capacity the CSD gives
        return text_contains(linux_gib_text(decoded_int(r, "capacity_bytes")), want);
    if (key == "card_type_kernel") { // "SDXC, ultra high speed SDR104": the capacity class is the CSD fact
        const std::string text = want.is_string() ? want.get<std::string>() : "";
        return text_is(std::get<std::string>(r.find("capacity_class")->value), text.substr(0, text.find(',')));
    }
    if (key == "maintainer_note") // "C_SIZE 0x1cfff ...": this card's C_SIZE
        return text_contains(fmt::format("C_SIZE 0x{:x}", r.field("c_size")->raw), want);
    if (csd_source_aliases.count(key)) return check_corpus_key(r, key, want, csd_source_aliases);
    return testing::AssertionFailure() << "source key " << key << " not mapped to the CSD";
}

} // namespace

TEST(Corpus, EveryEntryDecodesAsACard)
{
    CorpusCount count{"every kind (decode_card)"};
    for (const auto& e : load_corpus()) {
        SCOPED_TRACE(label_of(e));
        const auto kind = reg_kind_from_string(e.value("kind", ""));
        ASSERT_TRUE(kind.has_value()) << "unknown kind " << e.value("kind", "");
        CardFamily family{};
        ASSERT_NO_THROW(family = family_of(e));
        CardRegisters card;
        ASSERT_NO_THROW(
            card = decode_card(family, {{*kind, parse_register_hex(*kind, e.at("hex").get<std::string>()), "input"}}));
        EXPECT_EQ(card.card, family);
        ASSERT_EQ(card.registers.size(), 1u);
        const DecodedRegister* r = card.get(*kind);
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->card, family);
        EXPECT_FALSE(r->fields.empty());
        EXPECT_FALSE(r->summary.empty());
        EXPECT_TRUE(card.warnings.empty()) << card.warnings.front(); // one register contradicts nothing
        ++count.entries;
        ++count.values;
    }
    EXPECT_GT(count.entries, 0);
    count.print();
}

TEST(CsdCorpus, EveryComputedValueMatches)
{
    // Every CSD corpus key is one of our field names or decoded keys.
    const auto count = check_computed_values("csd", [](const json& e, DecodedRegister& r) {
        r = decode_csd_entry(e);
        EXPECT_FALSE(r.summary.empty());
    });
    EXPECT_GE(count.entries, 18);
}

TEST(CsdCorpus, SourceValuesThatAreCsdFacts)
{
    CorpusCount count{"CSD source values"};
    count.skipped_why = "not CSD facts";
    for (const auto& e : corpus_entries("csd")) {
        if (!e.at("expected").contains("source_values")) continue;
        SCOPED_TRACE(label_of(e));
        const DecodedRegister r = decode_csd_entry(e);
        for (const auto& [key, want] : e.at("expected").at("source_values").items()) {
            if (skipped_csd_source(r, key)) {
                ++count.skipped;
                continue;
            }
            EXPECT_TRUE(compare_csd_source(r, key, want)) << "source value " << key << " = " << want.dump();
            ++count.values;
        }
        ++count.entries;
    }
    EXPECT_GT(count.values, 0);
    count.print();
}
