// mmc-tune queue's discard policy (tune/queue_discard.h) from a measured
// discard: online discard only for a device that discards 1 GiB in half a
// second or less; the whole-device time set against rpi-imager's 30 s.
#include "tune/queue_discard.h"

#include <gtest/gtest.h>

using namespace mmc::tune;

namespace {
constexpr uint64_t GiB = uint64_t{1} << 30;
}

TEST(TuneQueueDiscard, AFastDiscardMayBeOnline)
{
    const auto p = discard_policy(256u << 20, 0.05, 16 * GiB); // 0.2 s per GiB
    EXPECT_EQ(p.advice, DiscardAdvice::online_discard);
    EXPECT_DOUBLE_EQ(*p.seconds_per_gib, 0.2);
    EXPECT_EQ(to_string(p.advice), "discard");
    EXPECT_NE(p.reason.find("would take about 3.2 s"), std::string::npos) << p.reason;
    EXPECT_EQ(p.reason.find("rpi-imager"), std::string::npos) << p.reason;
}

TEST(TuneQueueDiscard, ASlowDiscardIsLeftToFstrimAndTheImagersTimeoutNamed)
{
    const auto p = discard_policy(GiB, 2, 32 * GiB);
    EXPECT_EQ(p.advice, DiscardAdvice::fstrim_timer);
    EXPECT_EQ(to_string(p.advice), "fstrim.timer");
    EXPECT_NE(p.reason.find("about 64.0 s, beyond the 30 s rpi-imager waits for one"), std::string::npos) << p.reason;
    // The threshold itself is still online.
    EXPECT_EQ(discard_policy(GiB, online_discard_max_s_per_gib, GiB).advice, DiscardAdvice::online_discard);
}

TEST(TuneQueueDiscard, NothingDiscardedIsNoFigure)
{
    EXPECT_THROW(discard_policy(0, 1, GiB), std::invalid_argument);
    EXPECT_EQ(no_discard_policy().advice, DiscardAdvice::none);
    EXPECT_FALSE(no_discard_policy().seconds_per_gib);
}
