// CID decoder: every "kind":"cid" entry of tests/data/registers.json, then
// targeted checks of the SD and MMC layouts and the MMC year rules.
#include "corpus.h"
#include "regs/decode.h"
#include "regs/hex.h"

#include <array>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

using json = nlohmann::json;
using namespace mmc::regs;
using namespace mmc::test;

namespace {

DecodedRegister decode_hex(const std::string& hex, CardFamily card, const DecodeContext& ctx = {})
{
    const auto bytes = parse_register_hex(RegKind::cid, hex);
    return decode_cid(bytes, card, ctx);
}

// Corpus key -> decoder name, for names that differ. None do today: the
// decoder uses the corpus names (the SD reserved nibble is the field
// "reserved_23_20", the MMC year alternatives are decoded keys).
const std::map<std::string, std::string> computed_aliases{};

// Keys of expected.source_values that describe the source rather than the
// CID register; they are not checked against the decode.
const std::map<std::string, std::string> not_register_facts{
    {"decoder", "names the program that produced the source values"},
    {"tablet_note", "a remark about the tablet's partition table"},
    {"rev(ext_csd)", "an EXT_CSD fact; the MMC year rule it selects is checked by decoding with ext_csd_rev"},
    {"C_SIZE", "CSD field of the same card (usbsdmux reference)"},
    {"capacity_bytes", "CSD-derived capacity of the same card"},
    {"CCC", "CSD field of the same card"},
    {"SCR_CMD_SUPPORT", "SCR field of the same card"},
    {"SCR_RESERVED_42_34_raw", "SCR field of the same card"},
};

// Source keys (what Linux sysfs, Aaru or usbsdmux printed) that are one of
// our fields or decoded values under another name, compared as they are.
const std::map<std::string, std::string> source_aliases{
    {"name", "field:pnm"},
    {"product_name", "field:pnm"},
    {"manufacturer", "field:mid"},
    {"application_id", "field:oid"}, // Aaru: "PH" for SD, 0 for MMC
    {"product_revision", "field:prv"},
    {"revision", "field:prv"},
    {"manufacturing_date_raw", "decoded:mdt_raw"},
    {"date_raw", "decoded:mdt_raw"},
    {"crc", "field:crc"}, // Aaru stores 0 (last byte 0x01): the field says so too
    {"MDT_Y", "decoded:mdt_year"},
    {"MDT_M_raw", "decoded:mdt_month"}, // usbsdmux's text adds 1; raw is right
    {"CID_reserved_bits_23_20", "field:reserved_23_20"},
};

const Derived& need(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    if (!d) throw std::runtime_error(fmt::format("decoded key {} missing", key));
    return *d;
}

int64_t need_int(const DecodedRegister& r, std::string_view key) { return std::get<int64_t>(need(r, key).value); }
std::string need_text(const DecodedRegister& r, std::string_view key)
{
    return std::get<std::string>(need(r, key).value);
}

// A source value the decode says nothing about: the not-register facts above,
// and Linux's hwrev/fwrev of an MMC card (Linux fills them from the SD PRV
// nibbles; for MMC it sets them only for the MMC 1.x CID layout and prints
// 0x0 otherwise, so for MMC they say nothing about PRV).
bool skipped_source(const DecodedRegister& r, const std::string& key)
{
    return not_register_facts.count(key) || (r.card == CardFamily::mmc && (key == "hwrev" || key == "fwrev"));
}

// A source value against the decode, for the keys skipped_source keeps.
testing::AssertionResult compare_source(const DecodedRegister& r, const std::string& key, const json& want)
{
    const bool sd = r.card == CardFamily::sd;
    auto eq = [](const std::string& got, const json& w) {
        if (w.is_string() && w.get<std::string>() == got) return testing::AssertionSuccess();
        return testing::AssertionFailure() << "got \"" << got << "\"";
    };
    if (key == "manfid") return eq(fmt::format("0x{:06x}", r.field("mid")->raw), want); // Linux: 0x%06x
    if (key == "oemid") // Linux: 0x%04x of bits [119:104], so MMC includes CBX
        return eq(fmt::format("0x{:04x}", sd ? r.field("oid")->raw : static_cast<uint64_t>(need_int(r, "linux_oemid_16bit"))),
                  want);
    if (key == "serial") return want.is_string() ? eq(need_text(r, "serial_hex"), want) : check_corpus_key(r, "psn", want);
    if (key == "date") // Linux "MM/YYYY". The one MMC entry comes from Linux 3.4, which never applied the
                       // EXT_CSD_REV > 4 year rule: its 05/1997 is the pre-4.5 reading (the notes say modern
                       // kernels print 05/2013), which is what a decode without ext_csd_rev gives.
        return eq(fmt::format("{:02}/{}", need_int(r, "mdt_month"), need_int(r, "mdt_year")), want);
    if (key == "hwrev" || key == "fwrev") // SD only, see skipped_source
        return eq(fmt::format("0x{:x}", need_int(r, key == "hwrev" ? "prv_major" : "prv_minor")), want);
    if (key == "kernel_log") { // "mmcblk1: mmc1:5048 SD64G 58.0 GiB": the name is the CID fact in it
        const std::string pnm = *r.field("pnm")->text;
        if (want.is_string() && want.get<std::string>().find(" " + pnm + " ") != std::string::npos)
            return testing::AssertionSuccess();
        return testing::AssertionFailure() << "product name \"" << pnm << "\" not in the log line";
    }
    if (source_aliases.count(key)) return check_corpus_key(r, key, want, source_aliases);
    return testing::AssertionFailure() << "source key not mapped to the CID";
}

} // namespace

