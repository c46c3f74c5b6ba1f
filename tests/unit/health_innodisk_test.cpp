// Innodisk CMD56 layout ("LX"), at sdmon's offsets.
#include "health_blocks.h"

using namespace mmc::health;
using mmc::test::BlockBuilder;

TEST(HealthInnodisk, EveryFieldAtItsOffset)
{
    BlockBuilder b;
    b.text(0, "LX").u8(16, 0x10).u8(18, 4).u8(19, 1).u8(24, 60).u8(25, 7).u8(26, 2).u8(27, 15);
    b.be(28, 4, 9).be(32, 4, 1).be(36, 4, 40).be(40, 4, 123456).be(44, 4, 20).text(53, "S16425i");
    const auto result = decode_innodisk(std::vector{b.block(0x110005fd)});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:innodisk");
    Wear want;
    want.spare_blocks_percent = 85;
    want.bad_blocks = {7, 2};
    want.erase_count = {1, 40, 123456, 20.0};
    want.abnormal_power_losses = 9;
    want.firmware = "S16425i";
    mmc::test::expect_wear(r.wear, want);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "bus_width")), 0x10);
    EXPECT_EQ(r.fields[0].text, "4 bits");
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "total_spare_blocks")), 60);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "spare_utilization_rate")), 15);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "speed_class")), 4);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "uhs_speed_grade")), 1);
}

TEST(HealthInnodisk, WrongSignatureOrArgument)
{
    BlockBuilder b;
    b.text(0, "LY");
    EXPECT_FALSE(decode_innodisk(std::vector{b.block(0x110005fd)}).reading);
    b.text(0, "LX");
    EXPECT_FALSE(decode_innodisk(std::vector{b.block(0x110005f1)}).reading);
}
