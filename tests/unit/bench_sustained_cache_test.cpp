// The sustained suite against the simulator's SLC cache and garbage-
// collection stalls (sim::Params::Sustained), on the virtual clock through
// the session's own phases: the knee within 5% of the model's cache, the
// post-cache speed within 5% of the model's, the longest stall within 10% of
// the modelled one, no knee without a cache, more stalls on a fragmented
// card than on a clean one as the model predicts, and the V30 verdict on
// cards built to pass and to fail it.
#include "bench_sustained_sim.h"
#include "preset_figures.h"
#include "sim/figures.h"
#include "sim/timing.h"

#include <gtest/gtest.h>

using namespace mmc;
using namespace mmc::bench;
using test::run_sustained;

namespace {

constexpr uint64_t MiB = 1 << 20;

// 256 MiB, a 32 MiB SLC cache at 90 MB/s over 20 MB/s native flash, on a
// 100 MB/s bus.
sim::Params cached_card()
{
    sim::Params p = sim::default_params();
    p.size_bytes = 256 * MiB;
    p.timing.command_ns = 100'000;
    p.timing.bus_bytes_per_s = 100e6;
    p.sustained.slc_cache_bytes = 32 * MiB;
    p.sustained.slc_rate = 90e6;
    p.sustained.native_rate = 20e6;
    return p;
}

// Without a cache; a 300 ms stall for every two blocks the FTL makes free.
sim::Params stalling_card(sim::StartState state)
{
    sim::Params p = sim::default_params();
    p.size_bytes = 256 * MiB;
    p.state = state;
    p.sustained.gc_stall_ns = 300'000'000;
    p.sustained.gc_every = 2;
    return p;
}

} // namespace

TEST(BenchSustainedCache, TheKneeIsTheModelsCache)
{
    const sim::Params p = cached_card();
    const auto model = sim::sustained_figures(p);
    const auto r = run_sustained(p).report;
    ASSERT_TRUE(r.sustained);
    const auto& f = r.sustained->figures;
    ASSERT_TRUE(f.knee_bytes);
    EXPECT_NEAR(static_cast<double>(*f.knee_bytes) / static_cast<double>(p.sustained.slc_cache_bytes), 1.0, 0.05)
        << *f.knee_bytes;
    EXPECT_NEAR(static_cast<double>(*f.knee_bytes) / static_cast<double>(model.knee_bytes), 1.0, 0.05);
    EXPECT_NEAR(f.burst_mb_s / model.burst_mb_s, 1.0, 0.05) << f.burst_mb_s << " vs model " << model.burst_mb_s;
    EXPECT_NEAR(f.sustained_mb_s / model.post_cache_mb_s, 1.0, 0.05) << f.sustained_mb_s << " vs model " << model.post_cache_mb_s;
}

TEST(BenchSustainedCache, TheLongestStallIsTheModelledOne)
{
    // A full card (its AUs in order: no merge joins a stall) and a clean one
    // whose FTL keeps a reserve of erased flash (it stalls once that is
    // used up). The stall is what the slowest write took beyond an ordinary
    // one; the host chain costs nothing on the virtual clock.
    sim::Params full = stalling_card(sim::StartState::full), clean = stalling_card(sim::StartState::clean);
    clean.sustained.gc_reserve_bytes = 128 * MiB;
    for (const auto& [p, modelled] : {std::pair{full, sim::sustained_figures(full).full}, {clean, sim::sustained_figures(clean).clean}}) {
        const auto f = run_sustained(p).report.sustained->figures;
        ASSERT_TRUE(f.longest_stall);
        ASSERT_GT(modelled.longest_ns, 0u);
        EXPECT_NEAR(f.longest_stall->excess_ms * 1e6 / static_cast<double>(modelled.longest_ns), 1.0, 0.10)
            << f.longest_stall->excess_ms << " ms vs model " << modelled.longest_ns / 1e6 << " ms";
        EXPECT_EQ(f.stall_count, modelled.count);
    }
    // Stalls spread evenly are steps on one slope, not a knee. (Once the
    // clean card's reserve is used up its speed does fall for good, by a
    // stall every 8 MiB: that is a knee, if not a cache's.)
    EXPECT_FALSE(run_sustained(full).report.sustained->figures.knee_bytes);
}

TEST(BenchSustainedCache, AFragmentedCardStallsMoreThanACleanOneAsTheModelPredicts)
{
    const auto model = sim::sustained_figures(stalling_card(sim::StartState::clean));
    const auto clean = run_sustained(stalling_card(sim::StartState::clean)).report.sustained->figures;
    const auto frag = run_sustained(stalling_card(sim::StartState::fragmented)).report.sustained->figures;
    EXPECT_GT(frag.stall_count, clean.stall_count);
    EXPECT_EQ(clean.stall_count, model.clean.count);
    EXPECT_EQ(frag.stall_count, model.fragmented.count);
}

