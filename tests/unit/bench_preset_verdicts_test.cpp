// The verdicts on presets built to pass and to fail A1 and the speed class
// by a known margin (sim/presets/a1-pass-c10, a1-fail-c10, c10-fail): the
// model's own figures for each, judged as mmc-bench judges a card on the
// high-speed bus. The seeds' question: two cards of equal sequential speed
// that only the A1 verdict tells apart.
#include "bench/verdicts.h"
#include "preset_figures.h"

#include <gtest/gtest.h>

using namespace mmc;

namespace {

using test::preset;
const auto figures = test::suite_figures;

const bench::BusCeiling hs{"HS", 25, 50'000'000, "sdhci-pci (PCI 1217:8620)"};

bench::Measured m(double v) { return {v, {}}; }

} // namespace

TEST(BenchPresetVerdicts, A1PassPassesA1AndC10ByItsMargin)
{
    const auto f = figures(preset("a1-pass-c10"));
    EXPECT_NEAR(f.read_iops / 1500, 2.0, 0.03);
    EXPECT_NEAR(f.write_iops / 500, 1.49, 0.05);
    EXPECT_NEAR(f.seq_mb_s / 10, 1.5, 0.05);
    EXPECT_EQ(bench::judge_iops("A1 random read", 1500, 4096, m(f.read_iops), hs).result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(bench::judge_iops("A1 random write", 500, 4096, m(f.write_iops), hs).result, mmc::bench::VerdictResult::pass);
    EXPECT_EQ(bench::judge_mb_s("speed class C10", 10, m(f.seq_mb_s), hs).result, mmc::bench::VerdictResult::pass);
}

TEST(BenchPresetVerdicts, A1FailFailsA1ByItsMarginAndPassesC10)
{
    const auto f = figures(preset("a1-fail-c10"));
    EXPECT_NEAR(f.read_iops / 1500, 0.80, 0.02);
    EXPECT_LT(f.write_iops / 500, 0.3);
    auto v = bench::judge_iops("A1 random read", 1500, 4096, m(f.read_iops), hs);
    EXPECT_EQ(v.result, mmc::bench::VerdictResult::fail);
    EXPECT_NE(v.why.find("is not the limit"), std::string::npos) << v.why; // 4.9 MB/s on a 25 MB/s bus
    EXPECT_EQ(bench::judge_iops("A1 random write", 500, 4096, m(f.write_iops), hs).result, mmc::bench::VerdictResult::fail);
    EXPECT_EQ(bench::judge_mb_s("speed class C10", 10, m(f.seq_mb_s), hs).result, mmc::bench::VerdictResult::pass);
}

TEST(BenchPresetVerdicts, EqualSequentialSpeedToldApartOnlyByA1)
{
    const auto a = figures(preset("a1-pass-c10")), b = figures(preset("a1-fail-c10"));
    EXPECT_NEAR(a.seq_mb_s / b.seq_mb_s, 1.0, 0.01) << a.seq_mb_s << " vs " << b.seq_mb_s;
    EXPECT_NE(bench::judge_iops("A1", 1500, 4096, m(a.read_iops), hs).result,
              bench::judge_iops("A1", 1500, 4096, m(b.read_iops), hs).result);
}

TEST(BenchPresetVerdicts, C10FailFailsC10ByTwentyPercentAndPassesC6)
{
    const auto f = figures(preset("c10-fail"));
    EXPECT_NEAR(f.seq_mb_s / 10, 0.80, 0.02);
    EXPECT_EQ(bench::judge_mb_s("speed class C10", 10, m(f.seq_mb_s), hs).result, mmc::bench::VerdictResult::fail);
    EXPECT_EQ(bench::judge_mb_s("speed class C6", 6, m(f.seq_mb_s), hs).result, mmc::bench::VerdictResult::pass);
}
