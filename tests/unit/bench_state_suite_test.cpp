// The state suite: two halves of whole AUs, the erase before the first
// job of the erased state, and the one line that says what erasing bought.
#include "bench/suites.h"

#include <gtest/gtest.h>

using namespace mmc::bench;

namespace {
constexpr uint64_t MiB = 1 << 20;

JobResult result(const std::string& name, double mb_s, double iops)
{
    JobResult r;
    r.job.name = name;
    r.mb_s = mb_s;
    r.iops = iops;
    r.ios = 100;
    return r;
}
} // namespace

TEST(BenchStateSuite, UsedThenErasedOverTwoHalvesOfWholeAus)
{
    SuiteOptions o;
    o.au_bytes = 4 * MiB;
    o.offset = 1 * MiB; // rounded up to the AU
    o.length = 70 * MiB;
    const auto jobs = suite_jobs(Suite::state, o);
    ASSERT_EQ(jobs.size(), 4u);
    EXPECT_EQ(jobs[0].name, state_seq_used);
    EXPECT_EQ(jobs[1].name, state_rand_used);
    EXPECT_EQ(jobs[2].name, state_seq_erased);
    EXPECT_EQ(jobs[3].name, state_rand_erased);
    for (const auto& j : jobs) {
        EXPECT_TRUE(j.writes());
        EXPECT_EQ(*j.offset % (4 * MiB), 0u) << j.name;
        EXPECT_EQ(*j.length, 32 * MiB) << j.name; // 70 MiB -> 68 MiB of AUs -> two halves of 32 MiB
        EXPECT_EQ(j.warmup_s, 0) << j.name << ": a warm-up would change the state it measures";
    }
    EXPECT_EQ(*jobs[0].offset, 4 * MiB);
    EXPECT_EQ(*jobs[1].offset, 36 * MiB);
    EXPECT_TRUE(jobs[0].one_pass);
    EXPECT_FALSE(jobs[1].one_pass);
    EXPECT_FALSE(jobs[0].erase_first || jobs[1].erase_first || jobs[3].erase_first);
    EXPECT_TRUE(jobs[2].erase_first);
}

TEST(BenchStateSuite, DefaultRegionAndTooSmallRegion)
{
    SuiteOptions o;
    o.au_bytes = 12 * MiB;
    const auto jobs = suite_jobs(Suite::state, o);
    EXPECT_EQ(*jobs[0].length, 8 * 12 * MiB);
    o.length = 20 * MiB; // one AU: no two halves
    EXPECT_THROW(suite_jobs(Suite::state, o), std::invalid_argument);
    EXPECT_EQ(suite_from_text("state"), Suite::state);
}

TEST(BenchStateSuite, TheLineSaysWhatErasingBought)
{
    const auto a = result(std::string(state_seq_used), 4.1, 8), b = result(std::string(state_seq_erased), 9.8, 19),
               c = result(std::string(state_rand_used), 0.01, 2.5), d = result(std::string(state_rand_erased), 0.4, 100);
    Outcomes o;
    for (const auto* r : {&a, &b, &c, &d}) o.ran[r->job.name] = r;
    const auto f = state_figures(o);
    EXPECT_NEAR(*f.seq_gain(), 9.8 / 4.1, 1e-9);
    EXPECT_NEAR(*f.rand_gain(), 40, 1e-9);
    EXPECT_EQ(state_line(f), "sequential write 4.10 \u2192 9.80 MB/s after erase (\u00d72.39); "
                             "4 KiB random write 2.5 \u2192 100.0 IOPS after erase (\u00d740.00)");
}

TEST(BenchStateSuite, AMissingFigureIsSaidNotGuessed)
{
    const auto b = result(std::string(state_seq_erased), 9.8, 19);
    Outcomes o;
    o.ran[b.job.name] = &b;
    o.skipped[std::string(state_seq_used)] = "write test skipped: read-only run";
    const auto f = state_figures(o);
    EXPECT_FALSE(f.seq_gain());
    const auto line = state_line(f);
    EXPECT_NE(line.find("sequential write: no used-state figure (write test skipped: read-only run)"), std::string::npos) << line;
    EXPECT_NE(line.find("4 KiB random write: no used-state figure (randwrite-4k-used did not run"), std::string::npos) << line;
}
