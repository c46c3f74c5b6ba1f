// A card that wears (sim/wear.h), exactly on the virtual clock: erase counts
// per block, read retries from wear, age and weak regions, read errors past
// the ECC, spares that run out and the three ends of life.
#include "sim/card.h"
#include "sim/params.h"
#include "sim/timing.h"
#include "sim/wear.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc::sim;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
constexpr uint64_t au = 4 * MiB, page = 16 * KiB;

Params worn_card(uint64_t endurance, uint64_t spares = 0, EndOfLife end = EndOfLife::read_only)
{
    Params p = default_params();
    p.size_bytes = 64 * MiB;
    p.page_bytes = page;
    p.au_bytes = au;
    p.open_aus = 1;
    p.fat_area_bytes = 0;
    p.wear.endurance = endurance;
    p.wear.spare_blocks = spares;
    p.wear.end_of_life = end;
    return p;
}

// One whole AU written in one request, every byte `fill`. On a clean card
// the first pass takes the erased block for free; every later pass erases
// the AU's block once as it opens it (ftl.h).
void write_au(Card& c, uint64_t index, uint8_t fill)
{
    const std::vector<uint8_t> data(au, fill);
    c.write(index * au, data, c.idle_at());
}

uint64_t read_ns(Card& c, uint64_t offset, uint64_t length = page)
{
    std::vector<uint8_t> out(length);
    const uint64_t start = c.idle_at();
    return c.read(offset, out, start) - start;
}

uint8_t byte_at(Card& c, uint64_t offset)
{
    std::vector<uint8_t> out(512);
    c.read(offset, out, c.idle_at());
    return out[0];
}

} // namespace

TEST(SimWear, EachEraseCountsAgainstItsBlock)
{
    Card c(worn_card(100));
    for (int pass = 0; pass < 4; ++pass) write_au(c, 2, 0x11);
    write_au(c, 5, 0x22);
    const auto& counts = c.counters().wear.erase_counts;
    ASSERT_EQ(counts.size(), 16u);
    EXPECT_EQ(counts[2], 3u); // the first pass took the erased block
    EXPECT_EQ(counts[5], 0u);
    EXPECT_EQ(c.counters().erases, 3u);
    const auto j = c.counters_json()["wear"];
    EXPECT_EQ(j["max_erases"], 3);
    EXPECT_EQ(j["erase_counts"][1], (nlohmann::json{{"block", 2}, {"blocks", 1}, {"erases", 3}}));
}

TEST(SimWear, EachRetryStepCostsAnotherPageRead)
{
    Card c(worn_card(4));
    for (int pass = 0; pass < 3; ++pass) write_au(c, 2, 0x11); // 2 erases: half the rated life
    write_au(c, 3, 0x22);
    const uint64_t fresh = read_ns(c, 3 * au);
    EXPECT_EQ(c.counters().wear.read_retries, 0u);
    // 4 * 2 / 4 = 2 steps: two more array reads.
    EXPECT_EQ(read_ns(c, 2 * au), fresh + 2 * c.params().timing.page_read_ns);
    EXPECT_EQ(c.counters().wear.read_retries, 2u);
    // Two pages: each pays its own steps.
    EXPECT_EQ(read_ns(c, 2 * au, 2 * page), read_service_ns(c.params(), 2 * au, 2 * page) + 4 * c.params().timing.page_read_ns);
    EXPECT_EQ(c.predict_read(2 * au, page), fresh + 2 * c.params().timing.page_read_ns);
}

TEST(SimWear, AgeAddsStepsFasterOnWornBlocks)
{
    Params p = worn_card(4);
    p.wear.age_ns = year_ns - 1;
    Card c(p);
    for (int pass = 0; pass < 3; ++pass) write_au(c, 2, 0x11); // 2 erases of 4
    write_au(c, 3, 0x22);
    const uint64_t plain = read_service_ns(c.params(), 0, page), step = c.params().timing.page_read_ns;
    // The card is a year old once a nanosecond of virtual time has passed:
    // a fresh block then needs one step, a half-worn one 2 + 2.5 rounded down.
    EXPECT_EQ(read_ns(c, 3 * au), plain + 1 * step);
    EXPECT_EQ(read_ns(c, 2 * au), plain + 4 * step);

    Params young = worn_card(4);
    young.wear.age_ns = 0;
    Card y(young);
    EXPECT_EQ(read_ns(y, 3 * au), plain); // brand new
    std::vector<uint8_t> out(page);
    const uint64_t done = y.read(3 * au, out, year_ns); // a year on the virtual clock
    EXPECT_EQ(done, year_ns + plain + step);
}