TEST(BenchSustainedCache, TheRecoveryIsWhatTheIdleTimeFolded)
{
    sim::Params p = cached_card();
    p.sustained.slc_fold_rate = 1e6; // 1 MB/s: 10 s of idle folds 10 MB
    const auto r = run_sustained(p, {}, 10.0).report;
    ASSERT_TRUE(r.sustained && r.sustained->recovery);
    const auto& rec = *r.sustained->recovery;
    EXPECT_FALSE(rec.complete);
    EXPECT_NEAR(static_cast<double>(rec.recovered_bytes) / 10e6, 1.0, 0.10) << rec.recovered_bytes;
}

namespace {

// A V30 preset at a size a test can write whole: 256 MiB, its cache (if it
// has one) scaled to 32 MiB, claiming V30 and U3 as such a card does.
test::Run v30_preset(const std::string& name)
{
    sim::Params p = test::preset(name);
    p.size_bytes = 256 * MiB;
    if (p.sustained.slc_cache_bytes) p.sustained.slc_cache_bytes = 32 * MiB;
    return run_sustained(p, {.video_class = 30, .uhs_grade = 3});
}

} // namespace

TEST(BenchSustainedCache, V30PassesForTheCardsBuiltToPassIt)
{
    for (const char* name : {"v30-honest", "v30-slc-ok"}) {
        const auto run = v30_preset(name);
        const auto* v = test::verdict(run.report, "video speed class V30");
        ASSERT_TRUE(v) << name;
        EXPECT_EQ(v->result, VerdictResult::pass) << name << ": " << v->why;
    }
    // The cached one shows its knee; the honest one none.
    EXPECT_TRUE(v30_preset("v30-slc-ok").report.sustained->figures.knee_bytes);
    EXPECT_FALSE(v30_preset("v30-honest").report.sustained->figures.knee_bytes);
}

TEST(BenchSustainedCache, V30FailsAfterTheCacheThoughTheBurstIsFarAbove)
{
    const auto run = v30_preset("v30-slc-tlc");
    const auto& f = run.report.sustained->figures;
    ASSERT_TRUE(f.knee_bytes);
    EXPECT_GT(f.burst_mb_s, 60);
    EXPECT_LT(f.sustained_mb_s, 30);
    const auto* v = test::verdict(run.report, "video speed class V30");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->result, VerdictResult::fail);
    EXPECT_NE(v->why.find("its writes were uniformly slow"), std::string::npos) << v->why;
}

TEST(BenchSustainedCache, V30FailsOnTheStallsWithTheStallNamed)
{
    const auto run = v30_preset("v30-stalls");
    const auto* v = test::verdict(run.report, "video speed class V30");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->result, VerdictResult::fail);
    // "AU n: 6.7 MB/s < 30: a 5xx ms stall at ..."
    EXPECT_NE(v->why.find(" ms stall at "), std::string::npos) << v->why;
    const auto& f = run.report.sustained->figures;
    ASSERT_TRUE(f.longest_stall);
    EXPECT_NEAR(f.longest_stall->excess_ms, 500, 50);
    EXPECT_FALSE(f.knee_bytes);
}

TEST(BenchSustainedCache, TheJsonAndTextSayTheKneeAndTheBudget)
{
    const auto run = v30_preset("v30-slc-tlc");
    const auto j = report_json(run.report);
    const auto& s = j["sustained"];
    ASSERT_TRUE(s.is_object());
    EXPECT_EQ(s["slc_cache_bytes"], *run.report.sustained->figures.knee_bytes);
    EXPECT_NEAR(s["burst_mb_s"].get<double>(), 92.54, 0.01);
    EXPECT_NEAR(s["sustained_mb_s"].get<double>(), 20.08, 0.01);
    for (const char* key : {"worst_latency_ms", "p999_latency_ms"}) EXPECT_TRUE(s[key].is_number()) << key;
    EXPECT_EQ(s["verdicts"].size(), 2u); // U3 and V30
    EXPECT_EQ(s["recording_budget"]["keeps_up"], false);
    EXPECT_LE(s["trace"].size(), 200u);
    EXPECT_EQ(s["trace"].back()["written"], 256 * MiB);

    const std::string text = sustained_text(*run.report.sustained);
    EXPECT_NE(text.find("burst        92.5 MB/s for the first 32 MiB (the SLC cache)"), std::string::npos) << text;
    EXPECT_NE(text.find("sustained    20.1 MB/s after it"), std::string::npos) << text;
    EXPECT_NE(text.find("a recorder at 30 MB/s cannot keep up: the card sustains 20.1 MB/s"), std::string::npos) << text;

    // v30-honest keeps up: the budget is stated in milliseconds at 30 MB/s.
    const auto honest = v30_preset("v30-honest");
    const auto& b = honest.report.sustained->figures.budget;
    ASSERT_TRUE(b.keeps_up && b.buffer_ms);
    EXPECT_NE(b.text.find("ms of buffer at 30 MB/s"), std::string::npos) << b.text;
}
