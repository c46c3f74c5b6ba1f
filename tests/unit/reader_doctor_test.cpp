// The bus doctor for a card in a USB reader (bus/reader_doctor.h): the link
// is named as the limit exactly when its ceiling is below a UHS-I card's
// SDR104 bus, with the figures in the verdict.
#include "bus/reader_doctor.h"

#include <gtest/gtest.h>

using namespace mmc::bus;

TEST(UsbReaderDoctor, Usb2BulkOnlyCapsAUhsICardAtAboutForty)
{
    const auto d = diagnose_reader({"sdb", "Genesys Logic GL827L", 480, UsbTransport::bulk_only, true});
    EXPECT_EQ(d.limit, ReaderLimit::link);
    EXPECT_EQ(d.verdict, "the reader's USB 2.0 link caps this card at about 40 MB/s; a UHS-I card's SDR104 bus could carry "
                         "104 MB/s, SDR50 50 MB/s; a high-speed card (25 MB/s) is not held back");
    EXPECT_EQ(to_string(d.limit), "the reader's USB link");
    ASSERT_FALSE(d.notes.empty());
    EXPECT_NE(d.notes.front().find("SD slot on an MMC host"), std::string::npos);
}

TEST(UsbReaderDoctor, FullSpeedHoldsBackEvenAHighSpeedCard)
{
    const auto d = diagnose_reader({"sdb", "r", 12, UsbTransport::bulk_only, true});
    EXPECT_EQ(d.limit, ReaderLimit::link);
    EXPECT_NE(d.verdict.find("at most 1.216 MB/s"), std::string::npos) << d.verdict;
    EXPECT_NE(d.verdict.find("even high speed 25 MB/s"), std::string::npos) << d.verdict;
}

TEST(UsbReaderDoctor, SuperSpeedIsNotTheLimitAndAnUnknownSpeedDecidesNothing)
{
    const auto d = diagnose_reader({"sdb", "r", 5000, UsbTransport::uas, true});
    EXPECT_EQ(d.limit, ReaderLimit::card_side);
    EXPECT_NE(d.verdict.find("(at most 500 MB/s) is not the limit"), std::string::npos) << d.verdict;
    const auto bot = diagnose_reader({"sdb", "r", 5000, UsbTransport::bulk_only, false});
    EXPECT_EQ(bot.notes.size(), 3u); // the SD side unseen, the empty slot, bulk-only on SuperSpeed
    const auto unknown = diagnose_reader({"sdb", "r", std::nullopt, UsbTransport::unknown, true});
    EXPECT_EQ(unknown.limit, ReaderLimit::unknown);
    EXPECT_FALSE(unknown.ceiling.ceiling_mb_s());
}
