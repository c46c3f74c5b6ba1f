// The A2 verdicts on presets built to pass and to fail A2 by a known margin
// (sim/presets/a2, a2-fail-a1): the model's own figures for each, judged as
// mmc-bench judges a card on the SDR104 bus whose host enables the card's
// cache and command queue. A2: 4000 random 4 KiB read IOPS, 2000 write
// IOPS, 10 MB/s sustained. The simulator has no command queue: the presets
// reach (or miss) these figures at QD1, as their notes say.
#include "bench/verdicts.h"
#include "preset_figures.h"

#include <gtest/gtest.h>

using namespace mmc;

namespace {

using test::preset;
const auto figures = test::suite_figures;

// UHS-I SDR104: 208 MHz, 4 bits, 104 MB/s.
const bench::BusCeiling sdr104{"SDR104", 104, 208'000'000, "sdhci-pci (PCI 1217:8620)"};

bench::Measured m(double v) { return {v, {}}; }

} // namespace

TEST(BenchPresetA2Verdicts, A2PassesA2ByItsMargin)
{
    const auto f = figures(preset("a2"));
    EXPECT_NEAR(f.read_iops / 4000, 1.37, 0.03);
    EXPECT_NEAR(f.write_iops / 2000, 1.16, 0.03);
    EXPECT_GT(f.seq_mb_s / 10, 5);
    EXPECT_EQ(bench::judge_iops("A2 random read", 4000, 4096, m(f.read_iops), sdr104).result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(bench::judge_iops("A2 random write", 2000, 4096, m(f.write_iops), sdr104).result, mmc::bench::VerdictResult::pass);
    const auto sustained = bench::judge_mb_s("A2 sustained sequential write", 10, m(f.seq_mb_s), sdr104);
    EXPECT_EQ(sustained.result, mmc::bench::VerdictResult::pass) << sustained.why; // 80 MB/s: below 85% of the 104 MB/s ceiling
}

TEST(BenchPresetA2Verdicts, A2FailFailsA2ByItsMarginAndPassesA1)
{
    const auto f = figures(preset("a2-fail-a1"));
    EXPECT_NEAR(f.read_iops / 4000, 0.75, 0.02);
    EXPECT_NEAR(f.write_iops / 2000, 0.49, 0.03);
    const auto read = bench::judge_iops("A2 random read", 4000, 4096, m(f.read_iops), sdr104);
    EXPECT_EQ(read.result, mmc::bench::VerdictResult::fail);
    EXPECT_NE(read.why.find("is not the limit"), std::string::npos) << read.why; // 12 MB/s on a 104 MB/s bus
    EXPECT_EQ(bench::judge_iops("A2 random write", 2000, 4096, m(f.write_iops), sdr104).result, mmc::bench::VerdictResult::fail);
    EXPECT_EQ(bench::judge_mb_s("A2 sustained sequential write", 10, m(f.seq_mb_s), sdr104).result, mmc::bench::VerdictResult::pass);
    // The same card meets every A1 figure: only the A2 verdicts fail it.
    EXPECT_EQ(bench::judge_iops("A1 random read", 1500, 4096, m(f.read_iops), sdr104).result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(bench::judge_iops("A1 random write", 500, 4096, m(f.write_iops), sdr104).result, mmc::bench::VerdictResult::pass);
}

TEST(BenchPresetA2Verdicts, TheHostMustEnableCacheAndQueueForA2)
{
    // The A2 card on a mainline host (cache on, no command queue to SD
    // cards): A2 cannot be judged there, whatever the figures.
    bench::HostQueueing mainline{true, "write back", false, "no Command Queue Engine line"};
    const auto blocker = bench::a2_blocker(mainline);
    ASSERT_TRUE(blocker);
    EXPECT_NE(blocker->find("command queue"), std::string::npos) << *blocker;
    bench::HostQueueing both{true, "write back", true, "mmc0: Command Queue Engine enabled"};
    EXPECT_FALSE(bench::a2_blocker(both));
}

TEST(BenchPresetA2Verdicts, ABusBelowTheRequirementIsNotTheCardsFault)
{
    // The A2 card on the 25 MB/s high-speed bus: 4000 IOPS of 4 KiB is
    // 16.4 MB/s, within the ceiling; the figure is judged. A card whose
    // sequential figure reaches 85% of that ceiling is bus-limited, not failed.
    const bench::BusCeiling hs{"HS", 25, 50'000'000, "sdhci-pci (PCI 1217:8620)"};
    const auto f = figures(preset("a2"));
    EXPECT_EQ(bench::judge_iops("A2 random read", 4000, 4096, m(f.read_iops), hs).result, mmc::bench::VerdictResult::pass);
    const auto seq = bench::judge_mb_s("A2 sustained sequential write", 30, m(22), hs);
    EXPECT_EQ(seq.result, mmc::bench::VerdictResult::not_applicable);
    EXPECT_EQ(seq.why.rfind("bus-limited", 0), 0u) << seq.why;
}
