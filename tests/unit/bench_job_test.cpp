#include "bench/data.h"
#include "bench/job.h"
#include "bench/suites.h"

#include <gtest/gtest.h>
#include <set>
#include <stdexcept>
#include <vector>

using namespace mmc::bench;

TEST(BenchJob, RwNamesAreFios)
{
    EXPECT_EQ(parse_rw("read"), (Rw{Pattern::sequential, Direction::read}));
    EXPECT_EQ(parse_rw("write"), (Rw{Pattern::sequential, Direction::write}));
    EXPECT_EQ(parse_rw("randread"), (Rw{Pattern::random, Direction::read}));
    EXPECT_EQ(parse_rw("randwrite"), (Rw{Pattern::random, Direction::write}));
    EXPECT_FALSE(parse_rw("randrw"));
    EXPECT_FALSE(parse_rw("trim"));
    for (auto name : {"read", "write", "randread", "randwrite"}) EXPECT_EQ(to_string(*parse_rw(name)), name);
}

TEST(BenchJob, Names)
{
    Job j;
    j.rw = *parse_rw("randread");
    j.block_size = 4096;
    EXPECT_EQ(default_name(j), "randread-4k");
    j.iodepth = 32;
    EXPECT_EQ(default_name(j), "randread-4k-qd32");
    j = Job{};
    j.rw = *parse_rw("write");
    j.block_size = 16u << 20;
    EXPECT_EQ(default_name(j), "seqwrite-16M");
    EXPECT_EQ(size_label(512), "512");
    EXPECT_EQ(size_label(1536), "1536");
    EXPECT_EQ(size_label(512 * 1024), "512k");
}

TEST(BenchJob, Validation)
{
    Job j;
    EXPECT_NO_THROW(validate(j));
    j.block_size = 256;
    EXPECT_THROW(validate(j), std::invalid_argument);
    j.block_size = 1000;
    EXPECT_THROW(validate(j), std::invalid_argument);
    j.block_size = 32u << 20;
    EXPECT_THROW(validate(j), std::invalid_argument);
    j.block_size = 16u << 20;
    EXPECT_NO_THROW(validate(j));
    j.iodepth = 4;
    EXPECT_THROW(validate(j), std::invalid_argument); // psync is QD1
    j.runner = EngineKind::io_uring;
    EXPECT_NO_THROW(validate(j));
    j.iodepth = 0;
    EXPECT_THROW(validate(j), std::invalid_argument);
    j.iodepth = 1;
    EXPECT_EQ(engine_from_text("libaio"), std::nullopt);
    EXPECT_EQ(engine_from_text("io_uring"), EngineKind::io_uring);
    EXPECT_EQ(to_string(EngineKind::psync), "psync");
    j.runner = EngineKind::psync;
    j.runtime_s = 0;
    EXPECT_THROW(validate(j), std::invalid_argument);
}

TEST(BenchJob, RegionAlignsToTheAu)
{
    constexpr uint64_t MiB = 1 << 20, AU = 4 * MiB;
    Job j;
    j.block_size = 512 * 1024;
    // Whole device.
    Region r = plan_region(j, 64 * MiB, AU);
    EXPECT_EQ(r.offset, 0u);
    EXPECT_EQ(r.length, 64 * MiB);
    // Offset rounds up, length rounds down to whole AUs.
    j.offset = 1 * MiB;
    j.length = 13 * MiB;
    r = plan_region(j, 64 * MiB, AU);
    EXPECT_EQ(r.offset, 4 * MiB);
    EXPECT_EQ(r.length, 12 * MiB);
    // Clipped at the end.
    j.offset = 60 * MiB;
    j.length = 40 * MiB;
    r = plan_region(j, 64 * MiB, AU);
    EXPECT_EQ(r.offset, 60 * MiB);
    EXPECT_EQ(r.length, 4 * MiB);
    // Smaller than an AU: whole blocks.
    j.offset = 0;
    j.length = 3 * MiB + 100;
    r = plan_region(j, 64 * MiB, AU);
    EXPECT_EQ(r.length, 3 * MiB);
    // Nothing left.
    j.length = 1000;
    EXPECT_THROW(plan_region(j, 64 * MiB, AU), std::invalid_argument);
    j.offset = 64 * MiB;
    EXPECT_THROW(plan_region(j, 64 * MiB, AU), std::invalid_argument);
    j.offset = 63 * MiB; // rounds up past the end
    j.length.reset();
    EXPECT_THROW(plan_region(j, 64 * MiB, AU), std::invalid_argument);
}

TEST(BenchSuites, Quick)
{
    const auto jobs = suite_jobs(Suite::quick, {});
    std::vector<std::string> names;
    double budget = 0;
    for (const auto& j : jobs) names.push_back(j.name), budget += j.runtime_s + j.warmup_s;
    EXPECT_EQ(names, (std::vector<std::string>{"seqread-4M", "seqwrite-4M", "randread-4k", "randwrite-4k"}));
    EXPECT_LE(budget, 60); // a one-minute overview
    for (const auto& j : jobs) EXPECT_EQ(j.iodepth, 1u);
}

