// mmc-health --nagios: the Monitoring Plugins' range syntax, one parser, and
// the status line with its state for each verdict and threshold.
#include "health/nagios.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace mmc::health;

TEST(NagiosRange, PlainNumberIsZeroToIt)
{
    const auto r = parse_nagios_range("10");
    EXPECT_FALSE(r.alerts(0));
    EXPECT_FALSE(r.alerts(10));
    EXPECT_TRUE(r.alerts(10.5));
    EXPECT_TRUE(r.alerts(-1));
    EXPECT_EQ(r.text, "10");
}

TEST(NagiosRange, OpenEndAlertsBelowStart)
{
    const auto r = parse_nagios_range("10:");
    EXPECT_TRUE(r.alerts(9.99));
    EXPECT_FALSE(r.alerts(10));
    EXPECT_FALSE(r.alerts(1e12));
}

TEST(NagiosRange, TildeIsMinusInfinity)
{
    const auto r = parse_nagios_range("~:10");
    EXPECT_FALSE(r.alerts(-1e12));
    EXPECT_FALSE(r.alerts(10));
    EXPECT_TRUE(r.alerts(10.01));
}

TEST(NagiosRange, BothEndsIncluded)
{
    const auto r = parse_nagios_range("10:20");
    EXPECT_TRUE(r.alerts(9));
    EXPECT_FALSE(r.alerts(10));
    EXPECT_FALSE(r.alerts(20));
    EXPECT_TRUE(r.alerts(21));
}

TEST(NagiosRange, AtAlertsInside)
{
    const auto r = parse_nagios_range("@10:20");
    EXPECT_FALSE(r.alerts(9));
    EXPECT_TRUE(r.alerts(10));
    EXPECT_TRUE(r.alerts(15));
    EXPECT_TRUE(r.alerts(20));
    EXPECT_FALSE(r.alerts(20.5));
}

TEST(NagiosRange, DecimalsAndNegatives)
{
    EXPECT_TRUE(parse_nagios_range("-5:2.5").alerts(2.6));
    EXPECT_FALSE(parse_nagios_range("-5:2.5").alerts(-5));
}

TEST(NagiosRange, RefusesWhatIsNotARange)
{
    for (const char* bad : {"", "@", ":", "abc", "10:abc", "1e3", "10 ", " 10", "10:20:30", "nan", "inf", "~", "10:~",
                            "20:10", "-5", "@:", "~~:1", "0x10"})
        EXPECT_THROW(parse_nagios_range(bad), std::invalid_argument) << "'" << bad << "'";
}

TEST(NagiosRange, SaysWhatIsWrong)
{
    try {
        parse_nagios_range("20:10");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ(e.what(), "'20:10': the start 20 is above the end 10");
    }
}

namespace {

HealthReport report_with(std::optional<double> life_used, std::optional<bool> writable = true)
{
    HealthReport r;
    if (life_used) {
        Reading reading;
        reading.source = "cmd56:sandisk";
        reading.wear.life_used_percent = life_used;
        r.readings.push_back(reading);
    }
    r.writability.writable = writable;
    if (writable == false)
        r.writability.reasons.push_back({WpCause::host_switch, WpScope::card, false, "the write-protect switch is on", "slide it"});
    r.judgement = judge(r.readings, r.writability);
    return r;
}

} // namespace

TEST(NagiosCheck, EachVerdictItsState)
{
    const auto healthy = report_with(10), worn = report_with(85), unknown = report_with(std::nullopt),
               read_only = report_with(10, false);
    EXPECT_EQ(nagios_check({{"mmcblk0", &healthy}}, {}).state, NagiosState::ok);
    EXPECT_EQ(nagios_check({{"mmcblk0", &worn}}, {}).state, NagiosState::warning);
    EXPECT_EQ(nagios_check({{"mmcblk0", &unknown}}, {}).state, NagiosState::unknown);
    EXPECT_EQ(nagios_check({{"mmcblk0", &read_only}}, {}).state, NagiosState::critical);
    EXPECT_EQ(nagios_state_of(Verdict::end_of_life), NagiosState::critical);
}

TEST(NagiosCheck, OneLineWithPerformanceData)
{
    const auto worn = report_with(85);
    NagiosThresholds t{parse_nagios_range("80"), parse_nagios_range("95")};
    const auto a = nagios_check({{"mmcblk0", &worn}}, t);
    EXPECT_EQ(a.state, NagiosState::warning);
    EXPECT_EQ(a.line, "MMC_HEALTH WARNING - mmcblk0 worn, life used 85% (outside -w 80) | life_used=85%;80;95;0");
}

TEST(NagiosCheck, ThresholdsRaiseNeverLower)
{
    const auto healthy = report_with(60), worn = report_with(85);
    NagiosThresholds strict{parse_nagios_range("50"), parse_nagios_range("55")};
    EXPECT_EQ(nagios_check({{"a", &healthy}}, strict).state, NagiosState::critical);
    NagiosThresholds lax{parse_nagios_range("99"), parse_nagios_range("100")};
    EXPECT_EQ(nagios_check({{"a", &worn}}, lax).state, NagiosState::warning);
    EXPECT_EQ(nagios_check({{"a", &healthy}}, lax).state, NagiosState::ok);
}

TEST(NagiosCheck, SeveralCardsWorstFirstAndLabelled)
{
    const auto healthy = report_with(10), read_only = report_with(20, false);
    const auto a = nagios_check({{"mmcblk0", &healthy}, {"mmc1:0001", &read_only}}, {});
    EXPECT_EQ(a.state, NagiosState::critical);
    EXPECT_EQ(a.line, "MMC_HEALTH CRITICAL - mmc1:0001 read-only: the write-protect switch is on, life used 20%; "
                      "mmcblk0 healthy, life used 10% | mmcblk0_life_used=10%;;;0 'mmc1:0001_life_used'=20%;;;0");
}

TEST(NagiosCheck, UnknownBelowWarning)
{
    const auto worn = report_with(85), unknown = report_with(std::nullopt);
    EXPECT_EQ(nagios_check({{"a", &unknown}, {"b", &worn}}, {}).state, NagiosState::warning);
}

TEST(NagiosCheck, TextCannotBreakTheLine)
{
    const auto healthy = report_with(10);
    const auto a = nagios_check({{"odd|name\nx", &healthy}}, {});
    EXPECT_EQ(a.line.find('\n'), std::string::npos);
    EXPECT_EQ(a.line.find('|'), a.line.rfind('|')); // only the performance data's
    EXPECT_EQ(nagios_unknown("bad\nthing | here").line, "MMC_HEALTH UNKNOWN - bad thing / here");
    EXPECT_EQ(nagios_check({}, {}).state, NagiosState::unknown);
}
