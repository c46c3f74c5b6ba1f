// mmc-tune queue's report (tune/queue_view.h) as a person and a program read
// it: the result said once, each knob's decision on its own line, intervals
// whose signs cannot be misread, the discard advice named once, and why no
// rule was written as an object.
#include "tune/queue_view.h"

#include <gtest/gtest.h>

using namespace mmc::tune;

namespace {

QueueReport kept_report()
{
    QueueReport r;
    r.device = "/dev/loop1";
    r.described = "loop1 is a loop device";
    r.start = {"none", 128};
    r.offered = {"none", "mq-deadline"};
    RaceResult race;
    race.workloads = {Workload::seq_read};
    // Three rounds whose spread puts the low end of the interval below zero.
    race.contenders.push_back({{"none", 128}, {{1, 40, 15}}, {1, 40, 15}, std::nullopt});
    race.contenders.push_back({{"mq-deadline", 128}, {{20, 21, 22}}, {20, 21, 22}, std::nullopt});
    race.rounds = 3;
    race.end = RaceEnd::budget;
    race.read_ahead = {false, true, "kept, the current setting (128 KiB): no other was measured"};
    race.scheduler = {false, false, "kept, the current setting (none): mq-deadline measured within its noise"};
    race.reason = "read-ahead " + race.read_ahead.reason + "; scheduler " + race.scheduler.reason;
    r.race = race;
    DiscardPolicy d;
    d.advice = DiscardAdvice::online_discard;
    d.reason = "it discards 0.10 s per GiB";
    r.discard = d;
    r.persistent.emplace();
    r.persistent->why_not = "the advice is to keep the setting in force: there is no rule to write";
    return r;
}

} // namespace

TEST(TuneQueueView, TheResultIsSaidOnceEachKnobOnItsOwnLine)
{
    const std::string t = queue_text(kept_report());
    EXPECT_NE(t.find("\nResult: keep the current setting (none, read-ahead 128 KiB)\n"), std::string::npos) << t;
    EXPECT_NE(t.find("\n  read-ahead: kept, the current setting (128 KiB): no other was measured\n"), std::string::npos) << t;
    EXPECT_NE(t.find("\n  scheduler: kept, the current setting (none): mq-deadline measured within its noise\n"), std::string::npos) << t;
    EXPECT_EQ(t.find("no measurable difference: no measurable difference"), std::string::npos) << t;
    EXPECT_EQ(t.find("default"), std::string::npos) << t;
    EXPECT_NE(t.find("Discard: online discard (the discard mount option): it discards"), std::string::npos) << t;
    EXPECT_EQ(t.rfind("loop1 is a loop device\n", 0), 0u) << t;
}

TEST(TuneQueueView, AnIntervalBelowZeroReadsAsLowToHigh)
{
    const std::string t = queue_text(kept_report());
    // Mean 18.67, half-width t(2) x s / sqrt(3) = 4.303 x 19.76 / 1.732 = 49.08.
    EXPECT_NE(t.find("18.7 (-30.4 to 67.7)"), std::string::npos) << t;
    EXPECT_EQ(t.find("(-30.4-67.7)"), std::string::npos) << t;
}

TEST(TuneQueueView, NoRuleIsAnObjectWithItsReason)
{
    const auto j = queue_json(kept_report());
    EXPECT_EQ(j["persistent_not_written"]["reason"], "the advice is to keep the setting in force: there is no rule to write");
    EXPECT_EQ(j["persistent"].size(), 0u);
    EXPECT_EQ(j["result"]["scheduler_decision"]["change"], false);
    EXPECT_EQ(j["result"]["read_ahead_decision"]["reason"], "kept, the current setting (128 KiB): no other was measured");
}
