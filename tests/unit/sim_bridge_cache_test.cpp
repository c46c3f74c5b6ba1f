// A USB reader's read cache in front of a simulated card (sim/bridge_cache.h):
// re-reads answered from the bridge's RAM cost no card time and never reach
// the card, the least recently used sectors go first, a limbo fake's recent
// writes read back intact while held and as the card has them once pushed
// out, and a discard drops what it covers.
#include "sim/bridge_cache.h"
#include "sim/card.h"
#include "sim/timing.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace mmc::sim;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

Params reader_card(uint64_t bridge, Fake kind = Fake::none, uint64_t real = 0)
{
    Params p = default_params();
    p.size_bytes = 256 * MiB;
    p.fake = kind;
    p.real_size_bytes = real;
    p.bridge_cache_bytes = bridge;
    return p;
}

std::vector<uint8_t> stamp(uint8_t v, std::size_t n = 4096) { return std::vector<uint8_t>(n, v); }

// The read's duration on the virtual clock, the card idle when it arrives.
uint64_t timed_read(Card& c, uint64_t offset, std::vector<uint8_t>& out)
{
    const uint64_t at = c.idle_at();
    return c.read(offset, out, at) - at;
}

} // namespace

TEST(SimBridgeCache, ARereadCostsOnlyTheBusAndNeverReachesTheCard)
{
    Card c(reader_card(1 * MiB));
    std::vector<uint8_t> first(4 * KiB), again(4 * KiB);
    const uint64_t cold = timed_read(c, 8 * MiB, first);
    EXPECT_EQ(cold, c.predict_read(8 * MiB, 4 * KiB));
    const uint64_t warm = timed_read(c, 8 * MiB, again);
    EXPECT_EQ(warm, bus_ns(c.params().timing, 4 * KiB));
    EXPECT_LT(warm * 2, cold); // the "much faster re-read" a probe can see
    EXPECT_EQ(first, again);
    EXPECT_EQ(c.counters().reads.requests, 1u); // the card saw the first read only
    const auto j = c.counters_json()["bridge_cache"];
    EXPECT_EQ(j["hits"], 1u);
    EXPECT_EQ(j["hit_bytes"], 4 * KiB);
    EXPECT_EQ(j["misses"], 1u);
}

TEST(SimBridgeCache, WithoutOneEveryReadReachesTheCard)
{
    Card c(reader_card(0));
    std::vector<uint8_t> out(64 * KiB);
    timed_read(c, 8 * MiB, out);
    EXPECT_EQ(timed_read(c, 8 * MiB, out), c.predict_read(8 * MiB, 64 * KiB));
    EXPECT_EQ(c.counters().reads.requests, 2u);
    EXPECT_FALSE(c.counters_json().contains("bridge_cache"));
}

TEST(SimBridgeCache, AReadLargerThanTheCacheLeavesOnlyItsTail)
{
    Card c(reader_card(256 * KiB));
    std::vector<uint8_t> big(1 * MiB), head(64 * KiB), tail(64 * KiB);
    timed_read(c, 0, big);
    EXPECT_EQ(timed_read(c, 0, head), c.predict_read(0, 64 * KiB)); // pushed out
    EXPECT_EQ(timed_read(c, 1 * MiB - 64 * KiB, tail), bus_ns(c.params().timing, 64 * KiB));
}

TEST(SimBridgeCache, APartlyHeldReadGoesToTheCardWhole)
{
    Card c(reader_card(1 * MiB));
    std::vector<uint8_t> part(4 * KiB), whole(8 * KiB);
    timed_read(c, 0, part);
    EXPECT_EQ(timed_read(c, 0, whole), c.predict_read(0, 8 * KiB));
    EXPECT_EQ(c.counters().reads.requests, 2u);
}

TEST(SimBridgeCache, ALimboFakesRecentWritesReadBackUntilPushedOut)
{
    // 64 MiB real behind 256 announced: writes beyond 64 MiB go nowhere.
    Card c(reader_card(1 * MiB, Fake::limbo, 64 * MiB));
    c.write(200 * MiB, stamp(0x5a), c.idle_at());
    std::vector<uint8_t> out(4096);
    timed_read(c, 200 * MiB, out);
    EXPECT_EQ(out, stamp(0x5a)); // fooled: the bridge answered
    std::vector<uint8_t> flood(2 * MiB);
    timed_read(c, 16 * MiB, flood); // an unrelated read larger than the cache
    timed_read(c, 200 * MiB, out);
    EXPECT_EQ(out, stamp(0x00)); // the card's own answer: limbo reads zeros
}

TEST(SimBridgeCache, TheLeastRecentlyUsedGoesFirst)
{
    BridgeCache b(8 * KiB); // 16 sectors
    b.remember(0, stamp(1));        // sectors 0-7
    b.remember(4096, stamp(2));     // 8-15: full
    std::vector<uint8_t> out(4096);
    EXPECT_TRUE(b.answer(0, out));  // 0-7 used again
    b.remember(8192, stamp(3, 512)); // sector 16 pushes out the oldest: 8
    EXPECT_TRUE(b.answer(0, out));
    EXPECT_FALSE(b.answer(4096, out));
    EXPECT_EQ(b.held_bytes(), 8 * KiB);
}

TEST(SimBridgeCache, UnalignedEdgesAndDiscardsDropWhatTheyTouch)
{
    BridgeCache b(64 * KiB);
    b.remember(0, stamp(1));
    std::vector<uint8_t> out(512);
    b.remember(100, stamp(2, 1000)); // [100, 1100): sectors 0 and 2 half-new, 1 whole
    EXPECT_FALSE(b.answer(0, out));    // dropped, not kept stale
    EXPECT_TRUE(b.answer(512, out));
    EXPECT_EQ(out, stamp(2, 512));
    EXPECT_FALSE(b.answer(1024, out)); // dropped
    EXPECT_TRUE(b.answer(1536, out));
    EXPECT_EQ(out, stamp(1, 512));     // untouched
    b.forget(1536, 1);
    EXPECT_FALSE(b.answer(1536, out));
    EXPECT_TRUE(b.answer(2048, out));
    b.forget(0, 1ull << 40); // larger than the cache: walks what is held
    EXPECT_EQ(b.held_bytes(), 0u);
    EXPECT_FALSE(b.answer(100, out)); // unaligned reads are never answered
}

TEST(SimBridgeCache, TheOptionNamesASizeInSectors)
{
    Params p = reader_card(0);
    set_option(p, "bridge-cache", "8M");
    EXPECT_EQ(p.bridge_cache_bytes, 8 * MiB);
    EXPECT_EQ(to_json(p)["bridge_cache"], 8 * MiB);
    EXPECT_EQ(params_from_json(to_json(p)).bridge_cache_bytes, 8 * MiB);
    p.bridge_cache_bytes = 1000;
    EXPECT_THROW(validate(p), std::invalid_argument);
    EXPECT_THROW(BridgeCache(0), std::invalid_argument);
}
