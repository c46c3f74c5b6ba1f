// Sustained writing on the simulated card, on virtual time and
// exact: the SLC cache's knee, the post-cache rate, recovery by idle time,
// garbage-collection stalls driven by the FTL's state and recorded in the
// counters, and figures.h's predictions against what the Card does.
#include "sim/card.h"
#include "sim/figures.h"
#include "sim/timing.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc::sim;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;
constexpr uint64_t rq = 512 * KiB; // the request size the host chain delivers

// The default card's flash at 256 MiB in 64 AUs, from `state`.
Params small_card(StartState state)
{
    Params p = default_params();
    p.size_bytes = 256 * MiB;
    p.au_bytes = 4 * MiB;
    p.state = state;
    return p;
}

// With a 64 MiB SLC cache at 90 MB/s over 20 MB/s native flash.
Params cached_card(StartState state = StartState::clean)
{
    Params p = small_card(state);
    p.timing.command_ns = 100'000;
    p.timing.bus_bytes_per_s = 100e6;
    p.sustained.slc_cache_bytes = 64 * MiB;
    p.sustained.slc_rate = 90e6;
    p.sustained.native_rate = 20e6;
    p.sustained.slc_fold_rate = 10e6;
    return p;
}

// A card without a cache whose FTL work makes stalls: 300 ms for every two blocks made free.
Params stalling_card(StartState state)
{
    Params p = small_card(state);
    p.sustained.gc_stall_ns = 300'000'000;
    p.sustained.gc_every = 2;
    return p;
}

// Sequential `rq` writes from `offset` back to back (each arrives as the
// last completes); each one's service time.
std::vector<uint64_t> write_sequential(Card& c, uint64_t offset, uint64_t length, uint64_t gap_ns = 0)
{
    std::vector<uint8_t> data(rq, 0x5a);
    std::vector<uint64_t> ns;
    for (uint64_t at = offset; at < offset + length; at += rq) {
        const uint64_t start = c.idle_at() + gap_ns;
        ns.push_back(c.write(at, data, start) - start);
    }
    return ns;
}

uint64_t burst_ns(const Params& p) { return transfer_ns(p.timing, rq) + rate_ns(p.sustained.slc_rate, rq); }
uint64_t native_ns(const Params& p) { return transfer_ns(p.timing, rq) + rate_ns(p.sustained.native_rate, rq); }

} // namespace

TEST(SimSustained, TheKneeFallsExactlyAtTheCacheSize)
{
    const Params p = cached_card();
    Card c(p);
    const auto ns = write_sequential(c, 0, 128 * MiB);
    const uint64_t in_cache = p.sustained.slc_cache_bytes / rq;
    for (uint64_t i = 0; i < ns.size(); ++i)
        ASSERT_EQ(ns[i], i < in_cache ? burst_ns(p) : native_ns(p)) << "request " << i;
    EXPECT_EQ(c.counters().slc.first_full_at_bytes, 64 * MiB);
    EXPECT_EQ(c.counters().slc.bytes_cached, 64 * MiB);
    EXPECT_EQ(c.counters().slc.bytes_native, 64 * MiB);
}

TEST(SimSustained, PostCacheRateIsTheNativeRate)
{
    const Params p = cached_card();
    Card c(p);
    const auto ns = write_sequential(c, 0, 128 * MiB);
    uint64_t post = 0;
    for (uint64_t i = 64 * MiB / rq; i < ns.size(); ++i) post += ns[i];
    const double mb_s = 64.0 * MiB / (post / 1e9) / 1e6;
    // command + bus at 100 MB/s in series with 20 MB/s of flash: 512 KiB in 31.56 ms.
    EXPECT_NEAR(mb_s, 524288 / (100e-6 + 524288 / 100e6 + 524288 / 20e6) / 1e6, 1e-6);
    EXPECT_LT(mb_s, 20);
}

TEST(SimSustained, AKneeInsideARequestSplitsIt)
{
    Params p = cached_card();
    p.sustained.slc_cache_bytes = 64 * MiB + 128 * KiB;
    Card c(p);
    const auto ns = write_sequential(c, 0, 66 * MiB);
    const uint64_t straddling = 64 * MiB / rq;
    EXPECT_EQ(ns[straddling - 1], burst_ns(p));
    EXPECT_EQ(ns[straddling], transfer_ns(p.timing, rq) + rate_ns(90e6, 128 * KiB) + rate_ns(20e6, 384 * KiB));
    EXPECT_EQ(ns[straddling + 1], native_ns(p));
    EXPECT_EQ(c.counters().slc.first_full_at_bytes, p.sustained.slc_cache_bytes);
}

