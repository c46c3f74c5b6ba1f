// SCR decoding: the real dumps in tests/data/registers.json value by value,
// every branch of the specification version table, bus widths, security,
// command support and the size check.
#include "corpus.h"
#include "regs/decode.h"
#include "regs/hex.h"

#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mmc::regs;
using namespace mmc::test;

namespace {

struct ScrBits {
    int spec = 2, spec3 = 1, spec4 = 0, specx = 0;
    int widths = 5, security = 3, stat = 0, cmd = 0;
};

DecodedRegister scr(const ScrBits& b)
{
    std::array<uint8_t, 8> reg{};
    set_bits(reg, 59, 56, static_cast<uint64_t>(b.spec));
    set_bits(reg, 55, 55, static_cast<uint64_t>(b.stat));
    set_bits(reg, 54, 52, static_cast<uint64_t>(b.security));
    set_bits(reg, 51, 48, static_cast<uint64_t>(b.widths));
    set_bits(reg, 47, 47, static_cast<uint64_t>(b.spec3));
    set_bits(reg, 42, 42, static_cast<uint64_t>(b.spec4));
    set_bits(reg, 41, 38, static_cast<uint64_t>(b.specx));
    set_bits(reg, 35, 32, static_cast<uint64_t>(b.cmd));
    return decode_scr(reg);
}

std::string str(const DecodedRegister& r, std::string_view key) { return std::get<std::string>(r.find(key)->value); }
StringList list(const DecodedRegister& r, std::string_view key) { return std::get<StringList>(r.find(key)->value); }

} // namespace

TEST(ScrCorpus, EveryComputedValueMatches)
{
    // Every SCR corpus key is one of our field names or decoded keys.
    check_computed_values("scr", [](const nlohmann::json& e, DecodedRegister& r) {
        ASSERT_EQ(e.at("card_type"), "SD");
        r = decode_scr(parse_register_hex(RegKind::scr, e.at("hex").get<std::string>()));
        EXPECT_FALSE(r.summary.empty());
    });
}

TEST(ScrTable, FieldsInsideRegisterAndDisjoint)
{
    const auto table = scr_table();
    EXPECT_EQ(table.size(), 11u);
    std::array<bool, 64> used{};
    for (const auto& f : table) {
        ASSERT_LE(f.lo, f.hi) << f.name;
        ASSERT_LT(f.hi, 64) << f.name;
        for (int bit = f.lo; bit <= f.hi; ++bit) {
            EXPECT_FALSE(used[static_cast<std::size_t>(bit)]) << f.name << " overlaps at bit " << bit;
            used[static_cast<std::size_t>(bit)] = true;
        }
    }
}

TEST(ScrSpecVersion, EveryRowOfTheTable)
{
    struct Row {
        ScrBits bits;
        std::string version;
    };
    const std::vector<Row> rows{
        {{0, 0, 0, 0}, "1.0 and 1.01"}, {{1, 0, 0, 0}, "1.10"}, {{2, 0, 0, 0}, "2.00"},
        {{2, 1, 0, 0}, "3.0x"},         {{2, 1, 1, 0}, "4.xx"}, {{2, 1, 0, 1}, "5.xx"},
        {{2, 1, 1, 1}, "5.xx"},         {{2, 1, 1, 2}, "6.xx"}, {{2, 1, 0, 3}, "7.xx"},
        {{2, 1, 1, 4}, "8.xx"},         {{2, 1, 1, 5}, "9.xx"},
    };
    for (const auto& row : rows) {
        const auto r = scr(row.bits);
        EXPECT_EQ(str(r, "spec_version"), row.version);
        EXPECT_TRUE(r.warnings.empty()) << row.version << ": " << r.warnings.front();
    }
}

TEST(ScrSpecVersion, InconsistentBitsWarn)
{
    const auto spec4_alone = scr({2, 0, 1, 0});
    EXPECT_EQ(str(spec4_alone, "spec_version"), "2.00");
    EXPECT_EQ(spec4_alone.warnings.size(), 1u);

    const auto specx_alone = scr({2, 0, 0, 3});
    EXPECT_EQ(str(specx_alone, "spec_version"), "2.00");
    EXPECT_EQ(specx_alone.warnings.size(), 1u);

    const auto spec3_on_1_10 = scr({1, 1, 0, 0});
    EXPECT_EQ(str(spec3_on_1_10, "spec_version"), "1.10");
    EXPECT_FALSE(spec3_on_1_10.warnings.empty());

    const auto reserved = scr({3, 0, 0, 0});
    EXPECT_EQ(str(reserved, "spec_version"), "reserved (SD_SPEC 3)");
    EXPECT_FALSE(reserved.warnings.empty());

    const auto newer = scr({2, 1, 1, 6});
    EXPECT_EQ(str(newer, "spec_version"), "newer than 9.xx (SD_SPECX 6)");
    EXPECT_FALSE(newer.warnings.empty());
}