TEST(BenchSuites, IozoneRecordsAndRandomSizes)
{
    const auto jobs = suite_jobs(Suite::iozone, {});
    std::set<std::string> names;
    for (const auto& j : jobs) names.insert(j.name);
    for (auto n : {"seqwrite-4k", "seqread-4k", "seqwrite-512k", "seqread-512k", "seqwrite-16M", "seqread-16M",
                   "randwrite-1k", "randread-1k", "randwrite-4k", "randread-4k", "randwrite-16k", "randread-16k"})
        EXPECT_TRUE(names.count(n)) << n;
    EXPECT_EQ(jobs.size(), 12u);
}

TEST(BenchSuites, A2AddsQueuedJobsOnlyWhenTheHostQueues)
{
    EXPECT_EQ(suite_jobs(Suite::a2, {}).size(), 3u);
    SuiteOptions o;
    o.queue_depth = 32;
    const auto jobs = suite_jobs(Suite::a2, o);
    ASSERT_EQ(jobs.size(), 5u);
    EXPECT_EQ(jobs[2].name, "randread-4k-qd32");
    EXPECT_EQ(jobs[2].runner, EngineKind::io_uring);
    EXPECT_EQ(jobs.back().name, "seqwrite-512k-sustained");
    EXPECT_EQ(jobs.back().ci_target_pct, 0);
}

TEST(BenchSuites, ClassWritesWholeAusOnce)
{
    SuiteOptions o;
    o.au_bytes = 16u << 20;
    const auto jobs = suite_jobs(Suite::speed_class, o);
    ASSERT_EQ(jobs.size(), 1u);
    EXPECT_EQ(jobs[0].block_size, 512u * 1024);
    EXPECT_TRUE(jobs[0].writes());
    EXPECT_EQ(jobs[0].unit_bytes, 16u << 20);
    EXPECT_TRUE(jobs[0].one_pass);
    EXPECT_EQ(jobs[0].length, uint64_t{8} * (16u << 20));
    EXPECT_EQ(jobs[0].warmup_s, 0);
}

TEST(BenchSuites, OverridesAndUnknown)
{
    SuiteOptions o;
    o.runtime_s = 2;
    o.warmup_s = 0.25;
    o.length = 1u << 30;
    for (const auto& j : suite_jobs(Suite::a1, o)) {
        EXPECT_EQ(j.runtime_s, 2);
        EXPECT_EQ(j.length, 1u << 30);
        if (j.name != "seqwrite-512k-sustained") EXPECT_EQ(j.warmup_s, 0.25);
        else EXPECT_EQ(j.warmup_s, 0); // sustained: nothing discarded
    }
    EXPECT_EQ(suite_from_text("class"), Suite::speed_class);
    EXPECT_EQ(suite_from_text("fast"), std::nullopt);
    EXPECT_EQ(suite_from_text("custom"), std::nullopt);
    for (Suite s : all_suites()) EXPECT_EQ(suite_from_text(to_string(s)), s) << to_string(s);
    EXPECT_EQ(suite_list(), "quick, iozone, a1, a2, class, state, sustained");
}

TEST(BenchData, StampsMakeEverySectorUnique)
{
    Prng prng(42);
    std::vector<std::byte> buf(64 * 1024);
    fill_random(buf, prng);
    std::set<std::vector<std::byte>> sectors;
    for (uint64_t write = 1; write <= 8; ++write) {
        stamp_sectors(buf, write, prng);
        for (std::size_t at = 0; at < buf.size(); at += 512) sectors.emplace(buf.begin() + at, buf.begin() + at + 512);
    }
    EXPECT_EQ(sectors.size(), 8u * buf.size() / 512);
}

TEST(BenchData, FreshSeedsDiffer)
{
    EXPECT_NE(fresh_seed(), fresh_seed());
    Prng a(1), b(1), c(2);
    EXPECT_EQ(a.next(), b.next());
    EXPECT_NE(a.next(), c.next());
}

TEST(BenchData, BelowIsInRangeAndSpread)
{
    Prng p(9);
    std::vector<int> hits(10);
    for (int i = 0; i < 100000; ++i) {
        const auto v = p.below(10);
        ASSERT_LT(v, 10u);
        ++hits[v];
    }
    for (int h : hits) EXPECT_NEAR(h, 10000, 500);
}

TEST(BenchData, PortableHighMultiplyMatchesTheNativeOne)
{
    Prng p(3);
    for (int i = 0; i < 100000; ++i) {
        const uint64_t a = p.next(), b = i % 3 ? p.next() : p.next() >> (i % 64);
        ASSERT_EQ(Prng::mul_high_portable(a, b), Prng::mul_high(a, b)) << a << " * " << b;
    }
    EXPECT_EQ(Prng::mul_high_portable(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
    EXPECT_EQ(Prng::mul_high_portable(uint64_t{1} << 63, 2), 1u);
}
