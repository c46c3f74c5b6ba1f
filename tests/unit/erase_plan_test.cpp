// The erase plan: alignment to the erase unit (on the disk, so partitions
// that start off a unit boundary align correctly), the head and tail, chunk
// bounds, and the ranges that cannot be planned.
#include "erase/plan.h"

#include <gtest/gtest.h>

using namespace mmc::erase;

namespace {
constexpr uint64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

PlanInput input(uint64_t size, Range r, uint64_t unit, uint64_t max_chunk = 0)
{
    PlanInput in;
    in.device_bytes = size;
    in.range = r;
    in.erase_unit = unit;
    in.max_chunk = max_chunk;
    return in;
}
} // namespace

TEST(ErasePlan, WholeDeviceAlignedInBoundedChunks)
{
    const auto p = make_plan(input(64 * MiB, {}, 4 * MiB, 16 * MiB));
    EXPECT_EQ(p.range, (Extent{0, 64 * MiB}));
    EXPECT_EQ(p.aligned, (Extent{0, 64 * MiB}));
    EXPECT_EQ(p.head.action, EdgeAction::none);
    EXPECT_EQ(p.tail.action, EdgeAction::none);
    ASSERT_EQ(p.chunks.size(), 4u);
    for (std::size_t i = 0; i < p.chunks.size(); ++i) EXPECT_EQ(p.chunks[i], (Extent{i * 16 * MiB, 16 * MiB}));
    EXPECT_EQ(p.chunk_bytes, 16 * MiB);
}

TEST(ErasePlan, UnalignedRangeHasHeadAndTailLeftAlone)
{
    // 1 MiB + 100 bytes to 9 MiB + 7 bytes, 4 MiB units: whole units 4-8 MiB.
    const auto p = make_plan(input(64 * MiB, {MiB + 100, 8 * MiB - 93}, 4 * MiB));
    EXPECT_EQ(p.aligned, (Extent{4 * MiB, 4 * MiB}));
    EXPECT_EQ(p.head.extent, (Extent{MiB + 100, 3 * MiB - 100}));
    EXPECT_EQ(p.head.action, EdgeAction::left_alone);
    EXPECT_EQ(p.tail.extent, (Extent{8 * MiB, MiB + 7}));
    EXPECT_EQ(p.tail.action, EdgeAction::left_alone);
    ASSERT_EQ(p.chunks.size(), 1u);
    EXPECT_EQ(p.chunks[0], (Extent{4 * MiB, 4 * MiB}));
    // head + aligned + tail is the range, in order.
    EXPECT_EQ(p.head.extent.end(), p.aligned.offset);
    EXPECT_EQ(p.aligned.end(), p.tail.extent.offset);
    EXPECT_EQ(p.tail.extent.end(), p.range.end());
}

TEST(ErasePlan, ZeroUnalignedMarksEdgesZeroed)
{
    auto in = input(64 * MiB, {1000, 10 * MiB}, 4 * MiB);
    in.zero_unaligned = true;
    const auto p = make_plan(in);
    EXPECT_EQ(p.head.action, EdgeAction::zeroed);
    EXPECT_EQ(p.tail.action, EdgeAction::zeroed);
    EXPECT_EQ(p.aligned, (Extent{4 * MiB, 4 * MiB}));
}

TEST(ErasePlan, RangeInsideOneUnitIsAllHead)
{
    const auto p = make_plan(input(64 * MiB, {5 * MiB, MiB}, 4 * MiB));
    EXPECT_TRUE(p.aligned.empty());
    EXPECT_TRUE(p.chunks.empty());
    EXPECT_EQ(p.head.extent, (Extent{5 * MiB, MiB}));
    EXPECT_EQ(p.head.action, EdgeAction::left_alone);
    EXPECT_EQ(p.tail.action, EdgeAction::none);
}

TEST(ErasePlan, PartitionAlignsOnTheDisk)
{
    // A partition starting at 1 MiB + 512 on the disk: its offset 0 is not
    // on a unit boundary; the first whole 4 MiB unit of the disk inside it
    // starts at partition offset 3 MiB - 512.
    auto in = input(32 * MiB, {}, 4 * MiB);
    in.device_start = MiB + 512;
    const auto p = make_plan(in);
    EXPECT_EQ(p.aligned.offset, 3 * MiB - 512);
    EXPECT_EQ((p.aligned.offset + in.device_start) % (4 * MiB), 0u);
    EXPECT_EQ((p.aligned.end() + in.device_start) % (4 * MiB), 0u);
    EXPECT_EQ(p.aligned.length, 28 * MiB);
    EXPECT_EQ(p.head.extent, (Extent{0, 3 * MiB - 512}));
    EXPECT_EQ(p.tail.extent.end(), 32 * MiB);
}

