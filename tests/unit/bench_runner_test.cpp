// The runner against a simulated device of known speed on a manual clock:
// rates, latencies, rounds, stalls, per-AU speeds and stops come out exact.
#include "bench_sim_engine.h"
#include "bench/runner.h"

#include <gtest/gtest.h>
#include <set>

using namespace mmc::bench;

namespace {

constexpr uint64_t MiB = 1 << 20;

Job job(const char* rw, uint32_t bs, double runtime = 10, double warmup = 0)
{
    Job j;
    j.rw = *parse_rw(rw);
    j.block_size = bs;
    j.runtime_s = runtime;
    j.warmup_s = warmup;
    j.ci_target_pct = 0;
    j.name = default_name(j);
    return j;
}

RunControl control(const Clock& clock)
{
    RunControl c;
    c.clock = &clock;
    c.seed = 1;
    return c;
}

// Records every request it is given, then hands it to a simulated device.
class Recording final : public Engine {
public:
    Recording(ManualClock& clock, SimDevice dev, unsigned depth, std::size_t bytes) : sim_(clock, dev, depth, bytes) {}
    std::string_view name() const override { return "recording"; }
    unsigned depth() const override { return sim_.depth(); }
    std::byte* buffer(uint32_t slot) override { return sim_.buffer(slot); }
    void queue(const IoRequest& io) override
    {
        requests.push_back(io);
        sim_.queue(io);
    }
    std::size_t reap(std::span<IoResult> out, std::size_t min) override { return sim_.reap(out, min); }
    std::vector<IoRequest> requests;

private:
    SimEngine sim_;
};

} // namespace

TEST(BenchRunner, SequentialReadAtAKnownRate)
{
    ManualClock clock;
    SimDevice dev;
    dev.read_bytes_per_s = 20e6;
    dev.access_ns = 0;
    SimEngine e(clock, dev, 1, MiB);
    const auto r = run_job(e, job("read", MiB, 5), Region{0, 64 * MiB}, control(clock));
    EXPECT_EQ(r.stop_reason, mmc::bench::StopReason::runtime);
    EXPECT_FALSE(r.partial);
    EXPECT_NEAR(r.mb_s, 20.0, 1e-6);
    EXPECT_NEAR(r.iops, 20e6 / MiB, 1e-6);
    EXPECT_EQ(r.bytes, r.ios * MiB);
    EXPECT_NEAR(r.seconds, 5.0, 0.06); // the last I/O ends past the budget
    const double lat_ns = MiB / 20e6 * 1e9;
    EXPECT_NEAR(r.latency.percentile(50), lat_ns, lat_ns * 0.004);
    EXPECT_NEAR(static_cast<double>(r.latency.max()), lat_ns, 1);
    ASSERT_TRUE(r.ci95_pct);
    EXPECT_NEAR(*r.ci95_pct, 0, 0.5);
    EXPECT_GE(r.round_mb_s.size(), 5u);
}

TEST(BenchRunner, AccessTimeAndTransferAddUp)
{
    ManualClock clock;
    SimDevice dev;
    dev.read_bytes_per_s = 40e6;
    dev.access_ns = 1'000'000; // 1 ms
    SimEngine e(clock, dev, 1, 4096);
    const auto r = run_job(e, job("randread", 4096, 2), Region{0, 64 * MiB}, control(clock));
    const double per_io_s = 1e-3 + 4096 / 40e6;
    EXPECT_NEAR(r.iops, 1 / per_io_s, 0.5);
    EXPECT_NEAR(r.latency.percentile(99.9), per_io_s * 1e9, per_io_s * 1e9 * 0.004);
}

TEST(BenchRunner, WarmupIsDiscarded)
{
    ManualClock clock;
    SimDevice dev;
    dev.access_ns = 0;
    dev.read_bytes_per_s = 10e6;
    SimEngine e(clock, dev, 1, MiB);
    const auto r = run_job(e, job("read", MiB, 2, 1), Region{0, 64 * MiB}, control(clock));
    EXPECT_GT(r.warmup_ios, 5u);
    EXPECT_NEAR(r.warmup_s, 1.0, 0.11);
    EXPECT_EQ(e.ios(), r.ios + r.warmup_ios);
    EXPECT_NEAR(r.seconds, 2.0, 0.11);
    EXPECT_EQ(r.latency.count(), r.ios);
}

