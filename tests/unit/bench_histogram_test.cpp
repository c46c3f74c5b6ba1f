#include "bench/histogram.h"
#include "bench/stats.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace mmc::bench;

TEST(BenchHistogram, ExactBelow256)
{
    for (uint64_t v = 0; v < 256; ++v) {
        Histogram h;
        h.record(v);
        EXPECT_EQ(h.percentile(50), static_cast<double>(v));
    }
}

TEST(BenchHistogram, RelativeErrorWithinOnePercentAcrossTheRange)
{
    // Every octave from 1 ns to 2^50 ns (13 days), at its edges and inside.
    double worst = 0;
    std::mt19937_64 rng(7);
    for (int e = 0; e < 50; ++e) {
        const uint64_t lo = uint64_t{1} << e;
        std::vector<uint64_t> values{lo, lo + 1, 2 * lo - 1, lo + lo / 3};
        for (int i = 0; i < 200; ++i) values.push_back(lo + rng() % lo);
        for (uint64_t v : values) {
            // Report the bucket's value, not the exact min/max: two far values.
            Histogram h;
            h.record(1);
            h.record(v);
            h.record(uint64_t{1} << 62);
            const double got = h.percentile(50);
            const double err = std::fabs(got - static_cast<double>(v)) / static_cast<double>(v);
            worst = std::max(worst, err);
            ASSERT_LE(err, 0.01) << "value " << v;
        }
    }
    EXPECT_LE(worst, Histogram::max_relative_error + 1e-12);
    EXPECT_LT(Histogram::max_relative_error, 0.01);
}

TEST(BenchHistogram, IndexIsMonotonicAndBucketsCoverTheirValues)
{
    std::size_t last = 0;
    for (uint64_t v = 1; v < (1u << 20); v += 7) {
        const auto i = Histogram::index(v);
        ASSERT_GE(i, last);
        last = i;
    }
    EXPECT_LT(Histogram::index(UINT64_MAX), Histogram::bucket_count);
}

TEST(BenchHistogram, PercentilesOfAUniformSpread)
{
    Histogram h;
    for (uint64_t v = 1; v <= 100000; ++v) h.record(v * 1000); // 1 us .. 100 ms
    EXPECT_EQ(h.count(), 100000u);
    EXPECT_EQ(h.min(), 1000u);
    EXPECT_EQ(h.max(), 100000000u);
    for (double p : {50.0, 90.0, 99.0, 99.9}) {
        const double want = p / 100 * 100000 * 1000;
        EXPECT_NEAR(h.percentile(p), want, want * 0.01) << "p" << p;
    }
    EXPECT_EQ(h.percentile(100), 100000000.0);
    EXPECT_NEAR(h.mean(), 50000.5 * 1000, 1);
}

TEST(BenchHistogram, NearestRankOnSmallCounts)
{
    Histogram h;
    for (uint64_t v : {100, 200, 300, 400}) h.record(v);
    EXPECT_EQ(h.percentile(50), 200); // rank ceil(0.5 * 4) = 2; below 256 exact
    EXPECT_NEAR(h.percentile(75), 300, 300 * Histogram::max_relative_error);
    EXPECT_EQ(h.percentile(76), 400); // the last rank: the exact max
    EXPECT_EQ(h.percentile(99.9), 400);
    EXPECT_EQ(h.percentile(1), 100);  // the first rank: the exact min
}

TEST(BenchHistogram, TailPercentilesSeeRareSlowIos)
{
    Histogram h;
    for (int i = 0; i < 9990; ++i) h.record(50'000);       // 50 us
    for (int i = 0; i < 10; ++i) h.record(300'000'000);    // 300 ms stalls
    EXPECT_NEAR(h.percentile(99), 50'000, 500);
    EXPECT_NEAR(h.percentile(99.9), 50'000, 500);          // rank 9990 is still fast
    EXPECT_NEAR(h.percentile(99.95), 300'000'000, 3'000'000);
    EXPECT_EQ(h.max(), 300'000'000u);
}

TEST(BenchHistogram, MergeAndClear)
{
    Histogram a, b;
    a.record(10);
    b.record(1'000'000);
    a.merge(b);
    EXPECT_EQ(a.count(), 2u);
    EXPECT_EQ(a.min(), 10u);
    EXPECT_EQ(a.max(), 1'000'000u);
    a.clear();
    EXPECT_EQ(a.count(), 0u);
    EXPECT_EQ(a.percentile(50), 0);
    EXPECT_EQ(a.min(), 0u);
}

TEST(BenchStats, StudentT)
{
    EXPECT_DOUBLE_EQ(t95(1), 12.706);
    EXPECT_DOUBLE_EQ(t95(4), 2.776);
    EXPECT_DOUBLE_EQ(t95(30), 2.042);
    EXPECT_NEAR(t95(60), 2.000, 0.002);
    EXPECT_NEAR(t95(120), 1.980, 0.002);
    EXPECT_NEAR(t95(100000), 1.960, 0.001);
}

TEST(BenchStats, ConfidenceIntervalOfTheMean)
{
    const std::vector<double> v{10, 12, 11, 13, 9};
    const auto ci = ci95(v);
    ASSERT_TRUE(ci);
    EXPECT_DOUBLE_EQ(ci->mean, 11);
    EXPECT_NEAR(ci->stddev, std::sqrt(2.5), 1e-12);
    EXPECT_NEAR(ci->half_width, 2.776 * std::sqrt(2.5) / std::sqrt(5.0), 1e-12);
    EXPECT_NEAR(ci->pct, ci->half_width / 11 * 100, 1e-12);
    EXPECT_EQ(ci->n, 5);
}

TEST(BenchStats, IdenticalRoundsHaveAZeroInterval)
{
    const std::vector<double> v(8, 20.0);
    EXPECT_EQ(ci95(v)->pct, 0);
    EXPECT_EQ(*cv_pct(v), 0);
}

TEST(BenchStats, TooFewValues)
{
    EXPECT_FALSE(ci95(std::vector<double>{}));
    EXPECT_FALSE(ci95(std::vector<double>{5}));
    EXPECT_FALSE(ci95(std::vector<double>{0, 0}));
    EXPECT_FALSE(cv_pct(std::vector<double>{1}));
}

TEST(BenchStats, CoefficientOfVariation)
{
    const std::vector<double> v{90, 110};
    EXPECT_NEAR(*cv_pct(v), std::sqrt(200.0) / 100 * 100, 1e-9);
}
