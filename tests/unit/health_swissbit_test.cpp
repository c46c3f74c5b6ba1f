// Swissbit: the CMD56 layout ("Sw", sdmon) and the SD status figures
// (collectd src/mmc.c, hex characters 66, 92 and 112 of sysfs "ssr").
#include "health/sources.h"
#include "health_blocks.h"
#include "regs/hex.h"

using namespace mmc::health;
using mmc::test::BlockBuilder;

TEST(HealthSwissbit, EveryFieldAtItsOffset)
{
    BlockBuilder b;
    b.text(0, "Sw").text(32, "0311022").be(48, 4, 3000).be(52, 4, 41).be(56, 4, 90000).be(60, 4, 22);
    b.be(68, 4, 80).be(72, 4, 5000).be(76, 4, 30).u8(80, 97).u8(86, 0x12).u8(87, 0x10);
    b.be(88, 4, 50).be(92, 4, 8).be(96, 4, 3).be(100, 4, 1).be(104, 4, 7).be(108, 4, 2).be(112, 4, 4).be(116, 4, 321);
    const auto result = decode_swissbit(std::vector{b.block(0x53420001)});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:swissbit");
    Wear want;
    want.life_used_percent = 3;
    want.life_exhausted = false;
    want.bad_blocks.runtime = 4;
    want.erase_count.max = 41;
    want.erase_count.total = 90000;
    want.erase_count.avg = 22.0;
    want.rated_erase_cycles = 3000;
    want.power_cycles = 321;
    want.firmware = "0311022";
    mmc::test::expect_wear(r.wear, want);
    // sdmon labels 68-76 "User area" again; they are the system area's.
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "system_area_max_cycle_count")), 80);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "system_area_total_cycle_count")), 5000);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "system_area_average_cycle_count")), 30);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "user_area_spare_blocks")), 50);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "interface_crc_count")), 4);
}

TEST(HealthSwissbitSsr, CollectdOffsets)
{
    std::vector<uint8_t> ssr(64, 0);
    ssr[0] = 0x80; // a plausible SSR head; only the vendor bytes matter here
    ssr[33] = 88;
    for (std::size_t i = 0; i < 6; ++i) ssr[46 + i] = static_cast<uint8_t>(0x0000'0001'0203ull >> (8 * (5 - i)));
    ssr[56] = 0x00; ssr[57] = 0x00; ssr[58] = 0x01; ssr[59] = 0x2c;
    // The same bytes as collectd reads them: characters 66-67, 92-103, 112-119.
    const std::string hex = mmc::regs::to_hex(ssr);
    EXPECT_EQ(hex.substr(66, 2), "58");
    EXPECT_EQ(hex.substr(92, 12), "000000010203");
    EXPECT_EQ(hex.substr(112, 8), "0000012c");
    const auto result = ssr_swissbit(ssr);
    ASSERT_TRUE(result.reading) << result.none_because;
    EXPECT_EQ(result.reading->source, "ssr:swissbit");
    Wear want;
    want.spare_blocks_percent = 88;
    want.erase_count.total = 0x010203;
    want.power_cycles = 300;
    mmc::test::expect_wear(result.reading->wear, want);
}

TEST(HealthSwissbitSsr, SpareAboveOneHundredIsNotThisLayout)
{
    std::vector<uint8_t> ssr(64, 0);
    ssr[33] = 0xff;
    const auto r = ssr_swissbit(ssr);
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.none_because.find("not a percentage"), std::string::npos);
    EXPECT_FALSE(ssr_swissbit(std::vector<uint8_t>(63, 0)).reading);
}