TEST(SimSustained, IdleTimeFoldsTheCacheAtTheFoldRate)
{
    const Params p = cached_card();
    Card c(p);
    write_sequential(c, 0, 96 * MiB);
    ASSERT_EQ(c.counters().slc.used_bytes, 64 * MiB);
    // One second idle at 10 MB/s frees 10^7 bytes: 19 whole requests, the 20th crosses the knee.
    std::vector<uint8_t> data(rq, 0x5a);
    const uint64_t after_idle = c.idle_at() + 1'000'000'000;
    const uint64_t first = c.write(96 * MiB, data, after_idle) - after_idle;
    EXPECT_EQ(c.counters().slc.bytes_folded, 10'000'000u);
    EXPECT_EQ(first, burst_ns(p));
    const auto ns = write_sequential(c, 96 * MiB + rq, 32 * MiB);
    for (int i = 0; i < 18; ++i) EXPECT_EQ(ns[i], burst_ns(p)) << i;
    const uint64_t left = 10'000'000 - 19 * rq;
    EXPECT_EQ(ns[18], transfer_ns(p.timing, rq) + rate_ns(90e6, left) + rate_ns(20e6, rq - left));
    EXPECT_EQ(ns[19], native_ns(p));
}

TEST(SimSustained, NoCacheNoKneeAndTheOldTiming)
{
    Params p = cached_card();
    p.sustained = Sustained{};
    Card c(p);
    const auto ns = write_sequential(c, 0, 128 * MiB);
    // A clean card written in order: command + bus + one program per page, as before the SLC cache was modelled.
    const uint64_t old = transfer_ns(p.timing, rq) + rq / p.page_bytes * p.timing.page_program_ns;
    for (uint64_t v : ns) ASSERT_EQ(v, old);
    EXPECT_EQ(c.counters().slc.first_full_at_bytes, 0u);
    EXPECT_EQ(c.counters().gc_stalls.count, 0u);
}

TEST(SimSustained, ANativeRateWithoutACacheTimesEveryWrite)
{
    Params p = cached_card();
    p.sustained.slc_cache_bytes = 0;
    Card c(p);
    for (uint64_t v : write_sequential(c, 0, 16 * MiB)) ASSERT_EQ(v, native_ns(p));
}

TEST(SimSustained, AFragmentedCardStallsMoreThanAFullOneAndAClean)
{
    uint64_t count[3];
    int i = 0;
    for (StartState s : {StartState::clean, StartState::full, StartState::fragmented}) {
        Card c(stalling_card(s));
        write_sequential(c, 0, 256 * MiB);
        count[i++] = c.counters().gc_stalls.count;
    }
    EXPECT_EQ(count[0], 0u);  // every AU erased: no block to make free
    EXPECT_EQ(count[1], 32u); // one erase per AU opened, a stall every two: 64 AUs
    EXPECT_EQ(count[2], 64u); // a full merge and an erase per AU: a stall every AU
}

TEST(SimSustained, EveryStallIsInTheCounters)
{
    const Params p = stalling_card(StartState::fragmented);
    Card c(p);
    std::vector<uint8_t> data(rq, 0x5a);
    uint64_t bytes = 0, stalled = 0;
    std::vector<GcStall> seen;
    Card plain([&] {
        Params q = p;
        q.sustained.gc_stall_ns = 0;
        return q;
    }());
    for (uint64_t at = 0; at < 64 * MiB; at += rq) {
        const uint64_t start = c.idle_at(), plain_start = plain.idle_at();
        const uint64_t ns = c.write(at, data, start) - start;
        const uint64_t plain_ns = plain.write(at, data, plain_start) - plain_start;
        if (ns != plain_ns) {
            seen.push_back({start, at, bytes, ns - plain_ns});
            stalled += ns - plain_ns;
        }
        bytes += rq;
    }
    const GcStalls& g = c.counters().gc_stalls;
    ASSERT_EQ(g.count, seen.size());
    ASSERT_EQ(g.first.size(), seen.size());
    EXPECT_EQ(g.total_ns, stalled);
    for (std::size_t i = 0; i < seen.size(); ++i) {
        EXPECT_EQ(g.first[i].at_ns, seen[i].at_ns) << i;
        EXPECT_EQ(g.first[i].offset, seen[i].offset) << i;
        EXPECT_EQ(g.first[i].bytes_before, seen[i].bytes_before) << i;
        EXPECT_EQ(g.first[i].ns, seen[i].ns) << i;
    }
    EXPECT_EQ(g.longest.ns, p.sustained.gc_stall_ns);
    const auto j = c.counters_json();
    EXPECT_EQ(j["gc_stalls"]["count"], g.count);
    EXPECT_EQ(j["gc_stalls"]["first"].size(), g.count);
    EXPECT_EQ(j["gc_stalls"]["longest"]["ns"], p.sustained.gc_stall_ns);
}

