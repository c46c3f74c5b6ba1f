// The write canary (health/canary.h) on a simulated card that wears out,
// exactly on the virtual clock: a day's canary, then a day's workload that
// erases one block; the canary is ok every day until the model's end of
// life begins and catches it on the first day a write of its own is lost
// or refused, with the right state; the verdict follows.
#include "health/canary.h"
#include "probe/canary.h"
#include "sim_verify_target.h"
#include "sim/card.h"
#include "sim/params.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc;
using namespace mmc::health;
using mmc::test::SimVerifyTarget;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
constexpr uint64_t au = 4 * MiB;
constexpr uint64_t canary_at = 8 * MiB; // AU 2

sim::Params wearing_card(sim::EndOfLife end)
{
    sim::Params p = sim::default_params();
    p.size_bytes = 64 * MiB;
    p.page_bytes = 16 * KiB;
    p.au_bytes = au;
    p.open_aus = 1;
    p.fat_area_bytes = 0;
    p.wear.endurance = 3;
    p.wear.spare_blocks = 0;
    p.wear.end_of_life = end;
    return p;
}

// The workload: AU 5 written whole, twice a day. On a clean card the first
// pass takes the erased block; every later one erases it (ftl.h), so the
// day-2 workload's second pass is its 3rd erase: it wears out with no spare
// left and the end of life begins after that write. (The canary's own
// rewrites of AU 2 erase it once a day from day 2: two erases by then.)
void workload(sim::Card& c)
{
    const std::vector<uint8_t> data(au, 0x5a);
    for (int pass = 0; pass < 2; ++pass) c.write(5 * au, data, c.idle_at());
}

struct Day {
    CanaryResult canary;
    uint64_t lost_writes = 0, refused_writes = 0; // the model's, during the canary
    bool end_of_life_before = false;
};

// Up to `days` days of canary then workload, stopping after the first day
// the canary is not ok.
std::vector<Day> run_days(SimVerifyTarget& t, int days)
{
    std::vector<Day> out;
    for (int d = 0; d < days; ++d) {
        Day day;
        const auto before = t.card.counters().wear;
        day.end_of_life_before = before.end_of_life;
        day.canary = mmc::probe::run_canary(t, 1000 + static_cast<uint64_t>(d)); // a new sequence every run
        const auto after = t.card.counters().wear;
        day.lost_writes = after.lost_writes - before.lost_writes;
        day.refused_writes = after.refused_writes - before.refused_writes;
        out.push_back(day);
        if (day.canary.state != CanaryState::ok) break;
        workload(t.card);
    }
    return out;
}

} // namespace

TEST(HealthCanary, AHealthyCardReadsBackWhatItWrote)
{
    SimVerifyTarget t(wearing_card(sim::EndOfLife::lose_writes), canary_at, canary_default_bytes);
    const auto c = mmc::probe::run_canary(t, 7);
    EXPECT_EQ(c.state, CanaryState::ok);
    EXPECT_TRUE(c.read_back_ok);
    EXPECT_EQ(c.size, canary_default_bytes);
    EXPECT_EQ(c.written, canary_default_bytes);
    EXPECT_EQ(c.lost, 0u);
    EXPECT_FALSE(c.first_bad_offset);
    EXPECT_EQ(t.writes, 1u); // one request
    EXPECT_EQ(t.card.counters().writes.bytes, canary_default_bytes);
}

