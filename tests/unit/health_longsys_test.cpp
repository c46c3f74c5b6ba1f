// Longsys CMD56 layout ("pX", little-endian), at sdmon's offsets.
#include "health_blocks.h"

using namespace mmc::health;
using mmc::test::BlockBuilder;

TEST(HealthLongsys, EveryFieldAtItsOffset)
{
    BlockBuilder b;
    b.text(0, "pX").le(4, 4, 2).le(12, 4, 64).le(16, 4, 11).le(20, 4, 3).le(24, 8, 0x1'0000'0000ull).le(32, 4, 40);
    b.le(36, 4, 12500).le(40, 4, 62333952).le(44, 4, 93).le(48, 4, 90000).le(52, 4, 3000).le(56, 4, 2048);
    const auto result = decode_longsys(std::vector{b.block(1)});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:longsys");
    Wear want;
    want.life_used_percent = 7;
    want.life_exhausted = false;
    want.bad_blocks = {11, 3};
    want.erase_count.avg = 12.5;
    want.rated_erase_cycles = 3000;
    want.bytes_written = 0x1'0000'0000ull * 512;
    mmc::test::expect_wear(r.wear, want);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "replace_block_left")), 40);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "phy_wr_gb_num")), 2048);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "remain_wr_gb_num")), 90000);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "sector_total")), 62333952);
    EXPECT_DOUBLE_EQ(std::get<double>(mmc::test::field_of(r, "degree_of_wear")), 12.5);
}

TEST(HealthLongsys, NoLifeLeftIsExhausted)
{
    BlockBuilder b;
    b.text(0, "pX").le(44, 4, 0);
    const auto r = decode_longsys(std::vector{b.block(1)});
    EXPECT_EQ(r.reading->wear.life_used_percent, 100);
    EXPECT_TRUE(*r.reading->wear.life_exhausted);
}

TEST(HealthLongsys, SandiskBlockIsNotLongsys)
{
    BlockBuilder b;
    b.text(0, "DS").u8(8, 3);
    EXPECT_FALSE(decode_longsys(std::vector{b.block(1)}).reading);
}