TEST(SimWear, WeakRegionNeedsItsLevelOfSteps)
{
    Params p = worn_card(0);
    p.wear.weak.push_back({8 * MiB, MiB, 3});
    Card c(p);
    const uint64_t plain = read_service_ns(c.params(), 0, page), step = c.params().timing.page_read_ns;
    EXPECT_EQ(read_ns(c, 8 * MiB - page), plain);
    EXPECT_EQ(read_ns(c, 8 * MiB), plain + 3 * step);
    EXPECT_EQ(read_ns(c, 9 * MiB - page), plain + 3 * step);
    EXPECT_EQ(read_ns(c, 9 * MiB), plain);
}

TEST(SimWear, PastTheEccAReadFailsAtItsFirstBadPage)
{
    Params p = worn_card(0);
    p.wear.weak.push_back({8 * MiB + 3 * page, page, max_read_retries + 1});
    Card c(p);
    std::vector<uint8_t> out(MiB);
    const uint64_t start = c.idle_at();
    try {
        c.read(8 * MiB, out, start);
        FAIL() << "read past the ECC succeeded";
    } catch (const RequestFailed& e) {
        EXPECT_EQ(e.kind, RequestFailed::Kind::read_error);
        EXPECT_EQ(e.offset, 8 * MiB + 3 * page);
        // The bad page took every step the controller has before it gave up.
        EXPECT_EQ(e.done_ns, start + read_service_ns(c.params(), 8 * MiB, MiB) + max_read_retries * c.params().timing.page_read_ns);
        EXPECT_EQ(c.idle_at(), e.done_ns);
    }
    EXPECT_EQ(c.counters().wear.read_errors, 1u);
    EXPECT_EQ(c.counters().wear.read_retries, max_read_retries);
    EXPECT_EQ(read_ns(c, 8 * MiB, 3 * page), read_service_ns(c.params(), 8 * MiB, 3 * page)); // the pages before it read
}

TEST(SimWear, ASpareTakesAWornBlocksPlaceUntilNoneIsLeft)
{
    Card c(worn_card(3, 1));
    for (int pass = 0; pass < 4; ++pass) write_au(c, 2, 0x11); // the 3rd erase wears the block out
    EXPECT_EQ(c.counters().wear.remapped_blocks, 1u);
    EXPECT_EQ(c.counters().wear.spare_blocks_left, 0u);
    EXPECT_EQ(c.counters().wear.erase_counts[2], 0u); // a fresh block
    EXPECT_FALSE(c.counters().wear.end_of_life);
    for (int pass = 0; pass < 2; ++pass) write_au(c, 2, 0x22);
    EXPECT_FALSE(c.counters().wear.end_of_life);
    write_au(c, 2, 0x33); // its 3rd erase again, no spare: served, and the end begins
    EXPECT_TRUE(c.counters().wear.end_of_life);
    EXPECT_EQ(byte_at(c, 2 * au), 0x33);
    EXPECT_EQ(c.counters_json()["wear"]["end_of_life"], true);
}

TEST(SimWear, ReadOnlyAtTheEndRefusesWritesAndKeepsTheData)
{
    Card c(worn_card(1));
    write_au(c, 2, 0x11);
    write_au(c, 2, 0x22); // the first erase wears it out
    const std::vector<uint8_t> data(page, 0x33);
    const uint64_t start = c.idle_at();
    try {
        c.write(2 * au, data, start);
        FAIL() << "a read-only card took a write";
    } catch (const RequestFailed& e) {
        EXPECT_EQ(e.kind, RequestFailed::Kind::write_protected);
        EXPECT_EQ(e.done_ns, start + c.params().timing.command_ns);
    }
    EXPECT_THROW(c.discard(2 * au, au, c.idle_at()), RequestFailed);
    EXPECT_EQ(byte_at(c, 2 * au), 0x22);
    EXPECT_EQ(c.counters().wear.refused_writes, 2u);
    EXPECT_NO_THROW(c.flush(c.idle_at()));
}

