// SanDisk/WD industrial CMD56 layout, built at sdmon's offsets.
#include "health_blocks.h"

using namespace mmc::health;
using mmc::test::BlockBuilder;

namespace {

BlockBuilder sandisk(char second = 'S')
{
    BlockBuilder b;
    b.text(0, std::string{'D', second}).text(2, "230415").u8(8, 5).u8(11, 0x12).u8(14, 3).be(24, 3, 0x000102);
    b.text(49, "SanDisk Industrial");
    return b;
}

} // namespace

TEST(HealthSandisk, EveryFieldAtItsOffset)
{
    const auto res = sandisk().block(1);
    const auto result = decode_sandisk(std::vector{res});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:sandisk");
    Wear want;
    want.life_used_percent = 5;
    want.life_exhausted = false;
    want.power_cycles = 258;
    mmc::test::expect_wear(r.wear, want);
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "manufacture_yymmdd")), "230415");
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "feature_revision")), 0x12);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "generation_identifier")), 3);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "power_on_count")), 258);
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "product_string")), "SanDisk Industrial");
}

TEST(HealthSandisk, DwSignatureIsAccepted)
{
    EXPECT_TRUE(decode_sandisk(std::vector{sandisk('W').block(1)}).reading);
}

TEST(HealthSandisk, PowerOnCountIsAt24NotTheOld23)
{
    // sdmon read it at 23 before commit 625bb1b: a value there is not ours.
    auto b = sandisk();
    b.u8(23, 0x7f);
    EXPECT_EQ(decode_sandisk(std::vector{b.block(1)}).reading->wear.power_cycles, 258u);
}

TEST(HealthSandisk, BeyondOneHundredPercentIsExhausted)
{
    auto b = sandisk();
    b.u8(8, 0x64);
    EXPECT_FALSE(*decode_sandisk(std::vector{b.block(1)}).reading->wear.life_exhausted);
    b.u8(8, 0x65);
    const auto r = decode_sandisk(std::vector{b.block(1)});
    EXPECT_TRUE(*r.reading->wear.life_exhausted);
    EXPECT_EQ(r.reading->wear.life_used_percent, 101);
}

TEST(HealthSandisk, OtherSignaturesAreNoHealthData)
{
    auto b = sandisk();
    b.text(0, "DX");
    const auto r = decode_sandisk(std::vector{b.block(1)});
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.not_health.find("\"DS\" or \"DW\""), std::string::npos) << r.not_health;
    // sdmon issue 14: an Apacer card answered argument 1 with 0x00 0x04...
    // which sdmon decoded as SanDisk anyway ("healthStatusPercentUsed": 27).
    BlockBuilder apacer;
    apacer.u8(1, 0x04).u8(8, 27);
    EXPECT_FALSE(decode_sandisk(std::vector{apacer.block(1)}).reading);
}

TEST(HealthSandisk, BlockOfTheWrongArgumentIsMissing)
{
    const auto r = decode_sandisk(std::vector{sandisk().block(0x21)});
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.not_health.find("0x00000001"), std::string::npos);
}