TEST(SimSustained, TheReserveMakesACleanCardStallOnceUsedUp)
{
    Params p = stalling_card(StartState::clean);
    p.sustained.gc_every = 1;
    p.sustained.gc_reserve_bytes = 128 * MiB; // 32 of its 64 AUs
    Card c(p);
    write_sequential(c, 0, 256 * MiB);
    const GcStalls& g = c.counters().gc_stalls;
    // Opening the 33rd AU leaves 31 erased, below the reserve: from there one per AU.
    EXPECT_EQ(g.count, 32u);
    ASSERT_FALSE(g.first.empty());
    EXPECT_EQ(g.first.front().bytes_before, 128 * MiB);
    EXPECT_EQ(g.first.front().offset, 128 * MiB);
}

TEST(SimSustained, TheFiguresAreWhatTheCardDoes)
{
    Params p = cached_card();
    p.sustained.gc_stall_ns = 200'000'000;
    p.sustained.gc_every = 3;
    p.sustained.gc_reserve_bytes = 32 * MiB;
    const SustainedFigures f = sustained_figures(p);
    EXPECT_EQ(f.knee_bytes, 64 * MiB);
    EXPECT_DOUBLE_EQ(f.burst_mb_s, rq / (burst_ns(p) / 1e9) / 1e6);
    EXPECT_DOUBLE_EQ(f.post_cache_mb_s, rq / (native_ns(p) / 1e9) / 1e6);
    EXPECT_EQ(f.recovery_bytes_per_s, 10e6);
    for (StartState s : {StartState::clean, StartState::full, StartState::fragmented}) {
        p.state = s;
        Card c(p);
        const auto ns = write_sequential(c, 0, 256 * MiB);
        const GcStalls& g = c.counters().gc_stalls;
        const auto& want = s == StartState::clean ? f.clean : s == StartState::full ? f.full : f.fragmented;
        EXPECT_EQ(g.count, want.count) << to_string(s);
        EXPECT_EQ(g.longest.ns, want.longest_ns) << to_string(s);
        ASSERT_GE(g.first.size(), 2u) << to_string(s);
        EXPECT_EQ(g.first.front().bytes_before, want.first_at_bytes) << to_string(s);
        EXPECT_EQ((g.first.back().bytes_before - g.first.front().bytes_before) / (g.first.size() - 1), want.every_bytes)
            << to_string(s);
        if (s != StartState::clean) continue;
        EXPECT_EQ(c.counters().slc.first_full_at_bytes, f.knee_bytes);
        double worst = 1e30;
        for (uint64_t au = 0; au < 64; ++au) {
            uint64_t au_ns = 0;
            for (uint64_t i = 0; i < p.au_bytes / rq; ++i) au_ns += ns[au * p.au_bytes / rq + i];
            worst = std::min(worst, p.au_bytes / (au_ns / 1e9) / 1e6);
        }
        EXPECT_DOUBLE_EQ(f.worst_au_mb_s, worst);
    }
    EXPECT_GT(f.fragmented.count, f.clean.count);
}

TEST(SimSustained, TheKneeWithHostGapsIsWhatTheCardDoes)
{
    const Params p = cached_card();
    for (uint64_t gap : {0ull, 100'000ull, 2'000'000ull}) {
        Card c(p);
        write_sequential(c, 0, 200 * MiB, gap);
        EXPECT_EQ(c.counters().slc.first_full_at_bytes, knee_bytes(p, rq, gap)) << gap;
    }
    // 60 ms gaps fold 600000 bytes, more than each request fills: never full.
    EXPECT_EQ(knee_bytes(p, rq, 60'000'000), 0u);
}

TEST(SimSustained, GapsShorterThanTheFoldDelayFoldNothing)
{
    Params p = cached_card();
    p.sustained.slc_fold_after_ns = 100'000'000;
    Card c(p);
    write_sequential(c, 0, 128 * MiB, 1'000'000); // 1 ms between requests: a host's own cost
    EXPECT_EQ(c.counters().slc.first_full_at_bytes, 64 * MiB);
    EXPECT_EQ(c.counters().slc.bytes_folded, 0u);
    EXPECT_EQ(knee_bytes(p, rq, 1'000'000), 64 * MiB);
    // One second idle folds 0.9 s at 10 MB/s.
    std::vector<uint8_t> data(rq, 0x5a);
    c.write(128 * MiB, data, c.idle_at() + 1'000'000'000);
    EXPECT_EQ(c.counters().slc.bytes_folded, 9'000'000u);
    // A gap past the delay folds its excess: the formula and the card agree.
    Card d(p);
    write_sequential(d, 0, 200 * MiB, 102'000'000);
    EXPECT_EQ(d.counters().slc.first_full_at_bytes, knee_bytes(p, rq, 102'000'000));
    EXPECT_GT(knee_bytes(p, rq, 102'000'000), 64 * MiB);
}