TEST(CidCorpus, EveryCidEntryMatches)
{
    CorpusCount count{"CID"};
    count.skipped_why = "source values that are not CID facts";
    for (const auto& entry : corpus_entries("cid")) {
        ++count.entries;
        const std::string label = entry.value("card", "?");
        SCOPED_TRACE(label);
        CardFamily family{};
        ASSERT_NO_THROW(family = family_of(entry));
        const DecodedRegister r = decode_hex(entry.at("hex").get<std::string>(), family);

        const json& expected = entry.at("expected");
        for (const auto& [key, want] : expected.at("computed_values").items()) {
            const auto alias = computed_aliases.find(key);
            const std::string name = alias == computed_aliases.end() ? key : alias->second;
            EXPECT_TRUE(check_corpus_key(r, name, want)) << "computed value " << key << " = " << want.dump();
            ++count.values;
        }

        if (family == CardFamily::mmc) {
            // Both year readings are decoded; with EXT_CSD_REV 6 known the date follows the 4.5+ rule.
            const auto& cv = expected.at("computed_values");
            const DecodedRegister v6 = decode_hex(entry.at("hex").get<std::string>(), family, {6});
            EXPECT_EQ(need_int(v6, "mdt_year"), cv.at("mdt_year_if_ext_csd_rev_gt4").get<int64_t>());
            EXPECT_EQ(need_text(v6, "date"), fmt::format("{}-{:02}", cv.at("mdt_year_if_ext_csd_rev_gt4").get<int>(),
                                                         cv.at("mdt_month").get<int>()));
            EXPECT_EQ(need_int(r, "mdt_year"), cv.at("mdt_year_jedec_pre_v45").get<int64_t>());
            count.values += 2;
        }

        if (expected.contains("source_values")) {
            for (const auto& [key, want] : expected.at("source_values").items()) {
                if (skipped_source(r, key)) {
                    ++count.skipped;
                    continue;
                }
                EXPECT_TRUE(compare_source(r, key, want)) << "source value " << key << " = " << want.dump();
                ++count.values;
            }
        }
    }
    EXPECT_GE(count.entries, 17);
    count.print();
    RecordProperty("cid_values_checked", count.values);
}

