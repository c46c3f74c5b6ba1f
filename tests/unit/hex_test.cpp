// The hex parser accepts what Linux and other hosts print and rejects the rest
// with a message naming the register, the expected length and what was given.
#include "regs/hex.h"

#include <gtest/gtest.h>

using namespace mmc::regs;

namespace {
std::string error_of(RegKind kind, std::string_view text)
{
    try {
        parse_register_hex(kind, text);
    } catch (const HexError& e) {
        return e.what();
    }
    return "no error";
}
} // namespace

TEST(Hex, SeparatorAndCaseVariantsGiveTheSameBytes)
{
    const auto plain = parse_register_hex(RegKind::scr, "02c5800300000000");
    EXPECT_EQ(parse_register_hex(RegKind::scr, "0x02c5800300000000"), plain);
    EXPECT_EQ(parse_register_hex(RegKind::scr, "02C5800300000000\n"), plain);
    EXPECT_EQ(parse_register_hex(RegKind::scr, "0x02c58003 0x00000000"), plain);
    EXPECT_EQ(parse_register_hex(RegKind::scr, "02:c5:80:03:00:00:00:00"), plain);
    EXPECT_EQ(parse_register_hex(RegKind::scr, "02 c5 80 03\t00 00 00 00"), plain);
    EXPECT_EQ(parse_register_hex(RegKind::scr, "02c58003:00000000:"), plain);
    EXPECT_EQ(plain[1], 0xc5);
}

TEST(Hex, ShortWordsArePaddedForOcrAndStatus)
{
    EXPECT_EQ(parse_register_hex(RegKind::ocr, "0x200000"), (std::vector<uint8_t>{0x00, 0x20, 0x00, 0x00}));
    EXPECT_EQ(parse_register_hex(RegKind::status, "900"), (std::vector<uint8_t>{0x00, 0x00, 0x09, 0x00}));
}

TEST(Hex, WrongLengthNamesRegisterAndLengths)
{
    const auto msg = error_of(RegKind::csd, "400e00325b5900001fff7f800a4000");
    EXPECT_NE(msg.find("csd"), std::string::npos) << msg;
    EXPECT_NE(msg.find("16 bytes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("32 hex digits"), std::string::npos) << msg;
    EXPECT_NE(msg.find("got 30"), std::string::npos) << msg;
    EXPECT_NE(error_of(RegKind::cid, std::string(34, 'a')).find("got 34"), std::string::npos);
    EXPECT_NE(error_of(RegKind::ocr, "123456789").find("expected 4 bytes"), std::string::npos);
}

TEST(Hex, NonHexAndEmptyAreErrors)
{
    EXPECT_NE(error_of(RegKind::csd, "400e00325b5900001fff7f800a40000g").find("'g' at position 32"), std::string::npos);
    EXPECT_NE(error_of(RegKind::scr, "").find("scr: empty"), std::string::npos);
    EXPECT_NE(error_of(RegKind::scr, " : ").find("empty"), std::string::npos);
    EXPECT_NE(error_of(RegKind::scr, "0x").find("empty"), std::string::npos);
    EXPECT_NE(error_of(RegKind::scr, "02c5\x01").find("byte 0x01"), std::string::npos);
    EXPECT_THROW(parse_hex("abc"), HexError);
    EXPECT_THROW(parse_hex(""), HexError);
}

TEST(Hex, RoundTrip)
{
    const std::vector<uint8_t> bytes{0x00, 0xff, 0x5a};
    EXPECT_EQ(to_hex(bytes), "00ff5a");
    EXPECT_EQ(parse_hex(to_hex(bytes)), bytes);
}
