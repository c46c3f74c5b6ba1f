// The USB ceiling arithmetic (bus/usb_link.h): each figure against the
// document it comes from, worked out here by hand.
#include "bus/usb_link.h"

#include <gtest/gtest.h>

using namespace mmc::bus;

TEST(UsbLink, HighSpeedBulkIs13PacketsOf512BytesPerMicroframe)
{
    // USB 2.0 spec Table 5-10: 13 x 512 bytes / 125 us = 53,248,000 bytes/s.
    EXPECT_DOUBLE_EQ(bulk_payload_mb_s(13, 512, 125e-6), 53.248);
    const auto c = usb_ceiling(480, UsbTransport::bulk_only);
    ASSERT_TRUE(c.raw);
    EXPECT_DOUBLE_EQ(c.raw->mb_s, 53.248);
    EXPECT_NE(c.raw->source.find("Table 5-10"), std::string::npos);
    EXPECT_EQ(c.short_name, "USB 2.0");
}

TEST(UsbLink, BulkOnlyOverUsb2IsHeldToTheMeasuredFortyNotTheRawFiftyThree)
{
    const auto bot = usb_ceiling(480, UsbTransport::bulk_only);
    ASSERT_TRUE(bot.practical);
    EXPECT_DOUBLE_EQ(bot.practical->mb_s, 40);
    EXPECT_NE(bot.practical->source.find("30-42 MB/s"), std::string::npos);
    EXPECT_DOUBLE_EQ(*bot.ceiling_mb_s(), 40);
    // UAS over USB 2.0 has no measured figure here: the raw one holds.
    const auto uas = usb_ceiling(480, UsbTransport::uas);
    EXPECT_FALSE(uas.practical);
    EXPECT_DOUBLE_EQ(*uas.ceiling_mb_s(), 53.248);
}

TEST(UsbLink, FullSpeedBulkIs19PacketsOf64BytesPerFrame)
{
    // USB 2.0 spec Table 5-9: 19 x 64 bytes / 1 ms = 1,216,000 bytes/s.
    EXPECT_DOUBLE_EQ(*usb_ceiling(12, UsbTransport::bulk_only).ceiling_mb_s(), 1.216);
    // A low-speed device has no bulk endpoints (USB 2.0 spec 5.8): nothing.
    EXPECT_DOUBLE_EQ(*usb_ceiling(1.5, UsbTransport::bulk_only).ceiling_mb_s(), 0);
}

TEST(UsbLink, SuperSpeedRatesAfterTheirLineEncoding)
{
    // 5 Gbit/s x 8/10 (8b/10b) / 8 = 500 MB/s.
    EXPECT_DOUBLE_EQ(encoded_payload_mb_s(5000, 8, 10), 500);
    EXPECT_DOUBLE_EQ(*usb_ceiling(5000, UsbTransport::uas).ceiling_mb_s(), 500);
    // 10 Gbit/s x 128/132 / 8 = 1212.12 MB/s; Gen 2x2 is two such lanes.
    EXPECT_NEAR(*usb_ceiling(10000, UsbTransport::uas).ceiling_mb_s(), 1212.12, 0.01);
    EXPECT_NEAR(*usb_ceiling(20000, UsbTransport::uas).ceiling_mb_s(), 2424.24, 0.01);
    EXPECT_EQ(usb_ceiling(5000, UsbTransport::bulk_only).short_name, "USB 3.0");
    EXPECT_NE(usb_ceiling(5000, UsbTransport::uas).raw->source.find("8b/10b"), std::string::npos);
    EXPECT_NE(usb_ceiling(10000, UsbTransport::uas).raw->source.find("128b/132b"), std::string::npos);
}

TEST(UsbLink, AnUnknownSpeedHasANameAndNoFigure)
{
    const auto c = usb_ceiling(1234, UsbTransport::bulk_only);
    EXPECT_FALSE(c.ceiling_mb_s());
    EXPECT_NE(c.link.find("1234"), std::string::npos);
    EXPECT_EQ(usb_generation(1234), "USB");
    EXPECT_EQ(to_string(UsbTransport::bulk_only), "usb-storage bulk-only");
}