TEST(BenchRunner, IoCountLimit)
{
    ManualClock clock;
    SimEngine e(clock, SimDevice{}, 1, 4096);
    Job j = job("randwrite", 4096, 100);
    j.ios = 123;
    const auto r = run_job(e, j, Region{0, 64 * MiB}, control(clock));
    EXPECT_EQ(r.ios, 123u);
    EXPECT_EQ(r.stop_reason, mmc::bench::StopReason::ios);
    EXPECT_EQ(e.bytes_written(), 123u * 4096);
}

TEST(BenchRunner, StopsWhenTheIntervalIsNarrow)
{
    ManualClock clock;
    SimEngine e(clock, SimDevice{}, 1, 64 * 1024);
    Job j = job("read", 64 * 1024, 100);
    j.ci_target_pct = 2;
    const auto r = run_job(e, j, Region{0, 64 * MiB}, control(clock));
    EXPECT_TRUE(r.converged);
    EXPECT_EQ(r.stop_reason, mmc::bench::StopReason::converged);
    EXPECT_EQ(r.round_mb_s.size(), static_cast<std::size_t>(min_rounds));
    EXPECT_NEAR(r.seconds, min_rounds * round_seconds(100), 0.05); // not the whole 100 s
}

TEST(BenchRunner, SequentialOffsetsWrapInsideTheRegion)
{
    ManualClock clock;
    Recording e(clock, SimDevice{}, 1, 64 * 1024);
    Job j = job("read", 64 * 1024);
    j.ios = 40;
    const Region region{8 * MiB, MiB}; // 16 blocks
    run_job(e, j, region, control(clock));
    ASSERT_EQ(e.requests.size(), 40u);
    for (std::size_t i = 0; i < e.requests.size(); ++i)
        EXPECT_EQ(e.requests[i].offset, region.offset + (i % 16) * 64 * 1024) << i;
}

TEST(BenchRunner, RandomOffsetsAreAlignedInsideTheRegionAndSpread)
{
    ManualClock clock;
    Recording e(clock, SimDevice{}, 1, 4096);
    Job j = job("randread", 4096);
    j.ios = 20000;
    const Region region{4 * MiB, 4 * MiB}; // 1024 blocks
    run_job(e, j, region, control(clock));
    std::set<uint64_t> seen;
    for (const auto& io : e.requests) {
        ASSERT_GE(io.offset, region.offset);
        ASSERT_LT(io.offset, region.offset + region.length);
        ASSERT_EQ(io.offset % 4096, 0u);
        ASSERT_FALSE(io.write);
        seen.insert(io.offset);
    }
    EXPECT_GT(seen.size(), 1000u); // nearly every block of 1024 after 20000 draws
}

TEST(BenchRunner, WriteStallsAboveTheBusyLimitAreCountedAndListed)
{
    ManualClock clock;
    SimDevice dev;
    dev.write_bytes_per_s = 10e6;
    dev.access_ns = 0;
    dev.stall_every_writes = 50;
    dev.stall_ns = 300'000'000; // 300 ms, above the SD spec's 250 ms
    SimEngine e(clock, dev, 1, 64 * 1024);
    Job j = job("write", 64 * 1024);
    j.ios = 500;
    const auto r = run_job(e, j, Region{0, 64 * MiB}, control(clock));
    EXPECT_EQ(r.stalls_over_250ms, 10u);
    ASSERT_EQ(r.stalls.size(), 10u);
    EXPECT_NEAR(r.stalls[0].latency_ms, 300 + 64 * 1024 / 10e6 * 1e3, 0.01);
    EXPECT_EQ(r.stalls[0].offset, 49u * 64 * 1024);
    EXPECT_NEAR(static_cast<double>(r.latency.max()), 306.5536e6, 1e3);
}

TEST(BenchRunner, ReadsNeverCountAsStalls)
{
    ManualClock clock;
    SimDevice dev;
    dev.access_ns = 400'000'000;
    SimEngine e(clock, dev, 1, 4096);
    Job j = job("randread", 4096);
    j.ios = 3;
    EXPECT_EQ(run_job(e, j, Region{0, MiB}, control(clock)).stalls_over_250ms, 0u);
}

TEST(BenchRunner, PerAuSpeeds)
{
    ManualClock clock;
    SimDevice dev;
    dev.write_bytes_per_s = 8e6;
    dev.access_ns = 0;
    SimEngine e(clock, dev, 1, 512 * 1024);
    Job j = job("write", 512 * 1024, 1000);
    j.unit_bytes = 4 * MiB;
    j.ios = 8 * 4 * MiB / (512 * 1024);
    const auto r = run_job(e, j, Region{0, 32 * MiB}, control(clock));
    ASSERT_EQ(r.unit_mb_s.size(), 8u);
    for (double v : r.unit_mb_s) EXPECT_NEAR(v, 8.0, 1e-6);
}