// Kingston Canvas Go! Plus 64GB (Marek Vasut's card, linux-mmc 2023).
constexpr const char* kingston_sd = "9f54495344363447614890060a017500";
// Samsung eMMC 8GB 'M8G1GC' (armbian/build PR 246), EXT_CSD_REV 6.
constexpr const char* samsung_emmc = "1501004d384731474303dc0db061506f";
// Toshiba 16GB 'SA16G' (enjoy-digital/litesdcard PR 7 log: "Production date(m/yy): 9/18").
constexpr const char* toshiba_sd = "02544d534131364743001af44c0129e9";

TEST(CidSd, FieldsAtSdPositions)
{
    const auto r = decode_hex(kingston_sd, CardFamily::sd);
    EXPECT_EQ(r.kind, RegKind::cid);
    EXPECT_EQ(r.field("mid")->raw, 0x9fu);
    EXPECT_EQ(r.field("oid")->raw, 0x5449u);
    EXPECT_EQ(*r.field("oid")->text, "TI");
    EXPECT_EQ(*r.field("pnm")->text, "SD64G");
    EXPECT_EQ(r.field("prv")->raw, 0x61u);
    EXPECT_EQ(r.field("psn")->raw, 0x4890060au);
    EXPECT_EQ(r.field("reserved_23_20")->raw, 0u);
    EXPECT_EQ(r.field("mdt")->raw, 0x175u);
    EXPECT_EQ(r.field("crc")->raw, 0u);
    EXPECT_EQ(r.field("cbx"), nullptr);
    EXPECT_EQ(need_text(r, "serial_hex"), "0x4890060a");
    EXPECT_EQ(need_text(r, "date"), "2023-05");
    EXPECT_EQ(need_text(r, "revision"), "6.1");
    EXPECT_EQ(need_text(r, "manufacturer"), "Kingston (shared ID)");
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
    EXPECT_EQ(r.summary, "SD CID: Kingston (shared ID) \"SD64G\" rev 6.1, serial 0x4890060a, made 2023-05");
}

TEST(CidSd, ToshibaIsNotSanDisk)
{
    const auto r = decode_hex(toshiba_sd, CardFamily::sd);
    EXPECT_EQ(need_text(r, "manufacturer"), "Toshiba (Kioxia)");
    EXPECT_EQ(need_text(r, "oid_ascii"), "TM");
    EXPECT_EQ(*r.field("pnm")->text, "SA16G");
    EXPECT_EQ(need_text(r, "date"), "2018-09");
    EXPECT_EQ(std::get<bool>(need(r, "crc7_matches").value), true);
}

TEST(CidSd, UnknownManufacturer)
{
    auto bytes = parse_register_hex(RegKind::cid, kingston_sd);
    bytes[0] = 0xee;
    EXPECT_EQ(need_text(decode_cid(bytes, CardFamily::sd), "manufacturer"), "unknown (0xee)");
    EXPECT_EQ(need_text(decode_cid(bytes, CardFamily::mmc), "manufacturer"), "unknown (0xee)");
}

TEST(CidSd, SameBytesDifferentLayouts)
{
    // The SD name is 5 bytes from byte 3, the MMC name 6; the serial moves too.
    const auto sd = decode_hex(samsung_emmc, CardFamily::sd);
    const auto mmc = decode_hex(samsung_emmc, CardFamily::mmc);
    EXPECT_EQ(*sd.field("pnm")->text, "M8G1G");
    EXPECT_EQ(*mmc.field("pnm")->text, "M8G1GC");
    EXPECT_EQ(sd.field("prv")->raw, 0x43u);
    EXPECT_EQ(mmc.field("prv")->raw, 0x03u);
    EXPECT_EQ(sd.field("oid")->raw, 0x0100u);
    EXPECT_EQ(mmc.field("oid")->raw, 0u);
    EXPECT_EQ(mmc.field("cbx")->raw, 1u);
}

