// The sustained-write analysis on synthetic traces whose knee, speeds and
// stalls are known exactly: a card writing at one rate until its cache is
// full and at another after it, with stalls where the test puts them.
#include "bench/sustained.h"
#include "bench/sustained_classes.h"

#include <gtest/gtest.h>

using namespace mmc::bench;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

struct Shape {
    uint64_t total = 256 * MiB;
    uint32_t ru = 512 * KiB;
    double burst = 90e6, native = 12e6; // bytes per second
    uint64_t cache = 64 * MiB;          // 0: none
    uint64_t stall_every = 0;           // writes; 0: none
    uint64_t stall_ns = 0;
    uint64_t first_stall_at = 0;        // write index of a single extra stall (0: none)
};

std::vector<WriteSample> trace(const Shape& s)
{
    std::vector<WriteSample> out;
    uint64_t now = 5'000'000'000, written = 0;
    for (uint64_t i = 0; written < s.total; ++i) {
        const double rate = s.cache && written < s.cache ? s.burst : s.native;
        uint64_t ns = static_cast<uint64_t>(s.ru / rate * 1e9);
        if (s.stall_every && (i + 1) % s.stall_every == 0) ns += s.stall_ns;
        if (s.first_stall_at && i == s.first_stall_at) ns += s.stall_ns;
        out.push_back({written, s.ru, now, now + ns});
        now += ns;
        written += s.ru;
    }
    return out;
}

} // namespace

TEST(BenchSustained, FindsTheKneeAndBothSpeeds)
{
    const auto f = analyse_sustained(trace({}));
    ASSERT_TRUE(f.knee_bytes);
    EXPECT_EQ(*f.knee_bytes, 64 * MiB);
    EXPECT_NEAR(f.burst_mb_s, 90, 0.01);
    EXPECT_NEAR(f.sustained_mb_s, 12, 0.01);
    EXPECT_EQ(f.bytes, 256 * MiB);
    EXPECT_EQ(f.writes, 512u);
    EXPECT_EQ(f.stall_count, 0u);
    EXPECT_FALSE(f.longest_stall);
}

TEST(BenchSustained, NoKneeWithoutACache)
{
    Shape s;
    s.cache = 0;
    const auto f = analyse_sustained(trace(s));
    EXPECT_FALSE(f.knee_bytes);
    EXPECT_NEAR(f.burst_mb_s, 12, 0.01);
    EXPECT_NEAR(f.sustained_mb_s, 12, 0.01);
}

TEST(BenchSustained, ALoneStallIsNoKnee)
{
    Shape s;
    s.cache = 0;
    s.native = 30e6;
    s.first_stall_at = 200;
    s.stall_ns = 2'000'000'000; // two seconds, in the middle
    const auto f = analyse_sustained(trace(s));
    EXPECT_FALSE(f.knee_bytes);
    ASSERT_TRUE(f.longest_stall);
    EXPECT_EQ(f.stall_count, 1u);
    EXPECT_EQ(f.longest_stall->written_before, 200 * 512 * KiB);
    EXPECT_NEAR(f.longest_stall->latency_ms, 2000 + 512.0 * KiB / 30e6 * 1e3, 0.01);
    EXPECT_NEAR(f.longest_stall->excess_ms, 2000, 0.01); // beyond an ordinary write
    EXPECT_NEAR(f.worst_latency_ms, f.longest_stall->latency_ms, 1e-6);
}

TEST(BenchSustained, AKneeEvenWithStallsOnBothSides)
{
    Shape s;
    s.stall_every = 37;
    s.stall_ns = 300'000'000;
    const auto f = analyse_sustained(trace(s));
    ASSERT_TRUE(f.knee_bytes);
    EXPECT_NEAR(static_cast<double>(*f.knee_bytes), 64.0 * MiB, 0.05 * 64 * MiB);
    EXPECT_EQ(f.stall_count, 512u / 37);
    EXPECT_NEAR(f.longest_stall->latency_ms, 300 + 512.0 * KiB / 12e6 * 1e3, 0.01);
}

TEST(BenchSustained, ASmallBufferAtTheStartIsNoKnee)
{
    Shape s;
    s.cache = 2 * MiB; // below min_side_bytes: a DRAM buffer, not an SLC cache
    EXPECT_FALSE(analyse_sustained(trace(s)).knee_bytes);
}

TEST(BenchSustained, PercentilesAndSummaryAreBounded)
{
    Shape s;
    s.total = 1024 * MiB;
    const auto f = analyse_sustained(trace(s));
    EXPECT_LE(f.trace.size(), 200u);
    EXPECT_GE(f.trace.size(), 100u);
    EXPECT_EQ(f.trace.back().written, 1024 * MiB);
    EXPECT_NEAR(f.trace.front().mb_s, 90, 0.1);
    EXPECT_NEAR(f.trace.back().mb_s, 12, 0.1);
    // 1984 of 2048 writes at 12 MB/s: p99.9 is one of them.
    EXPECT_NEAR(f.p999_latency_ms, 512.0 * KiB / 12e6 * 1e3, 0.5);
}