TEST(HealthCanary, CatchesLostWritesOnTheDayTheyBegin)
{
    SimVerifyTarget t(wearing_card(sim::EndOfLife::lose_writes), canary_at, canary_default_bytes);
    const auto days = run_days(t, 10);
    // The end of life begins with day 2's workload: day 3's canary is the
    // first write lost, and it says so.
    ASSERT_EQ(days.size(), 3u);
    for (std::size_t d = 0; d + 1 < days.size(); ++d) {
        EXPECT_EQ(days[d].canary.state, CanaryState::ok) << "day " << d + 1;
        EXPECT_EQ(days[d].lost_writes, 0u) << "day " << d + 1;
        EXPECT_FALSE(days[d].end_of_life_before) << "day " << d + 1;
    }
    const Day& last = days.back();
    EXPECT_TRUE(last.end_of_life_before);
    EXPECT_EQ(last.lost_writes, 1u); // the model lost the canary's one write
    EXPECT_EQ(last.canary.state, CanaryState::lost_writes);
    EXPECT_FALSE(last.canary.read_back_ok);
    EXPECT_EQ(last.canary.written, canary_default_bytes); // acknowledged
    EXPECT_EQ(last.canary.lost, canary_default_bytes);    // and none of it kept: day 2's canary reads back
    EXPECT_EQ(last.canary.first_bad_offset, 0u);
}

TEST(HealthCanary, CatchesACardTurnedReadOnlyOnTheDayItTurns)
{
    SimVerifyTarget t(wearing_card(sim::EndOfLife::read_only), canary_at, canary_default_bytes);
    const auto days = run_days(t, 10);
    ASSERT_EQ(days.size(), 3u);
    for (std::size_t d = 0; d + 1 < days.size(); ++d) EXPECT_EQ(days[d].canary.state, CanaryState::ok) << "day " << d + 1;
    const Day& last = days.back();
    EXPECT_TRUE(last.end_of_life_before);
    EXPECT_EQ(last.refused_writes, 1u);
    EXPECT_EQ(last.canary.state, CanaryState::read_only);
    EXPECT_EQ(last.canary.written, 0u);
    EXPECT_FALSE(last.canary.read_back_ok);
    EXPECT_NE(last.canary.error.find("read-only"), std::string::npos) << last.canary.error;
}

TEST(HealthCanary, ADeadCardIsDead)
{
    SimVerifyTarget t(wearing_card(sim::EndOfLife::dead), canary_at, canary_default_bytes);
    const auto days = run_days(t, 10);
    ASSERT_EQ(days.size(), 3u);
    EXPECT_EQ(days.back().canary.state, CanaryState::dead);
}

TEST(HealthCanary, AnUnreadableCanaryIsReadErrors)
{
    sim::Params p = wearing_card(sim::EndOfLife::lose_writes);
    p.wear.weak.push_back({canary_at + 16 * KiB, 16 * KiB, 9});
    SimVerifyTarget t(p, canary_at, canary_default_bytes);
    const auto c = mmc::probe::run_canary(t, 7);
    EXPECT_EQ(c.state, CanaryState::read_errors);
    EXPECT_EQ(c.first_bad_offset, 16 * KiB);
    EXPECT_EQ(c.lost, 16 * KiB);
}

TEST(HealthCanary, TheVerdictFollowsTheCanary)
{
    HealthReport unknown; // a card with no health record
    CanaryResult c;
    c.state = CanaryState::ok;
    apply_canary(unknown, c);
    EXPECT_EQ(unknown.judgement.verdict, Verdict::unknown); // a canary says nothing of wear
    ASSERT_TRUE(unknown.canary);

    HealthReport lost;
    c.state = CanaryState::lost_writes;
    apply_canary(lost, c);
    EXPECT_EQ(lost.judgement.verdict, Verdict::end_of_life);
    EXPECT_EQ(lost.judgement.source, "canary");
    EXPECT_EQ(lost.judgement.figure, DecidingFigure::canary);

    HealthReport refused;
    refused.judgement.verdict = Verdict::worn;
    c.state = CanaryState::read_only;
    apply_canary(refused, c);
    EXPECT_EQ(refused.judgement.verdict, Verdict::read_only);

    HealthReport worse; // the registers already say worse: they keep the verdict
    worse.judgement = {Verdict::end_of_life, "ext_csd", DecidingFigure::life_used_percent};
    apply_canary(worse, c);
    EXPECT_EQ(worse.judgement.source, "ext_csd");
}