TEST(CidSd, KeepsSpacesButNotNulPadding)
{
    // Aaru's ADATA card: the name is "SD" and three spaces, as the card sends it.
    const auto adata = decode_hex("1d4144534420202010000256db006701", CardFamily::sd);
    EXPECT_EQ(*adata.field("pnm")->text, "SD   ");
    EXPECT_EQ(need_text(adata, "product_name"), "SD");

    auto bytes = parse_register_hex(RegKind::cid, kingston_sd);
    bytes[5] = bytes[6] = bytes[7] = 0; // "SD\0\0\0"
    const auto padded = decode_cid(bytes, CardFamily::sd);
    EXPECT_EQ(*padded.field("pnm")->text, "SD");
    ASSERT_EQ(padded.warnings.size(), 1u);
    EXPECT_NE(padded.warnings[0].find("NUL"), std::string::npos);
}

TEST(CidSd, NonPrintableCharactersEscaped)
{
    auto bytes = parse_register_hex(RegKind::cid, kingston_sd);
    bytes[2] = 0x01; // OID "T\x01"
    bytes[4] = 0xff; // PNM "S\xff64G"
    const auto r = decode_cid(bytes, CardFamily::sd);
    EXPECT_EQ(*r.field("oid")->text, "T\\x01");
    EXPECT_EQ(*r.field("pnm")->text, "S\\xff64G");
    ASSERT_EQ(r.warnings.size(), 2u);
    EXPECT_NE(r.warnings[0].find("OID"), std::string::npos);
    EXPECT_NE(r.warnings[1].find("S\\xff64G"), std::string::npos);
}

TEST(CidSd, MonthOutOfRangeWarns)
{
    auto bytes = parse_register_hex(RegKind::cid, kingston_sd);
    for (uint8_t month : {0, 13}) {
        bytes[14] = static_cast<uint8_t>(0x70 | month);
        const auto r = decode_cid(bytes, CardFamily::sd);
        EXPECT_EQ(need_int(r, "mdt_month"), month);
        ASSERT_EQ(r.warnings.size(), 1u);
        EXPECT_NE(r.warnings[0].find("month"), std::string::npos);
    }
}

TEST(CidMmc, FieldsAtMmcPositions)
{
    const auto r = decode_hex(samsung_emmc, CardFamily::mmc);
    EXPECT_EQ(r.field("mid")->raw, 0x15u);
    EXPECT_EQ(r.field("cbx")->raw, 1u);
    EXPECT_EQ(r.field("oid")->raw, 0u);
    EXPECT_FALSE(r.field("oid")->text.has_value());
    EXPECT_EQ(*r.field("pnm")->text, "M8G1GC");
    EXPECT_EQ(r.field("prv")->raw, 0x03u);
    EXPECT_EQ(r.field("psn")->raw, 0xdc0db061u);
    EXPECT_EQ(r.field("mdt")->raw, 0x50u);
    EXPECT_EQ(r.field("reserved_23_20"), nullptr);
    EXPECT_EQ(need_text(r, "manufacturer"), "Samsung");
    EXPECT_EQ(need_text(r, "card_form"), "BGA (embedded)");
    EXPECT_EQ(need_int(r, "linux_oemid_16bit"), 0x0100);
    EXPECT_EQ(need_text(r, "serial_hex"), "0xdc0db061");
    EXPECT_EQ(need_int(r, "prv_major"), 0);
    EXPECT_EQ(need_int(r, "prv_minor"), 3);
}

TEST(CidMmc, CardFormFromCbx)
{
    auto bytes = parse_register_hex(RegKind::cid, samsung_emmc);
    const std::array<std::string, 4> forms{"removable", "BGA (embedded)", "POP", "reserved"};
    for (uint8_t cbx = 0; cbx < 4; ++cbx) {
        bytes[1] = cbx;
        EXPECT_EQ(need_text(decode_cid(bytes, CardFamily::mmc, {6}), "card_form"), forms[cbx]);
    }
}