TEST(BenchSustained, RecordingBudgetAbsorbsTheWorstDeficit)
{
    // 30 MB/s recorder, card at 60 MB/s with one 500 ms stall: while it
    // stalls the recorder makes 15 MB more, on top of the write's own data
    // and what piled up while that write was waiting for its data.
    Shape s;
    s.cache = 0;
    s.native = 60e6;
    s.first_stall_at = 100;
    s.stall_ns = 500'000'000;
    const auto t = trace(s);
    const auto b = recording_budget(t, 30e6, 60e6);
    ASSERT_TRUE(b.keeps_up);
    ASSERT_TRUE(b.buffer_ms);
    const double write_ms = 512.0 * KiB / 60e6 * 1e3;
    // The stalled write starts once its 512 KiB exist: the buffer then holds
    // them and fills for the write's whole time.
    const double expect_bytes = 512.0 * KiB + 30e6 * (500 + write_ms) / 1e3;
    EXPECT_NEAR(static_cast<double>(*b.buffer_bytes), expect_bytes, 2);
    EXPECT_NEAR(*b.buffer_ms, expect_bytes / 30e6 * 1e3, 0.01);
    EXPECT_NE(b.text.find("ms of buffer at 30 MB/s"), std::string::npos) << b.text;
}

TEST(BenchSustained, RecordingBudgetSaysWhenTheCardCannotKeepUp)
{
    const auto t = trace({});
    const auto b = recording_budget(t, 30e6, 12e6);
    EXPECT_FALSE(b.keeps_up);
    EXPECT_FALSE(b.buffer_bytes);
    EXPECT_EQ(b.text, "a recorder at 30 MB/s cannot keep up: the card sustains 12 MB/s");
}

TEST(BenchSustained, RecoveryCountsTheBytesAtBurstSpeed)
{
    Shape s;
    s.cache = 24 * MiB;
    s.total = 64 * MiB;
    const auto r = analyse_recovery(trace(s), 60, 90);
    EXPECT_EQ(r.recovered_bytes, 24 * MiB);
    EXPECT_FALSE(r.complete);
    s.cache = 0;
    EXPECT_EQ(analyse_recovery(trace(s), 60, 90).recovered_bytes, 0u);
    s.cache = 128 * MiB;
    const auto all = analyse_recovery(trace(s), 60, 90);
    EXPECT_TRUE(all.complete);
    EXPECT_EQ(all.recovered_bytes, 64 * MiB);
}

TEST(BenchSustainedClasses, PerAuSpeedsBySpecMethod)
{
    Shape s;
    s.total = 64 * MiB;
    s.cache = 32 * MiB;
    s.burst = 40e6;
    s.native = 20e6;
    const auto aus = au_speeds(trace(s), 8 * MiB);
    ASSERT_EQ(aus.size(), 8u);
    EXPECT_NEAR(aus[0].mb_s, 40, 0.01);
    EXPECT_NEAR(aus[7].mb_s, 20, 0.01);
    EXPECT_EQ(aus[5].index, 5u);
    EXPECT_EQ(aus[5].written_before, 40 * MiB);
    EXPECT_EQ(slowest_au(aus)->mb_s, aus[4].mb_s);
}

TEST(BenchSustainedClasses, V30FailureNamesTheAuAndTheStall)
{
    Shape s;
    s.total = 64 * MiB;
    s.cache = 0;
    s.native = 40e6;
    s.first_stall_at = 37; // in AU 2 (16 writes an AU)
    s.stall_ns = 412'000'000;
    SuiteFacts f;
    f.sd_card = true;
    f.claims.known = true;
    f.claims.video_class = 30;
    f.claims.uhs_grade = 1;
    const auto v = sustained_class_verdicts(au_speeds(trace(s), 8 * MiB), f, true);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].claim, "UHS speed grade U1 (slowest AU, spec method)");
    EXPECT_EQ(v[0].result, VerdictResult::pass);
    EXPECT_EQ(v[1].result, VerdictResult::fail);
    EXPECT_EQ(v[1].why.rfind("AU 2: 13.5 MB/s < 30: a 425 ms stall at 18.5 MiB;", 0), 0u) << v[1].why;
}

TEST(BenchSustainedClasses, UniformlySlowAndUsedAusAreSaid)
{
    Shape s;
    s.total = 32 * MiB;
    s.cache = 0;
    s.native = 20e6;
    SuiteFacts f;
    f.sd_card = true;
    f.claims.known = true;
    f.claims.video_class = 30;
    const auto v = sustained_class_verdicts(au_speeds(trace(s), 8 * MiB), f, false);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].result, VerdictResult::fail);
    EXPECT_NE(v[0].why.find("its writes were uniformly slow"), std::string::npos) << v[0].why;
    EXPECT_NE(v[0].why.find("not erased first"), std::string::npos) << v[0].why;
}