TEST(SimWear, LoseWritesAtTheEndAcknowledgesAndStoresNothing)
{
    Card c(worn_card(1, 0, EndOfLife::lose_writes));
    write_au(c, 2, 0x11);
    write_au(c, 2, 0x22);
    const std::vector<uint8_t> data(page, 0x33);
    const uint64_t start = c.idle_at();
    EXPECT_EQ(c.write(2 * au, data, start), start + transfer_ns(c.params().timing, page));
    c.discard(2 * au, au, c.idle_at());
    EXPECT_EQ(byte_at(c, 2 * au), 0x22);
    EXPECT_EQ(c.counters().wear.lost_writes, 1u);
    EXPECT_EQ(c.counters().wear.lost_write_bytes, page);
}

TEST(SimWear, DeadAtTheEndAnswersNothing)
{
    Card c(worn_card(1, 0, EndOfLife::dead));
    write_au(c, 2, 0x11);
    write_au(c, 2, 0x22);
    std::vector<uint8_t> out(page);
    try {
        c.read(0, out, c.idle_at());
        FAIL() << "a dead card answered";
    } catch (const RequestFailed& e) {
        EXPECT_EQ(e.kind, RequestFailed::Kind::dead);
    }
    EXPECT_THROW(c.write(0, out, c.idle_at()), RequestFailed);
    EXPECT_THROW(c.flush(c.idle_at()), RequestFailed);
}

TEST(SimWear, NoEnduranceNeverWearsOut)
{
    Card c(worn_card(0));
    for (int pass = 0; pass < 20; ++pass) write_au(c, 2, 0x11);
    EXPECT_FALSE(c.counters().wear.end_of_life);
    EXPECT_EQ(c.counters().wear.erase_counts[2], 0u); // nothing counts against a block
    EXPECT_EQ(read_ns(c, 2 * au), read_service_ns(c.params(), 0, page));
}

TEST(SimWearParams, OptionsAndPresets)
{
    Params p = default_params();
    set_option(p, "endurance", "tlc");
    EXPECT_EQ(p.wear.endurance, 3000u);
    set_option(p, "endurance", "pslc");
    EXPECT_EQ(p.wear.endurance, 30000u);
    set_option(p, "endurance", "mlc");
    EXPECT_EQ(p.wear.endurance, 10000u);
    set_option(p, "endurance", "500");
    EXPECT_EQ(p.wear.endurance, 500u);
    EXPECT_THROW(set_option(p, "endurance", "qlc-ish"), std::invalid_argument);
    set_option(p, "age", "17520h");
    EXPECT_EQ(p.wear.age_ns, 2 * 8760ull * 3600 * 1'000'000'000);
    set_option(p, "weak", "8M,1M");
    set_option(p, "weak", "1M,16k,9");
    ASSERT_EQ(p.wear.weak.size(), 2u);
    EXPECT_EQ(p.wear.weak[0].level, default_weak_level);
    EXPECT_EQ(p.wear.weak[1].offset, MiB);
    EXPECT_EQ(p.wear.weak[1].size, 16 * KiB);
    EXPECT_EQ(p.wear.weak[1].level, 9u);
    EXPECT_THROW(set_option(p, "weak", "8M"), std::invalid_argument);
    EXPECT_THROW(set_option(p, "weak", "8M,0"), std::invalid_argument);
    EXPECT_THROW(set_option(p, "weak", "8M,1M,0"), std::invalid_argument);
    set_option(p, "end-of-life", "lose-writes");
    EXPECT_EQ(p.wear.end_of_life, EndOfLife::lose_writes);
    EXPECT_THROW(set_option(p, "end-of-life", "explode"), std::invalid_argument);
    set_option(p, "spare-blocks", "12");

    const Params back = params_from_json(to_json(p));
    EXPECT_EQ(back.wear.endurance, 500u);
    EXPECT_EQ(back.wear.age_ns, p.wear.age_ns);
    EXPECT_EQ(back.wear.spare_blocks, 12u);
    EXPECT_EQ(back.wear.end_of_life, EndOfLife::lose_writes);
    ASSERT_EQ(back.wear.weak.size(), 2u);
    EXPECT_EQ(back.wear.weak[1].level, 9u);

    Params outside = default_params();
    set_option(outside, "weak", "100G,1M");
    EXPECT_THROW(validate(outside), std::invalid_argument);
}
