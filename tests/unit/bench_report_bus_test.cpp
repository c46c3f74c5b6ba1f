// The report's bus lines: the header shows the clock the data moves at (ios
// "actual clock", as mmc-bus does), and a figure above the bus ceiling is
// never "the bus is the limit" (the lab card's 15.68 MB/s on HS at 26 MHz).
#include "bench/report.h"

#include <gtest/gtest.h>

using namespace mmc::bench;

namespace {

RunReport lab_run(double best_mb_s)
{
    RunReport r;
    r.suite = Suite::quick;
    BusInfo b;
    b.host = "mmc0";
    b.controller = "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)";
    b.mode = "HS";
    b.clock_hz = 50'000'000;
    b.actual_clock_hz = 26'000'000;
    b.bus_width_bits = 4;
    b.ceiling_mb_s = 13;
    r.context.bus = b;
    JobResult j;
    j.job.name = "seqread-4M";
    j.job.block_size = 4 << 20;
    j.runner = "psync";
    j.ios = 10;
    j.mb_s = best_mb_s;
    r.jobs.push_back(j);
    return r;
}

} // namespace

TEST(BenchReportBus, HeaderShowsTheActualClockWithTheAskedBeside)
{
    const auto text = report_text(lab_run(10), false);
    EXPECT_NE(text.find("Bus:          mmc0 HS, 4-bit at 26 MHz (50 MHz asked); ceiling 13 MB/s"), std::string::npos) << text;
}

TEST(BenchReportBus, AboveTheCeilingSaysWhyNeverTheBusLimit)
{
    const auto text = report_text(lab_run(15.68), false);
    EXPECT_EQ(text.find("the bus is the limit"), std::string::npos) << text;
    EXPECT_NE(text.find("Best throughput 15.68 MB/s is 121% of the HS bus ceiling (13 MB/s at 26 MHz)"), std::string::npos) << text;
    EXPECT_NE(text.find("emulated"), std::string::npos) << text;
    // Near the ceiling but under it, the bus is the limit.
    EXPECT_NE(report_text(lab_run(12), false).find("the bus is the limit"), std::string::npos);
}

TEST(BenchReportBus, NoActualClockSaysTheAskedOneIsShown)
{
    auto r = lab_run(5);
    r.context.bus->actual_clock_hz.reset();
    const auto text = report_text(r, false);
    EXPECT_NE(text.find("at 50 MHz (asked; no actual clock reported)"), std::string::npos) << text;
}
