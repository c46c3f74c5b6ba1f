// ADATA (SM2706) CMD56 layout. The block is built from the decoded output a
// user posted for an ADATA IUDD33K 64 GB in sdmon PR 22 (2024-01-08), at the
// offsets sdmon reads.
#include "health_blocks.h"

using namespace mmc::health;
using mmc::test::BlockBuilder;

namespace {

BlockBuilder iudd33k()
{
    BlockBuilder b;
    b.u8(0, 0x09).u8(1, 0x41).be(24, 2, 10).u8(26, 0).u8(27, 34).be(30, 2, 0);
    b.be(32, 4, 0).be(36, 4, 1).be(40, 4, 2).be(44, 4, 0).be(48, 4, 0).be(52, 4, 1).be(56, 4, 11).be(60, 4, 0);
    b.be(64, 4, 60351).be(68, 2, 30).u8(70, 100).be(76, 4, 8);
    const uint8_t flash[] = {0x45, 0x3e, 0x98, 0x03, 0x76, 0x64, 0x1d};
    for (std::size_t i = 0; i < 7; ++i) b.u8(80 + i, flash[i]);
    b.text(88, "SM2706").be(104, 4, 1000).be(108, 4, 2000).text(128, "V0217 ").be(140, 4, 29);
    return b;
}

} // namespace

TEST(HealthAdata, PublishedIudd33k)
{
    const auto result = decode_adata(std::vector{iudd33k().block(0x110005f1)});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:adata");
    Wear want;
    want.life_used_percent = 0;
    want.life_exhausted = false;
    want.bad_blocks = {10, 0};
    want.erase_count = {0, 1, 2, 0.0};
    want.rated_erase_cycles = 30;
    want.power_cycles = 8;
    want.firmware = "V0217";
    mmc::test::expect_wear(r.wear, want);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "spare_slc_block_count")), 34);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "system_area_total_erase_count")), 11);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "raw_card_capacity_mb")), 60351);
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "controller")), "SM2706");
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "flash_id")), "453e980376641d");
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "tlc_read_threshold")), 1000);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(r, "slc_read_threshold")), 2000);
}

TEST(HealthAdata, SlcRefreshIsTheWordAt140NotSdmonsSkippedByte)
{
    auto b = iudd33k();
    b.u8(142, 0x01); // sdmon skips byte 142 and reads 144 instead
    const auto r = decode_adata(std::vector{b.block(0x110005f1)});
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(*r.reading, "slc_refresh_count")), 0x0100 + 29);
}

TEST(HealthAdata, RemainingLifeBecomesLifeUsed)
{
    auto b = iudd33k();
    b.u8(70, 15);
    const auto r = decode_adata(std::vector{b.block(0x110005f1)});
    EXPECT_EQ(r.reading->wear.life_used_percent, 85);
}

TEST(HealthAdata, TranscendSignatureIsNotAdata)
{
    auto b = iudd33k();
    b.text(0, "Tr");
    EXPECT_FALSE(decode_adata(std::vector{b.block(0x110005f1)}).reading);
}
