// The two-step layout (write 0x10, read 0x21). Blocks rebuilt from the
// decoded outputs users posted to sdmon: a Kingston SDCE 256 GB (issue 30,
// 2024-11-19) and a GOODRAM M1AA 16 GB (issue 40, 2025-03-19).
#include "health_blocks.h"

#include <random>

using namespace mmc::health;
using mmc::test::BlockBuilder;

namespace {

// Split erase counts as sdmon reads them: high half at 104/106/108, low at 98/100/102.
void erase_counts(BlockBuilder& b, uint32_t avg, uint32_t min, uint32_t max)
{
    b.be(104, 2, avg >> 16).be(98, 2, avg & 0xffff);
    b.be(106, 2, min >> 16).be(100, 2, min & 0xffff);
    b.be(108, 2, max >> 16).be(102, 2, max & 0xffff);
}

BlockBuilder kingston_sdce()
{
    BlockBuilder b;
    const uint8_t id[] = {0x98, 0x3e, 0xa8, 0x03, 0x7a, 0xe4, 0x08, 0x16, 0x00, 0x20, 0x25, 19, 143};
    for (std::size_t i = 0; i < sizeof id; ++i) b.u8(i, id[i]);
    b.u8(14, 0x04).be(16, 2, 12).u8(32, 10).u8(40, 14).be(64, 2, 9981).be(80, 4, 66).be(96, 2, 9997);
    erase_counts(b, 1, 1, 1);
    b.be(112, 4, 16).be(128, 2, 0).be(160, 2, 0).be(328, 4, 2000);
    return b;
}

} // namespace

TEST(HealthTwoStep, KingstonSdceAsPublished)
{
    const auto result = decode_two_step(std::vector{kingston_sdce().block(0x21)});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:two_step");
    Wear want;
    want.life_used_percent = 100 - 99.97;
    want.life_exhausted = false;
    want.bad_blocks = {24, 0};
    want.erase_count = {1, 1, 66, 1.0};
    want.power_cycles = 16;
    want.abnormal_power_losses = 0;
    want.bytes_written = 2000ull * 512; // the SDCE's sectors written at 328
    want.firmware = "19.143";
    mmc::test::expect_wear(r.wear, want);
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "flash_id")), "983ea8037ae4081600");
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "ic_version")), "2025");
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "ce_number")), 4);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "spare_block_count")), 12);
    EXPECT_DOUBLE_EQ(std::get<double>(mmc::test::field_of(r, "good_block_rate_percent")), 99.81);
    EXPECT_DOUBLE_EQ(std::get<double>(mmc::test::field_of(r, "endurance_remain_life_percent")), 99.97);
}

TEST(HealthTwoStep, GoodramM1aaAsPublished)
{
    BlockBuilder b;
    const uint8_t id[] = {0x98, 0x3a, 0x98, 0xb3, 0x76, 0x72, 0x08, 0x0e, 0x00, 0x20, 0x25, 29, 23};
    for (std::size_t i = 0; i < sizeof id; ++i) b.u8(i, id[i]);
    b.u8(14, 1).be(16, 2, 9).u8(33, 4).be(64, 2, 9973).be(80, 4, 2402).be(96, 2, 9990);
    erase_counts(b, 3, 1, 4);
    b.be(112, 4, 38).be(128, 2, 4);
    const auto result = decode_two_step(std::vector{b.block(0x21)});
    ASSERT_TRUE(result.reading) << result.not_health;
    Wear want;
    want.life_used_percent = 100 - 99.90;
    want.life_exhausted = false;
    want.bad_blocks = {4, 0};
    want.erase_count = {1, 4, 2402, 3.0};
    want.power_cycles = 38;
    want.abnormal_power_losses = 4;
    want.firmware = "29.23"; // no SDCE flash ID: no bytes written
    mmc::test::expect_wear(result.reading->wear, want);
}

TEST(HealthTwoStep, SplitEraseCountsCombineHighAndLowHalves)
{
    auto b = kingston_sdce();
    erase_counts(b, 0x00012345, 0x00010000, 0x00020001);
    const auto r = decode_two_step(std::vector{b.block(0x21)});
    ASSERT_TRUE(r.reading);
    EXPECT_EQ(r.reading->wear.erase_count.min, 0x00010000u);
    EXPECT_EQ(r.reading->wear.erase_count.avg, static_cast<double>(0x00012345));
    EXPECT_EQ(r.reading->wear.erase_count.max, 0x00020001u);
}

TEST(HealthTwoStep, AllFfAsSdmonIssue42ShowsIsNoHealthData)
{
    // sdmon printed a good-block rate of 655.35% and 4294967295 erases for it.
    const auto r = mmc::test::decode_one(decode_two_step, 0x21, std::vector<uint8_t>(512, 0xff));
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.not_health.find("0xff"), std::string::npos);
}

TEST(HealthTwoStep, AllZeroAsSdmonIssue43ShowsIsNoHealthData)
{
    EXPECT_FALSE(mmc::test::decode_one(decode_two_step, 0x21, std::vector<uint8_t>(512, 0)).reading);
}

TEST(HealthTwoStep, MbrBootCodeAsSdmonIssue18ShowsIsNoHealthData)
{
    const auto r = mmc::test::decode_one(decode_two_step, 0x21, mmc::test::mbr_block_issue18());
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.not_health.find("MBR"), std::string::npos);
}

TEST(HealthTwoStep, RandomBlocksAreRejectedByPlausibility)
{
    std::mt19937 rng(25);
    int accepted = 0;
    for (int i = 0; i < 200; ++i) {
        std::vector<uint8_t> b(512);
        for (auto& x : b) x = static_cast<uint8_t>(rng());
        if (mmc::test::decode_one(decode_two_step, 0x21, b).reading) ++accepted;
    }
    EXPECT_LE(accepted, 2) << "random blocks taken for reports";
}

TEST(HealthTwoStep, GoodBlockRateAboveOneHundredIsImplausible)
{
    auto b = kingston_sdce();
    b.be(64, 2, 10001);
    const auto r = decode_two_step(std::vector{b.block(0x21)});
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.not_health.find("not a plausible"), std::string::npos);
}
