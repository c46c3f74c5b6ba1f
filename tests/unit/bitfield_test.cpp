#include "regs/bitfield.h"
#include "regs/crc7.h"

#include <array>
#include <gtest/gtest.h>
#include <stdexcept>

using namespace mmc::regs;

TEST(Bits, NumbersFromLastByte)
{
    const std::array<uint8_t, 4> reg{0x80, 0x00, 0x01, 0xa5};
    EXPECT_EQ(bits(reg, 0, 0), 1u);
    EXPECT_EQ(bits(reg, 7, 0), 0xa5u);
    EXPECT_EQ(bits(reg, 8, 8), 1u);
    EXPECT_EQ(bits(reg, 31, 31), 1u);
    EXPECT_EQ(bits(reg, 31, 0), 0x800001a5u);
    EXPECT_EQ(bits(reg, 10, 3), 0x34u); // 0b001_10100
}

TEST(Bits, RejectsRangesOutsideRegister)
{
    const std::array<uint8_t, 2> reg{};
    EXPECT_THROW(bits(reg, 16, 0), std::out_of_range);
    EXPECT_THROW(bits(reg, 3, 4), std::out_of_range);
    EXPECT_THROW(le_bytes(reg, 2, 0), std::out_of_range);
}

TEST(LeBytes, LittleEndian)
{
    const std::array<uint8_t, 4> reg{0x00, 0xc0, 0x47, 0x07};
    EXPECT_EQ(le_bytes(reg, 3, 0), 0x0747c000u);
    EXPECT_EQ(le_bytes(reg, 1, 1), 0xc0u);
}

TEST(Crc7, KnownCsd)
{
    // PNY Elite 32GB CSD, stored CRC byte 0x39 = CRC7 0x1c with end bit.
    const std::array<uint8_t, 15> csd{0x40, 0x0e, 0x00, 0x32, 0x5b, 0x59, 0x00, 0x00,
                                      0xe8, 0xf7, 0x7f, 0x80, 0x0a, 0x40, 0x00};
    EXPECT_EQ(crc7(csd), 0x1c);
}
