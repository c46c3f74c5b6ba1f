// The fragment precondition's writes: every AU of the region written the
// same number of times, never at its first block, with every other AU
// written between two writes to one AU (what defeats the open AUs).
#include "bench/precondition.h"

#include <gtest/gtest.h>
#include <map>

using namespace mmc::bench;

namespace {
constexpr uint64_t MiB = 1 << 20;
}

TEST(BenchFragment, EveryAuWrittenPassesTimesNeverAtItsStart)
{
    const Region region{8 * MiB, 64 * MiB};
    const auto plan = fragment_plan(region, 4 * MiB, 4096, 3, 7);
    EXPECT_EQ(plan.aus, 16u);
    ASSERT_EQ(plan.offsets.size(), 48u);
    std::map<uint64_t, int> per_au;
    for (uint64_t off : plan.offsets) {
        EXPECT_GE(off, region.offset);
        EXPECT_LT(off + 4096, region.offset + region.length + 1);
        EXPECT_EQ(off % 4096, 0u);
        EXPECT_NE(off % (4 * MiB), 0u) << "a write at an AU's first block extends an in-order log";
        ++per_au[off / (4 * MiB)];
    }
    EXPECT_EQ(per_au.size(), 16u);
    for (const auto& [au, n] : per_au) EXPECT_EQ(n, 3) << "AU " << au;
}

TEST(BenchFragment, EveryOtherAuIsWrittenBetweenTwoWritesToOne)
{
    const auto plan = fragment_plan({0, 40 * MiB}, 4 * MiB, 4096, 2, 1);
    ASSERT_EQ(plan.offsets.size(), 20u);
    std::map<uint64_t, std::size_t> last;
    for (std::size_t i = 0; i < plan.offsets.size(); ++i) {
        const uint64_t au = plan.offsets[i] / (4 * MiB);
        if (auto it = last.find(au); it != last.end()) {
            EXPECT_EQ(i - it->second, plan.aus) << "AU " << au;
        }
        last[au] = i;
    }
}

TEST(BenchFragment, SameSeedSameWritesOtherSeedOtherOrder)
{
    const Region region{0, 128 * MiB};
    EXPECT_EQ(fragment_plan(region, 4 * MiB, 4096, 2, 5).offsets, fragment_plan(region, 4 * MiB, 4096, 2, 5).offsets);
    EXPECT_NE(fragment_plan(region, 4 * MiB, 4096, 2, 5).offsets, fragment_plan(region, 4 * MiB, 4096, 2, 6).offsets);
}

TEST(BenchFragment, OnlyWholeAusOfTheRegionAndTlcSizedAus)
{
    // 12 MiB AUs (TLC): a region from 6 MiB to 54 MiB holds whole AUs 1..3 only.
    const auto plan = fragment_plan({6 * MiB, 48 * MiB}, 12 * MiB, 4096, 2, 3);
    EXPECT_EQ(plan.aus, 3u);
    for (uint64_t off : plan.offsets) {
        EXPECT_GE(off, 12 * MiB);
        EXPECT_LT(off, 48 * MiB);
    }
    EXPECT_TRUE(fragment_plan({0, 8 * MiB}, 12 * MiB, 4096, 2, 3).offsets.empty());
    EXPECT_THROW(fragment_plan({0, 8 * MiB}, 6000, 4096, 2, 3), std::invalid_argument);
}

TEST(BenchFragment, ParsesAndNamesTheMethod)
{
    EXPECT_EQ(parse_precondition("fragment"), PreconditionMethod::fragment);
    EXPECT_EQ(to_string(PreconditionMethod::fragment), "fragment");
    EXPECT_FALSE(parse_precondition("fragmented"));
}
