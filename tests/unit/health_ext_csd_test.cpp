// EXT_CSD health (JESD84-B51 7.4: [267] PRE_EOL_INFO, [268]/[269] life time
// A/B, [301:270] vendor report), from the register regs/ decodes.
#include "health/sources.h"
#include "health_blocks.h"
#include "regs/decode.h"

using namespace mmc::health;

namespace {

mmc::regs::DecodedRegister ext_csd(uint8_t rev, uint8_t a, uint8_t b, uint8_t eol)
{
    std::vector<uint8_t> reg(512, 0);
    reg[192] = rev;
    reg[268] = a;
    reg[269] = b;
    reg[267] = eol;
    reg[270] = 0xab;
    reg[301] = 0xcd;
    return mmc::regs::decode_ext_csd(reg);
}

} // namespace

TEST(HealthExtCsd, BeforeRevision7ThereIsNoReading)
{
    const auto r = ext_csd_health(ext_csd(6, 0x02, 0x02, 0x01));
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.none_because.find("EXT_CSD_REV 6"), std::string::npos);
}

TEST(HealthExtCsd, TheWorseTypeDecidesAndTheUpperBoundIsTheFigure)
{
    const auto r = ext_csd_health(ext_csd(8, 0x02, 0x05, 0x01));
    ASSERT_TRUE(r.reading);
    EXPECT_EQ(r.reading->source, "ext_csd");
    Wear want;
    want.life_used_percent = 50;
    want.life_exhausted = false;
    want.pre_eol = PreEol::normal;
    mmc::test::expect_wear(r.reading->wear, want);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(*r.reading, "device_life_time_est_typ_a")), 2);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(*r.reading, "device_life_time_est_typ_b")), 5);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(*r.reading, "pre_eol_info")), 1);
    const auto vendor = std::get<std::string>(mmc::test::field_of(*r.reading, "vendor_proprietary_health_report"));
    EXPECT_EQ(vendor.size(), 64u);
    EXPECT_EQ(vendor.substr(0, 2), "ab");
    EXPECT_EQ(vendor.substr(62), "cd");
}

TEST(HealthExtCsd, ExceededIsExhausted)
{
    const auto r = ext_csd_health(ext_csd(7, 0x0b, 0x01, 0x03));
    ASSERT_TRUE(r.reading);
    EXPECT_EQ(r.reading->wear.life_used_percent, 100);
    EXPECT_TRUE(*r.reading->wear.life_exhausted);
    EXPECT_EQ(r.reading->wear.pre_eol, PreEol::urgent);
}

TEST(HealthExtCsd, UndefinedAndReservedValuesStayNull)
{
    const auto r = ext_csd_health(ext_csd(8, 0x00, 0x0c, 0x00));
    ASSERT_TRUE(r.reading);
    mmc::test::expect_wear(r.reading->wear, Wear{});
    EXPECT_FALSE(r.reading->notes.empty());
    EXPECT_EQ(ext_csd_health(ext_csd(8, 0, 0, 4)).reading->wear.pre_eol, std::nullopt);
}
