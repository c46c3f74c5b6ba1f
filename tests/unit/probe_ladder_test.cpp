// The ladder analysis on synthetic ladders: a flat floor, a step at the
// page and one at the AU, with and without noise; 3*2^n AUs read the way
// the sampler reads them (odd multiples of each candidate).
#include "probe/ladder.h"

#include <gtest/gtest.h>
#include <random>

using namespace mmc::probe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

bool crosses(uint64_t align, uint64_t unit) { return align % unit == 0; }

// A ladder as the sampler sees it: pow2 and 3*2^n rows from 1 KiB to `top`;
// reads at odd multiples of a row's align cross the page when the align is
// a multiple of it and the AU boundary when the align is one of the AU's.
Ladder synthetic(uint64_t page, uint64_t au, uint64_t top, double noise_ns, unsigned seed = 1)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> jitter(-noise_ns, noise_ns);
    Ladder l;
    l.read_bytes = 1024;
    for (uint64_t a = 1024; a <= top; a *= 2)
        for (uint64_t row : {a, 3 * a / 2}) {
            if (row > top || row < 1024 || (row != a && row < 3 * KiB)) continue;
            const double base = 800e3;
            double on = base;
            if (crosses(row, page)) on += 150e3;
            if (crosses(row, au)) on += 300e3;
            l.rows.push_back({row, base + jitter(rng), on + jitter(rng), base + jitter(rng), 8});
        }
    return l;
}

} // namespace

TEST(ProbeLadder, AuShapes)
{
    EXPECT_TRUE(is_au_shaped(4 * MiB));
    EXPECT_TRUE(is_au_shaped(12 * MiB));
    EXPECT_TRUE(is_au_shaped(3 * MiB / 2));
    EXPECT_FALSE(is_au_shaped(5 * MiB));
    EXPECT_FALSE(is_au_shaped(0));
}

TEST(ProbeLadder, CleanStepsArePageAndAu)
{
    for (uint64_t page : {4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB})
        for (uint64_t au : {1 * MiB, 4 * MiB, 8 * MiB, 12 * MiB, 16 * MiB, 24 * MiB}) {
            SCOPED_TRACE(testing::Message() << "page " << page << " au " << au);
            const auto g = analyze(synthetic(page, au, 128 * MiB, 0));
            ASSERT_TRUE(g.page_bytes);
            EXPECT_EQ(*g.page_bytes, page);
            ASSERT_TRUE(g.au_bytes);
            EXPECT_EQ(*g.au_bytes, au);
            EXPECT_FALSE(g.multi_plane_bytes);
            EXPECT_EQ(g.confidence, Confidence::high);
        }
}

TEST(ProbeLadder, NoisyStepsStillFound)
{
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const auto g = analyze(synthetic(16 * KiB, 12 * MiB, 256 * MiB, 25e3, seed));
        ASSERT_TRUE(g.page_bytes) << "seed " << seed;
        EXPECT_EQ(*g.page_bytes, 16 * KiB) << "seed " << seed;
        ASSERT_TRUE(g.au_bytes) << "seed " << seed;
        EXPECT_EQ(*g.au_bytes, 12 * MiB) << "seed " << seed;
    }
}

TEST(ProbeLadder, FlatLadderHasNoBoundary)
{
    Ladder l;
    for (uint64_t a = 2048; a <= 64 * MiB; a *= 2) l.rows.push_back({a, 50e3, 50.3e3, 50e3, 8});
    const auto g = analyze(l);
    EXPECT_FALSE(g.page_bytes);
    EXPECT_FALSE(g.au_bytes);
    EXPECT_EQ(g.confidence, Confidence::none);
}

TEST(ProbeLadder, AuBeyondTheLadderIsNotClaimed)
{
    // A 16 MiB AU on a ladder that stops at 8 MiB: the page only.
    const auto g = analyze(synthetic(16 * KiB, 16 * MiB, 8 * MiB, 0));
    ASSERT_TRUE(g.page_bytes);
    EXPECT_FALSE(g.au_bytes);
    EXPECT_EQ(g.confidence, Confidence::low);
}

TEST(ProbeLadder, TooFewRows)
{
    Ladder l;
    l.rows.push_back({4096, 1, 2, 1, 1});
    EXPECT_EQ(analyze(l).confidence, Confidence::none);
}