TEST(ScrBusWidths, OneAndFourRequired)
{
    EXPECT_EQ(list(scr({}), "bus_widths"), (StringList{"1-bit", "4-bit"}));

    ScrBits only1;
    only1.widths = 1;
    const auto r1 = scr(only1);
    EXPECT_EQ(list(r1, "bus_widths"), StringList{"1-bit"});
    ASSERT_EQ(r1.warnings.size(), 1u);
    EXPECT_NE(r1.warnings[0].find("4-bit"), std::string::npos);

    ScrBits only4;
    only4.widths = 4;
    EXPECT_EQ(list(scr(only4), "bus_widths"), StringList{"4-bit"});
    EXPECT_EQ(scr(only4).warnings.size(), 1u);

    ScrBits reserved_bit;
    reserved_bit.widths = 7;
    EXPECT_EQ(scr(reserved_bit).warnings.size(), 1u);
}

TEST(ScrSecurity, EveryCode)
{
    const std::array<std::string, 5> names{"none", "not used", "SDSC (security v1.01)", "SDHC (security v2.00)",
                                           "SDXC (security v3.xx)"};
    for (int code = 0; code < 5; ++code) {
        ScrBits b;
        b.security = code;
        const auto r = scr(b);
        EXPECT_EQ(str(r, "security"), names[static_cast<std::size_t>(code)]);
        EXPECT_TRUE(r.warnings.empty());
    }
    ScrBits b;
    b.security = 6;
    EXPECT_EQ(str(scr(b), "security"), "reserved (6)");
    EXPECT_EQ(scr(b).warnings.size(), 1u);
}

TEST(ScrErase, DataStatusAfterErase)
{
    ScrBits b;
    EXPECT_EQ(str(scr(b), "erased_data_pattern"), "0x00");
    b.stat = 1;
    EXPECT_EQ(str(scr(b), "erased_data_pattern"), "0xff");
}

TEST(ScrCommands, EachSupportBit)
{
    const std::array<std::string, 4> names{"CMD20 speed class control", "CMD23 set block count",
                                           "CMD48/49 extension register single block",
                                           "CMD58/59 extension register multi block"};
    for (int bit = 0; bit < 4; ++bit) {
        ScrBits b;
        b.cmd = 1 << bit;
        EXPECT_EQ(list(scr(b), "command_support"), StringList{names[static_cast<std::size_t>(bit)]});
    }
    ScrBits all;
    all.cmd = 0xf;
    EXPECT_EQ(list(scr(all), "command_support").size(), 4u);
    EXPECT_TRUE(list(scr({}), "command_support").empty());

    // Before SD 3.00 the bits were reserved.
    ScrBits old{2, 0, 0, 0};
    old.cmd = 2;
    EXPECT_EQ(scr(old).warnings.size(), 1u);
}

TEST(ScrDecode, SanDiskSc16gSummary)
{
    const auto r = decode_scr(parse_register_hex(RegKind::scr, "0235844300000000"));
    EXPECT_EQ(str(r, "spec_version"), "5.xx");
    EXPECT_EQ(list(r, "command_support"),
              (StringList{"CMD20 speed class control", "CMD23 set block count"}));
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.summary, "SCR: SD 5.xx, 1-bit/4-bit bus, security SDHC (security v2.00), CMD20 CMD23");
    EXPECT_EQ(r.kind, RegKind::scr);
    EXPECT_EQ(r.card, CardFamily::sd);
}

TEST(ScrDecode, ReservedStructureWarns)
{
    const auto r = decode_scr(parse_register_hex(RegKind::scr, "1235800100000000"));
    EXPECT_EQ(r.field("scr_structure")->raw, 1u);
    EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(ScrDecode, WrongSizeThrows)
{
    const std::vector<uint8_t> short_reg(7), long_reg(9);
    EXPECT_THROW(decode_scr(short_reg), std::invalid_argument);
    EXPECT_THROW(decode_scr(long_reg), std::invalid_argument);
    EXPECT_THROW(decode(RegKind::scr, CardFamily::sd, short_reg), std::invalid_argument);
}
