// The sustained suite on simulated cards, on the virtual clock: the session's
// own planning, placement, job loop and verdicts over sim::Card, so the
// figures it reports are held to the model's parameters exactly.
#include "bench_sustained_sim.h"
#include "sim/figures.h"
#include "sim/params.h"

#include <gtest/gtest.h>

using namespace mmc;
using namespace mmc::bench;

namespace {

constexpr uint64_t MiB = 1 << 20;

using test::Claims;
using test::run_sustained;
using test::verdict;

sim::Params small_card(uint64_t size = 256 * MiB)
{
    sim::Params p = sim::default_params();
    p.size_bytes = size;
    return p;
}

} // namespace

TEST(BenchSustainedSim, WritesTheWholeCardOnceInRecordingUnits)
{
    const auto run = run_sustained(small_card());
    const auto& r = run.report;
    ASSERT_FALSE(r.partial) << r.partial_why;
    ASSERT_TRUE(r.sustained);
    EXPECT_EQ(r.sustained->figures.bytes, run.card_bytes);
    EXPECT_EQ(r.sustained->figures.writes, run.card_bytes / (512 * 1024));
    EXPECT_EQ(r.sustained->ru_bytes, 512u * 1024);
    EXPECT_EQ(r.sustained->aus.size(), run.card_bytes / (4 * MiB));
    EXPECT_TRUE(r.sustained->warnings.empty()) << r.sustained->warnings.front();
}

TEST(BenchSustainedSim, NoKneeWithoutACacheAndTheModelsSpeed)
{
    const sim::Params p = small_card();
    const auto run = run_sustained(p);
    const auto& f = run.report.sustained->figures;
    EXPECT_FALSE(f.knee_bytes);
    const double model = sim::sequential_write_mb_s(p, sim::StartState::clean, 512 * 1024);
    EXPECT_NEAR(f.sustained_mb_s / model, 1.0, 0.05) << f.sustained_mb_s << " vs model " << model;
    EXPECT_NEAR(f.burst_mb_s, f.sustained_mb_s, 1e-9);
}

TEST(BenchSustainedSim, ARegionSmallerThanTheCardWithoutAKneeIsAWarning)
{
    const auto run = run_sustained(small_card(), {}, {}, 64 * MiB);
    ASSERT_TRUE(run.report.sustained);
    EXPECT_EQ(run.report.sustained->figures.bytes, 64 * MiB);
    ASSERT_EQ(run.report.sustained->warnings.size(), 1u);
    EXPECT_NE(run.report.sustained->warnings[0].find("no knee in the 64 MiB written"), std::string::npos);
}

TEST(BenchSustainedSim, AFragmentedCardStallsMoreThanACleanOne)
{
    sim::Params clean = small_card(), fragmented = small_card();
    fragmented.state = sim::StartState::fragmented;
    const auto c = run_sustained(clean).report.sustained->figures;
    const auto f = run_sustained(fragmented).report.sustained->figures;
    EXPECT_GT(f.stall_count, c.stall_count);
    EXPECT_GT(f.worst_latency_ms, c.worst_latency_ms);
}

TEST(BenchSustainedSim, ASlowCardFailsV30UniformlyAndPassesC10)
{
    // The default card writes ~12 MB/s sequentially: C10 holds, V30 does not.
    const auto run = run_sustained(small_card(), {.video_class = 30, .speed_class = 10});
    const auto* v30 = verdict(run.report, "video speed class V30");
    const auto* c10 = verdict(run.report, "speed class C10");
    ASSERT_TRUE(v30 && c10);
    EXPECT_EQ(c10->result, VerdictResult::pass) << c10->why;
    EXPECT_EQ(v30->result, VerdictResult::fail);
    EXPECT_NE(v30->why.find("its writes were uniformly slow"), std::string::npos) << v30->why;
    EXPECT_NE(v30->why.find("not erased first"), std::string::npos) << v30->why;
}

TEST(BenchSustainedSim, TheRecoveryPassRunsAfterTheIdleTime)
{
    const auto run = run_sustained(small_card(), {}, 30.0);
    const auto& r = run.report;
    ASSERT_EQ(r.jobs.size(), 2u);
    ASSERT_TRUE(r.sustained && r.sustained->recovery);
    EXPECT_EQ(r.sustained->recovery->idle_s, 30);
    EXPECT_EQ(r.sustained->recovery->pass_bytes, 256 * MiB); // the whole (small) card again
    // No cache: the pass goes at the one speed there is, all of it "recovered".
    EXPECT_TRUE(r.sustained->recovery->complete);
    // The idle time passed on the clock between the passes.
    EXPECT_GE(r.jobs[1].trace.front().start_ns - r.jobs[0].trace.back().done_ns, 30'000'000'000u);
}

TEST(BenchSustainedSim, CtrlCStopsThePassWithWhatWasMeasured)
{
    const auto run = run_sustained(small_card(), {.video_class = 30}, 30.0, {}, 3.0);
    const auto& r = run.report;
    EXPECT_TRUE(r.partial);
    EXPECT_EQ(r.partial_why, "interrupted during seqwrite-512k-region");
    ASSERT_EQ(r.jobs.size(), 1u); // the recovery pass never starts
    ASSERT_TRUE(r.sustained);
    const auto& f = r.sustained->figures;
    // About 3 s at ~12 MB/s: the writes made so far, each one traced.
    EXPECT_GT(f.bytes, 16 * MiB);
    EXPECT_LT(f.bytes, 64 * MiB);
    EXPECT_EQ(f.writes, r.jobs[0].ios);
    ASSERT_FALSE(r.sustained->warnings.empty());
    EXPECT_NE(r.sustained->warnings[0].find("the pass stopped after"), std::string::npos) << r.sustained->warnings[0];
    // The verdicts rest on the AUs written whole so far.
    const auto* v30 = verdict(r, "video speed class V30");
    ASSERT_TRUE(v30);
    EXPECT_EQ(v30->result, VerdictResult::fail);
}