TEST(CidMmc, YearRules)
{
    // Code 0, month 5: 1997 before eMMC 4.5, 2013 from EXT_CSD_REV 5, and
    // 2029 from EXT_CSD_REV 9 (JESD84-B51B; Linux adds 16 again below 2023).
    const auto unknown = decode_hex(samsung_emmc, CardFamily::mmc);
    EXPECT_EQ(need_int(unknown, "mdt_year"), 1997);
    EXPECT_EQ(need_text(unknown, "date"), "1997-05");
    EXPECT_EQ(need_int(unknown, "mdt_year_jedec_pre_v45"), 1997);
    EXPECT_EQ(need_int(unknown, "mdt_year_if_ext_csd_rev_gt4"), 2013);
    EXPECT_EQ(need_int(unknown, "mdt_year_if_ext_csd_rev_ge9"), 2029);
    ASSERT_EQ(unknown.warnings.size(), 1u);
    EXPECT_NE(unknown.warnings[0].find("2013"), std::string::npos);

    EXPECT_EQ(need_text(decode_hex(samsung_emmc, CardFamily::mmc, {4}), "date"), "1997-05");
    const auto rev6 = decode_hex(samsung_emmc, CardFamily::mmc, {6});
    EXPECT_EQ(need_text(rev6, "date"), "2013-05");
    EXPECT_TRUE(rev6.warnings.empty());
    EXPECT_EQ(need_text(decode_hex(samsung_emmc, CardFamily::mmc, {8}), "date"), "2013-05");
    EXPECT_EQ(need_text(decode_hex(samsung_emmc, CardFamily::mmc, {9}), "date"), "2029-05");

    // Code 13: 2010 under both older rules, 2026 from EXT_CSD_REV 9.
    auto bytes = parse_register_hex(RegKind::cid, samsung_emmc);
    bytes[14] = 0x5d;
    EXPECT_EQ(need_text(decode_cid(bytes, CardFamily::mmc), "date"), "2010-05");
    EXPECT_EQ(need_text(decode_cid(bytes, CardFamily::mmc, {6}), "date"), "2010-05");
    EXPECT_EQ(need_text(decode_cid(bytes, CardFamily::mmc, {9}), "date"), "2026-05");
}

TEST(CidMmc, ReservedBitsWarn)
{
    auto bytes = parse_register_hex(RegKind::cid, samsung_emmc);
    bytes[1] = 0x05;  // reserved bit 114 and CBX 1
    bytes[15] = 0x00; // no stored CRC, so the edit raises no CRC warning
    const auto r = decode_cid(bytes, CardFamily::mmc, {6});
    EXPECT_EQ(r.field("cbx")->raw, 1u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_NE(r.warnings[0].find("119:114"), std::string::npos);
}

TEST(CidTable, FieldsDoNotOverlap)
{
    for (CardFamily card : {CardFamily::sd, CardFamily::mmc}) {
        const auto table = cid_table(card);
        ASSERT_EQ(table.size(), 8u);
        std::set<int> used;
        for (const auto& f : table) {
            EXPECT_GE(f.hi, f.lo);
            EXPECT_LT(f.hi, 128);
            for (int b = f.lo; b <= f.hi; ++b) EXPECT_TRUE(used.insert(b).second) << f.name << " bit " << b;
        }
    }
}

TEST(CidSize, WrongSizeThrows)
{
    const std::vector<uint8_t> short_reg(15), long_reg(17);
    EXPECT_THROW(decode_cid(short_reg, CardFamily::sd), std::invalid_argument);
    EXPECT_THROW(decode_cid(long_reg, CardFamily::mmc), std::invalid_argument);
    EXPECT_THROW(decode(RegKind::cid, CardFamily::sd, short_reg), std::invalid_argument);
}
