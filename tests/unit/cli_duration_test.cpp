// The one duration syntax: a number with an optional
// unit, seconds without one, the same for every option that takes a time.
#include "cli/cli.h"
#include "cli/duration.h"

#include <gtest/gtest.h>
#include <stdexcept>

using mmc::cli::parse_duration;
using mmc::cli::parse_seconds;

TEST(CliDuration, ANumberWithAnOptionalUnitSecondsByDefault)
{
    EXPECT_DOUBLE_EQ(parse_seconds("10"), 10);
    EXPECT_DOUBLE_EQ(parse_seconds("1.5"), 1.5);
    EXPECT_DOUBLE_EQ(parse_seconds("10s"), 10);
    EXPECT_DOUBLE_EQ(parse_seconds("500ms"), 0.5);
    EXPECT_DOUBLE_EQ(parse_seconds("2m"), 120);
    EXPECT_DOUBLE_EQ(parse_seconds("1h"), 3600);
    EXPECT_DOUBLE_EQ(parse_seconds("0"), 0);
    EXPECT_DOUBLE_EQ(parse_duration("800ns").count(), 800);
    EXPECT_DOUBLE_EQ(parse_duration("100us").count(), 100'000);
    EXPECT_DOUBLE_EQ(parse_duration("100µs").count(), 100'000);
    EXPECT_DOUBLE_EQ(parse_duration("1.5ms").count(), 1'500'000);
}

TEST(CliDuration, AnythingElseIsRefusedQuotingTheText)
{
    for (const char* bad : {"", "soon", "5d", "5min", "-1", "-1s", "inf", "nan", "1e3", " 5", "5 ", "+5", "s", "1.5.2", "0x10"}) {
        try {
            parse_duration(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
        }
    }
}

TEST(CliDuration, AnOptionNamesItselfInAUsageError)
{
    try {
        mmc::cli::seconds_option("--runtime", "5d");
        ADD_FAILURE() << "accepted 5d";
    } catch (const mmc::cli::UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "--runtime: '5d': unknown unit 'd' (use ns, us, ms, s, m or h; seconds without one)");
    }
}

TEST(CliDuration, ReadsAsTimeTellsATimeFromADevice)
{
    EXPECT_TRUE(mmc::cli::reads_as_time("5"));
    EXPECT_TRUE(mmc::cli::reads_as_time("2.5s"));
    EXPECT_FALSE(mmc::cli::reads_as_time("/dev/mmcblk0"));
    EXPECT_FALSE(mmc::cli::reads_as_time("mmcblk0"));
    EXPECT_FALSE(mmc::cli::reads_as_time("mmc0"));
}
