// The sampler on the flash model itself (virtual time, no device): the
// ladder it measures on cards of known geometry reads back that geometry,
// and no read ever goes past the device's end.
#include "probe/sampler.h"
#include "probe_sim_device.h"
#include "sim/card.h"
#include "sim/params.h"

#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace mmc::probe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

using SimReads = mmc::test::SimProbeDevice;

mmc::sim::Params card(uint64_t size, uint32_t page, uint64_t au)
{
    auto p = mmc::sim::default_params();
    p.size_bytes = size;
    p.page_bytes = page;
    p.au_bytes = au;
    return p;
}

} // namespace

TEST(ProbeSampler, AlignsArePow2AndThreeTimesPow2)
{
    const auto a = ladder_aligns(1024, 16 * KiB);
    const std::vector<uint64_t> want{1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384};
    EXPECT_EQ(a, want);
}

TEST(ProbeSampler, PositionsAreOddMultiplesInsideTheDevice)
{
    const auto p = row_positions(4 * MiB, 64 * MiB, 1024, 8);
    ASSERT_EQ(p.size(), 8u);
    for (uint64_t x : p) {
        EXPECT_EQ(x % (4 * MiB), 0u);
        EXPECT_EQ((x / (4 * MiB)) % 2, 1u);
        EXPECT_LE(x + 1024, 64 * MiB);
    }
    EXPECT_EQ(p.front(), 4 * MiB);
    EXPECT_EQ(p.back(), 60 * MiB); // spread to the last odd multiple
    // Half the device: the single odd multiple; the whole device: none fits.
    EXPECT_EQ(row_positions(32 * MiB, 64 * MiB, 1024, 8), std::vector<uint64_t>{32 * MiB});
    EXPECT_TRUE(row_positions(64 * MiB, 64 * MiB, 1024, 8).empty());
}

TEST(ProbeSampler, FindsTheModelsGeometryAndStaysInsideTheDevice)
{
    struct Case { uint64_t size; uint32_t page; uint64_t au; };
    for (const Case c : {Case{64 * MiB, 4 * KiB, 1 * MiB}, Case{256 * MiB, 16 * KiB, 4 * MiB},
                         Case{256 * MiB, 32 * KiB, 12 * MiB}, Case{256 * MiB, 8 * KiB, 16 * MiB},
                         Case{100 * MiB, 16 * KiB, 3 * MiB / 2}}) {
        SCOPED_TRACE(testing::Message() << "page " << c.page << " au " << c.au);
        SimReads dev(card(c.size, c.page, c.au), 20e3);
        SampleOptions o;
        const auto ladder = sample_ladder(dev, o);
        EXPECT_LE(dev.highest, c.size);
        const auto g = analyze(ladder);
        ASSERT_TRUE(g.page_bytes);
        EXPECT_EQ(*g.page_bytes, c.page);
        ASSERT_TRUE(g.au_bytes);
        EXPECT_EQ(*g.au_bytes, c.au);
        EXPECT_EQ(g.confidence, Confidence::high);
    }
}

TEST(ProbeSampler, StopsWhenAsked)
{
    SimReads dev(card(64 * MiB, 16 * KiB, 4 * MiB));
    std::atomic<bool> stop{true};
    SampleOptions o;
    o.stop = &stop;
    const auto ladder = sample_ladder(dev, o);
    EXPECT_TRUE(ladder.rows.empty());
    EXPECT_EQ(dev.reads, 0u);
}
