// Transcend CMD56 layout. Byte order by controller: an SM2707 block is the
// one a user posted for a Transcend 230I 32 GB (sdmon PR 20, 2024-01-05),
// rebuilt with sdmon's little-endian erase counts; an SM2706 block follows
// Transcend's own reader (big-endian).
#include "health_blocks.h"

using namespace mmc::health;
using mmc::test::BlockBuilder;

namespace {

BlockBuilder transcend_230i()
{
    BlockBuilder b;
    b.text(0, "Transcend").u8(16, 0x10).u8(18, 4).u8(19, 3).u8(26, 0).u8(27, 0x33);
    b.le(32, 4, 0).le(36, 4, 1).le(40, 4, 0).le(44, 4, 0).u8(70, 100).be(72, 4, 0).be(76, 4, 0);
    const uint8_t flash[] = {0x45, 0x3c, 0x98, 0xb3, 0x76, 0x6b};
    for (std::size_t i = 0; i < 6; ++i) b.u8(80 + i, flash[i]);
    b.text(88, "SM2707E").text(128, "T0408 ");
    return b;
}

} // namespace

TEST(HealthTranscend, Sm2707ReadsEraseCountsLittleEndian)
{
    const auto result = decode_transcend(std::vector{transcend_230i().block(0x110005f9)});
    ASSERT_TRUE(result.reading) << result.not_health;
    const Reading& r = *result.reading;
    EXPECT_EQ(r.source, "cmd56:transcend");
    Wear want;
    want.life_used_percent = 0;
    want.life_exhausted = false;
    want.bad_blocks.runtime = 0;
    want.erase_count = {0, 1, 0, 0.0};
    want.rated_erase_cycles = 0;
    want.power_cycles = 0;
    want.abnormal_power_losses = 0;
    want.firmware = "T0408";
    mmc::test::expect_wear(r.wear, want);
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "erase_count_byte_order")), "little-endian");
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "controller")), "SM2707E");
    EXPECT_EQ(std::get<std::string>(mmc::test::field_of(r, "nand_flash_id")), "453c98b3766b");
}

TEST(HealthTranscend, Sm2706ReadsEveryNumberBigEndian)
{
    BlockBuilder b;
    b.text(0, "Transcend").u8(26, 2).be(30, 2, 51).be(32, 4, 3).be(36, 4, 90).be(40, 4, 70000).be(44, 4, 35);
    b.be(68, 2, 30).u8(70, 75).be(72, 4, 4).be(76, 4, 1234).text(88, "SM2706").text(128, "U1115 ").be(164, 4, 17);
    const auto result = decode_transcend(std::vector{b.block(0x110005f9)});
    ASSERT_TRUE(result.reading);
    Wear want;
    want.life_used_percent = 25;
    want.life_exhausted = false;
    want.bad_blocks.runtime = 2;
    want.erase_count = {3, 90, 70000, 35.0};
    want.rated_erase_cycles = 3000;
    want.power_cycles = 1234;
    want.abnormal_power_losses = 17;
    want.firmware = "U1115";
    mmc::test::expect_wear(result.reading->wear, want);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(*result.reading, "spare_block")), 51);
    EXPECT_EQ(std::get<int64_t>(mmc::test::field_of(*result.reading, "total_write_crc_count")), 4);
}

TEST(HealthTranscend, AdataSignatureUnderTheTranscendArgumentIsNotTranscend)
{
    // sdmon PR 22: ADATA cards answer the Transcend argument too.
    BlockBuilder b;
    b.u8(0, 0x09).u8(1, 0x41);
    EXPECT_FALSE(decode_transcend(std::vector{b.block(0x110005f9)}).reading);
}