TEST(ErasePlan, ChunkBoundRoundsDownToUnitsAndNeverBelowOne)
{
    EXPECT_EQ(chunk_size(4 * MiB, 10 * MiB), 8 * MiB);
    EXPECT_EQ(chunk_size(4 * MiB, 1 * MiB), 4 * MiB);
    EXPECT_EQ(chunk_size(4 * MiB, 0), 0u);
    const auto p = make_plan(input(20 * MiB, {}, 4 * MiB, 10 * MiB));
    ASSERT_EQ(p.chunks.size(), 3u);
    EXPECT_EQ(p.chunks[0], (Extent{0, 8 * MiB}));
    EXPECT_EQ(p.chunks[1], (Extent{8 * MiB, 8 * MiB}));
    EXPECT_EQ(p.chunks[2], (Extent{16 * MiB, 4 * MiB})); // the last one is short
}

TEST(ErasePlan, UnboundedIsOneChunk)
{
    const auto p = make_plan(input(4 * GiB, {}, 4 * MiB));
    ASSERT_EQ(p.chunks.size(), 1u);
    EXPECT_EQ(p.chunks[0], (Extent{0, 4 * GiB}));
}

TEST(ErasePlan, BadRangesAreRefusedWithReasons)
{
    EXPECT_THROW(make_plan(input(64 * MiB, {0, 0}, 512)), PlanError);
    try {
        make_plan(input(64 * MiB, {64 * MiB, std::nullopt}, 512));
        FAIL() << "offset at the end accepted";
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find("beyond the end"), std::string::npos) << e.what();
    }
    try {
        make_plan(input(64 * MiB, {60 * MiB, 8 * MiB}, 512));
        FAIL() << "range past the end accepted";
    } catch (const PlanError& e) {
        EXPECT_NE(std::string(e.what()).find("runs past the end"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW(make_plan(input(64 * MiB, {60 * MiB, 4 * MiB}, 512)));
}

TEST(ErasePlan, MethodNamesRoundTrip)
{
    for (const Method m : all_methods()) EXPECT_EQ(method_from_string(to_string(m)), m);
    EXPECT_EQ(method_from_string("auto"), Method::automatic);
    EXPECT_EQ(to_string(Method::emmc_discard), "emmc-discard");
    EXPECT_EQ(to_string(Method::sd_discard), "sd-discard");
    EXPECT_FALSE(method_from_string("wipe"));
    EXPECT_TRUE(is_block_layer(Method::zeroout));
    EXPECT_TRUE(is_raw(Method::sanitize));
    EXPECT_FALSE(is_raw(Method::automatic));
}

TEST(ErasePlan, PartialAusAtTheEdgesAndTheirCost)
{
    constexpr uint64_t MiB = 1 << 20;
    // Misaligned by half an AU: a partial AU at each end, 4 MiB of the request left unclean.
    auto p = make_plan({64 * MiB, 0, {2 * MiB, 16 * MiB}, 4 * MiB, 512, 0, false});
    auto c = partial_aus(p);
    EXPECT_EQ(c.count, 2u);
    EXPECT_EQ(c.bytes, 4 * MiB);
    EXPECT_EQ(p.aligned.length, 12 * MiB);
    // Aligned: nothing left.
    c = partial_aus(make_plan({64 * MiB, 0, {4 * MiB, 16 * MiB}, 4 * MiB, 512, 0, false}));
    EXPECT_EQ(c.count, 0u);
    EXPECT_EQ(c.bytes, 0u);
    // Inside one AU: one partial AU; straddling two without a whole one: two.
    EXPECT_EQ(partial_aus(make_plan({64 * MiB, 0, {1 * MiB, 2 * MiB}, 4 * MiB, 512, 0, false})).count, 1u);
    c = partial_aus(make_plan({64 * MiB, 0, {3 * MiB, 2 * MiB}, 4 * MiB, 512, 0, false}));
    EXPECT_EQ(c.count, 2u);
    EXPECT_EQ(c.bytes, 2 * MiB);
    // On a partition starting 1 MiB into the disk, AUs are the disk's.
    c = partial_aus(make_plan({64 * MiB, 1 * MiB, {3 * MiB, 8 * MiB}, 4 * MiB, 512, 0, false}), 1 * MiB);
    EXPECT_EQ(c.count, 0u);
}

TEST(ErasePlan, OnlyMethodsThatEraseRestoreCleanAus)
{
    EXPECT_TRUE(restores_clean(Method::discard));
    EXPECT_TRUE(restores_clean(Method::erase));
    EXPECT_TRUE(restores_clean(Method::trim));
    EXPECT_FALSE(restores_clean(Method::zeroout));
    EXPECT_FALSE(restores_clean(Method::fule));
}
