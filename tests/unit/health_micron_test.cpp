// Micron: the SD layout ("ME", TN-SD-02 via sdmon issue 15) and the eMMC
// layout (three CMD56 reads, collectd src/mmc.c).
#include "health_blocks.h"

using namespace mmc::health;
using mmc::test::BlockBuilder;

TEST(HealthMicronSd, NewI400AsPublished)
{
    // sdmon issue 15 (2023-12-07): a new i400 shows a utilisation step of 1.
    BlockBuilder b;
    b.text(0, "ME").u8(7, 1).u8(8, 2).u8(9, 3);
    const auto result = decode_micron_sd(std::vector{b.block(0x110005fb)});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:micron_sd");
    mmc::test::expect_wear(r.wear, Wear{}); // nothing normalised: the unit is unpublished
    EXPECT_FALSE(r.wear.judgeable());
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "percentage_step_utilization")), 1);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "tlc_area_utilization")), 2);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "slc_area_utilization")), 3);
    EXPECT_FALSE(r.notes.empty());
}

namespace {

std::vector<Cmd56Block> micron_emmc(uint16_t slc_min = 2, uint16_t slc_avg = 5, uint16_t slc_max = 9)
{
    BlockBuilder bad, slc, mlc;
    bad.be(0, 2, 31).be(2, 2, 4).be(4, 2, 120).u8(100, 0x5a);
    slc.be(0, 2, slc_min).be(2, 2, slc_max).be(4, 2, slc_avg).u8(100, 0x5a);
    mlc.be(0, 2, 10).be(2, 2, 300).be(4, 2, 150).u8(100, 0x5a);
    return {bad.block(0x11), slc.block(0x23), mlc.block(0x25)};
}

} // namespace

TEST(HealthMicronEmmc, ThreeReportsAtTheirArguments)
{
    const auto result = decode_micron_emmc(micron_emmc());
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:micron_emmc");
    Wear want;
    want.bad_blocks = {31, 4};
    want.erase_count.min = 10;
    want.erase_count.max = 300;
    want.erase_count.avg = 150.0;
    mmc::test::expect_wear(r.wear, want);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "remaining_spare_blocks")), 120);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "slc_erase_min")), 2);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "slc_erase_max")), 9);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "slc_erase_avg")), 5);
}

TEST(HealthMicronEmmc, ErasesOutOfOrderAreNoHealthData)
{
    const auto r = decode_micron_emmc(micron_emmc(9, 5, 2));
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.not_health.find("out of order"), std::string::npos);
}

TEST(HealthMicronEmmc, AMissingReportIsNamed)
{
    auto blocks = micron_emmc();
    blocks.pop_back();
    const auto r = decode_micron_emmc(blocks);
    EXPECT_FALSE(r.reading);
    EXPECT_NE(r.not_health.find("0x00000025"), std::string::npos);
}
