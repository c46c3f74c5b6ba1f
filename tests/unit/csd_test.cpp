// CSD decoding: each layout (SD 1.0, 2.0, 3.0, MMC), units, CRC handling.
// The corpus of real dumps is checked value by value in corpus_test.cpp.
#include "regs/decode.h"
#include "regs/hex.h"

#include <gtest/gtest.h>

using namespace mmc::regs;

namespace {
DecodedRegister sd_csd(std::string_view hex) { return decode_csd(parse_register_hex(RegKind::csd, hex), CardFamily::sd); }
int64_t num(const DecodedRegister& r, std::string_view key) { return std::get<int64_t>(r.find(key)->value); }
std::string str(const DecodedRegister& r, std::string_view key) { return std::get<std::string>(r.find(key)->value); }
} // namespace

TEST(Csd, Sdhc4GiBFromTheIssue)
{
    const auto r = sd_csd("400e00325b5900001fff7f800a400000");
    EXPECT_EQ(r.field("csd_structure")->raw, 1u);
    EXPECT_EQ(r.field("c_size")->raw, 0x1fffu);
    EXPECT_EQ(num(r, "capacity_bytes"), 4294967296);
    EXPECT_EQ(num(r, "capacity_512b_sectors"), 8388608);
    EXPECT_EQ(str(r, "capacity_class"), "SDHC");
    EXPECT_EQ(str(r, "csd_version"), "2.0");
    EXPECT_EQ(num(r, "taac_ns"), 1000000);
    EXPECT_EQ(num(r, "tran_speed_bit_per_s"), 25000000);
    EXPECT_TRUE(r.warnings.empty());
}

TEST(Csd, SdscVersion1CapacityFromMultiplier)
{
    // Built field by field: structure 0, TAAC 0x26, TRAN_SPEED 0x32, CCC 0x5f5,
    // READ_BL_LEN 9, C_SIZE 3839 at [73:62], C_SIZE_MULT 7 at [49:47]:
    // 3840 * 2^(7+2) * 512 bytes.
    std::array<uint8_t, 16> reg{};
    reg[1] = 0x26;
    reg[3] = 0x32;
    reg[4] = 0x5f;
    reg[5] = 0x59;
    // c_size [73:62]: bits 73..72 in byte 6 (bits 1..0), 71..64 in byte 7, 63..62 in byte 8 (bits 7..6)
    const unsigned c_size = 3839;
    reg[6] = static_cast<uint8_t>(c_size >> 10);
    reg[7] = static_cast<uint8_t>(c_size >> 2);
    reg[8] = static_cast<uint8_t>((c_size & 3) << 6);
    // c_size_mult [49:47]: bits 49..48 in byte 9 (bits 1..0), bit 47 in byte 10 (bit 7)
    reg[9] = 0x03;
    reg[10] = 0x80;
    const auto r = decode_csd(reg, CardFamily::sd);
    EXPECT_EQ(r.field("c_size")->raw, 3839u);
    EXPECT_EQ(r.field("c_size_mult")->raw, 7u);
    EXPECT_EQ(num(r, "capacity_bytes"), 3840LL * 512 * 512);
    EXPECT_EQ(str(r, "capacity_class"), "SDSC");
    EXPECT_EQ(num(r, "taac_ns"), 1500000); // 0x26: 1.5 x 1 ms
}

TEST(Csd, SdxcBoundaryAtCSize0xFFFF)
{
    // Samsung 512GB: C_SIZE 977919.
    const auto r = sd_csd("400e0032db79000eebff7f800a400000");
    EXPECT_EQ(str(r, "capacity_class"), "SDXC");
    EXPECT_EQ(num(r, "capacity_bytes"), 512711720960);
    const auto r32 = sd_csd("400e00325b590000e8f77f800a400039");
    EXPECT_EQ(str(r32, "capacity_class"), "SDHC");
}

TEST(Csd, SducVersion3UsesWideCSize)
{
    // CSD_STRUCTURE 2, C_SIZE 28 bits [75:48]: 0x0400000 -> (0x400000+1)*512KiB.
    // C_SIZE 0x0400000: bits [75:72] in byte 6, then bytes 7, 8, 9.
    const auto r = sd_csd("800e00325b59004000007f800a400000");
    const uint64_t c_size = r.field("c_size")->raw;
    EXPECT_EQ(c_size, 0x0400000u);
    EXPECT_EQ(num(r, "capacity_bytes"), static_cast<int64_t>((c_size + 1) * 512 * 1024));
    EXPECT_EQ(str(r, "capacity_class"), "SDUC");
    EXPECT_EQ(str(r, "csd_version"), "3.0");
}

TEST(Csd, MmcPlaceholderDefersToExtCsd)
{
    const auto r = decode_csd(parse_register_hex(RegKind::csd, "d00f00320f5903fffffffdff8a404000"), CardFamily::mmc);
    EXPECT_EQ(r.field("spec_vers")->raw, 4u);
    EXPECT_TRUE(std::get<bool>(r.find("csd_capacity_is_placeholder")->value));
    EXPECT_EQ(r.find("capacity_bytes"), nullptr);
    EXPECT_EQ(num(r, "erase_group_size_blocks"), 512);
    EXPECT_EQ(str(r, "spec_version"), "4.x/5.x");
    // MMC's TRAN_SPEED table has 2.6 where SD's has 2.5: 0x32 is 26 MHz.
    EXPECT_EQ(num(r, "tran_speed_bit_per_s"), 26000000);
}

TEST(Csd, MmcLegacyCapacity)
{
    const auto r = decode_csd(parse_register_hex(RegKind::csd, "8c26012a0f5901e9f6d983e392404001"), CardFamily::mmc);
    EXPECT_EQ(num(r, "capacity_bytes"), 32112640);
    EXPECT_EQ(num(r, "tran_speed_bit_per_s"), 20000000);
    EXPECT_EQ(num(r, "erase_group_size_blocks"), 32);
}

TEST(Csd, CrcCheckedNeverRequired)
{
    const auto good = sd_csd("400E00325B590000E8F77F800A400039");
    EXPECT_TRUE(std::get<bool>(good.find("crc7_matches")->value));
    EXPECT_TRUE(good.warnings.empty());
    const auto bad = sd_csd("400E00325B590000E8F77F800A400041");
    EXPECT_FALSE(std::get<bool>(bad.find("crc7_matches")->value));
    ASSERT_EQ(bad.warnings.size(), 1u);
    EXPECT_NE(bad.warnings[0].find("CRC7"), std::string::npos);
    const auto zeroed = sd_csd("400E00325B590000E8F77F800A400000");
    EXPECT_FALSE(std::get<bool>(zeroed.find("crc_byte_present")->value));
    EXPECT_EQ(zeroed.find("crc7_matches"), nullptr);
}

TEST(Csd, ReservedStructureWarns)
{
    const auto r = sd_csd("c00e00325b5900001fff7f800a400000");
    ASSERT_FALSE(r.warnings.empty());
    EXPECT_NE(r.warnings[0].find("reserved"), std::string::npos);
}

TEST(Csd, WrongSizeThrows)
{
    const std::array<uint8_t, 15> short_reg{};
    EXPECT_THROW(decode_csd(short_reg, CardFamily::sd), std::invalid_argument);
}