TEST(BenchRunner, QueuedIosOnASerialDeviceKeepItsRate)
{
    ManualClock clock;
    SimDevice dev;
    dev.read_bytes_per_s = 50e6;
    dev.access_ns = 0;
    SimEngine e(clock, dev, 8, 4096);
    Job j = job("randread", 4096, 1);
    j.iodepth = 8;
    j.runner = EngineKind::io_uring;
    const auto r = run_job(e, j, Region{0, 64 * MiB}, control(clock));
    EXPECT_NEAR(r.mb_s, 50.0, 0.05);
    // Each I/O waits behind the seven ahead of it: latency = 8 transfers.
    EXPECT_NEAR(r.latency.percentile(50), 8 * 4096 / 50e6 * 1e9, 8 * 4096 / 50e6 * 1e9 * 0.01);
}

TEST(BenchRunner, AnIoErrorStopsTheJobWithPartialResults)
{
    ManualClock clock;
    SimDevice dev;
    dev.fail_after_ios = 100;
    dev.fail_errno = 5; // EIO
    SimEngine e(clock, dev, 1, 4096);
    const auto r = run_job(e, job("randread", 4096), Region{0, 64 * MiB}, control(clock));
    EXPECT_TRUE(r.partial);
    EXPECT_EQ(r.stop_reason, mmc::bench::StopReason::error);
    EXPECT_EQ(r.error_errno, 5);
    EXPECT_NE(r.error.find("Input/output error"), std::string::npos) << r.error;
    EXPECT_EQ(r.ios, 100u);
    EXPECT_GT(r.iops, 0);
}

TEST(BenchRunner, AnErrorDuringWarmupEndsTheJob)
{
    ManualClock clock;
    SimDevice dev;
    dev.fail_after_ios = 3;
    dev.fail_errno = 19; // ENODEV
    SimEngine e(clock, dev, 1, 4096);
    const auto r = run_job(e, job("randread", 4096, 10, 1), Region{0, 64 * MiB}, control(clock));
    EXPECT_TRUE(r.partial);
    EXPECT_EQ(r.error_errno, 19);
    EXPECT_EQ(r.ios, 0u);
    EXPECT_EQ(e.ios(), 4u);
}

TEST(BenchRunner, CtrlCStopsCleanly)
{
    ManualClock clock;
    SimEngine e(clock, SimDevice{}, 1, 4096);
    std::atomic<bool> stop{true};
    RunControl c = control(clock);
    c.stop = &stop;
    const auto r = run_job(e, job("randread", 4096, 100), Region{0, 64 * MiB}, c);
    EXPECT_TRUE(r.partial);
    EXPECT_EQ(r.stop_reason, mmc::bench::StopReason::interrupted);
    EXPECT_LT(r.seconds, 0.3);
}

TEST(BenchRunner, ARemovedCardStopsCleanly)
{
    ManualClock clock;
    SimEngine e(clock, SimDevice{}, 1, 4096);
    int checks = 0;
    RunControl c = control(clock);
    c.check = [&]() -> std::optional<std::string> {
        if (++checks < 3) return std::nullopt;
        return std::string("card removed");
    };
    const auto r = run_job(e, job("randread", 4096, 100), Region{0, 64 * MiB}, c);
    EXPECT_TRUE(r.partial);
    EXPECT_EQ(r.stop_reason, mmc::bench::StopReason::removed);
    EXPECT_EQ(r.error, "card removed");
    EXPECT_GT(r.ios, 0u);
}

TEST(BenchRunner, ProgressIsReported)
{
    ManualClock clock;
    SimEngine e(clock, SimDevice{}, 1, 4096);
    int calls = 0;
    RunControl c = control(clock);
    c.on_progress = [&](const Progress& p) {
        ++calls;
        EXPECT_EQ(p.job->name, "randread-4k");
    };
    run_job(e, job("randread", 4096, 2), Region{0, 64 * MiB}, c);
    EXPECT_GE(calls, 8);
}

TEST(BenchRunner, RoundLength)
{
    EXPECT_DOUBLE_EQ(round_seconds(10), 1);
    EXPECT_DOUBLE_EQ(round_seconds(0.5), 0.1);
    EXPECT_DOUBLE_EQ(round_seconds(120), 2);
}
