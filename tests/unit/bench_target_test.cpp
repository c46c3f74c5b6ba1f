// The null (memory-backed) target, the test file and the real engines on
// them: correctness only. Speed claims live in bench/vs-fio.
#include "bench/calibration.h"
#include "bench/engines/engine.h"
#include "bench/runner.h"
#include "bench/target.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <system_error>
#include <unistd.h>
#include <vector>

using namespace mmc::bench;

namespace {

Job quick(const char* rw, uint32_t bs, EngineKind runner = EngineKind::psync, unsigned depth = 1)
{
    Job j;
    j.rw = *parse_rw(rw);
    j.block_size = bs;
    j.runner = runner;
    j.iodepth = depth;
    j.runtime_s = 0.05;
    j.warmup_s = 0.01;
    j.ci_target_pct = 0;
    j.name = default_name(j);
    return j;
}

std::vector<std::byte> contents(const Target& t)
{
    SlotBuffers aligned(1, t.size()); // O_DIRECT needs aligned memory
    EXPECT_EQ(::pread(t.fd(), aligned[0], t.size(), 0), static_cast<ssize_t>(t.size()));
    return {aligned[0], aligned[0] + t.size()};
}

bool io_uring_works()
{
    try {
        make_io_uring_engine(-1, 1, 4096);
        return true;
    } catch (const std::system_error&) {
        return false;
    }
}

} // namespace

TEST(BenchNullTarget, IsMemoryOfTheAskedSize)
{
    const Target t = Target::memory(4u << 20);
    EXPECT_EQ(t.kind(), TargetKind::memory);
    EXPECT_EQ(t.size(), 4u << 20);
    EXPECT_FALSE(t.direct());
    EXPECT_TRUE(t.writable());
    EXPECT_GE(t.fd(), 0);
}

TEST(BenchNullTarget, PsyncReadsEveryIoAndTimesIt)
{
    const Target t = Target::memory(4u << 20);
    auto e = make_engine(EngineKind::psync, t.fd(), 1, 4096);
    const auto r = run_job(*e, quick("randread", 4096), Region{0, t.size()}, {});
    EXPECT_FALSE(r.partial) << r.error;
    EXPECT_GT(r.ios, 10u);
    EXPECT_EQ(r.latency.count(), r.ios);
    EXPECT_EQ(r.bytes, r.ios * 4096);
    EXPECT_GT(r.iops, 0);
    EXPECT_GT(r.latency.min(), 0u);
    EXPECT_LE(r.latency.percentile(50), static_cast<double>(r.latency.max()));
}

TEST(BenchNullTarget, WrittenDataIsFreshAndIncompressible)
{
    const Target t = Target::memory(1u << 20);
    const auto before = contents(t);
    auto e = make_engine(EngineKind::psync, t.fd(), 1, 64 * 1024);
    Job j = quick("write", 64 * 1024);
    j.ios = 16; // the whole 1 MiB once
    j.warmup_s = 0;
    const auto r = run_job(*e, j, Region{0, t.size()}, {});
    ASSERT_EQ(r.ios, 16u);
    const auto after = contents(t);
    std::set<std::vector<std::byte>> sectors;
    std::size_t changed = 0;
    for (std::size_t at = 0; at < after.size(); at += 512) {
        sectors.emplace(after.begin() + static_cast<long>(at), after.begin() + static_cast<long>(at + 512));
        changed += std::memcmp(after.data() + at, before.data() + at, 512) != 0;
    }
    EXPECT_EQ(sectors.size(), after.size() / 512); // no two sectors alike
    EXPECT_EQ(changed, after.size() / 512);         // nothing left from the previous fill
    // Incompressible within each write: byte values spread evenly (256 each
    // in a 64 KiB block, standard deviation 16).
    std::vector<int> hist(256);
    for (std::size_t i = 0; i < 64 * 1024; ++i) ++hist[static_cast<unsigned char>(after[i])];
    for (int h : hist) EXPECT_NEAR(h, 256, 90);
}

TEST(BenchNullTarget, IoUringKeepsTheQueueFull)
{
    if (!io_uring_works()) GTEST_SKIP() << "io_uring unavailable here";
    const Target t = Target::memory(4u << 20);
    auto e = make_engine(EngineKind::io_uring, t.fd(), 8, 4096);
    EXPECT_EQ(e->depth(), 8u);
    const auto r = run_job(*e, quick("randread", 4096, EngineKind::io_uring, 8), Region{0, t.size()}, {});
    EXPECT_FALSE(r.partial) << r.error;
    EXPECT_GT(r.ios, 10u);
    EXPECT_EQ(r.runner, "io_uring");
    Job w = quick("write", 4096, EngineKind::io_uring, 8);
    w.ios = 1024;
    w.warmup_s = 0;
    w.runtime_s = 60; // the count ends it
    const auto wr = run_job(*e, w, Region{0, t.size()}, {});
    EXPECT_EQ(wr.ios, 1024u);
}

TEST(BenchNullTarget, AnIoErrorComesBackAsPartial)
{
    const Target t = Target::memory(1u << 20);
    // Reads past the end of a memfd return 0 bytes: a short read.
    auto e = make_engine(EngineKind::psync, t.fd(), 1, 4096);
    const auto r = run_job(*e, quick("read", 4096), Region{2u << 20, 1u << 20}, {});
    EXPECT_TRUE(r.partial);
    EXPECT_NE(r.error.find("short read"), std::string::npos) << r.error;
    // A bad descriptor: -EBADF.
    auto bad = make_engine(EngineKind::psync, 9999, 1, 4096);
    const auto r2 = run_job(*bad, quick("read", 4096), Region{0, 1u << 20}, {});
    EXPECT_EQ(r2.error_errno, EBADF);
}

TEST(BenchNullTarget, Calibration)
{
    MonotonicClock clock;
    const auto c = calibrate_null_target(EngineKind::psync, 1, clock, 0.05);
    EXPECT_EQ(c.runner, EngineKind::psync);
    EXPECT_GT(c.ios, 0u);
    EXPECT_GT(c.per_io_us, 0);
    EXPECT_NEAR(c.per_io_us * c.iops, 1e6, 1);
    const auto k = calibrate_clock(clock, 1000);
    EXPECT_GT(k.cost_ns, 0);
    EXPECT_EQ(k.source, "CLOCK_MONOTONIC");
}

TEST(BenchEngines, ByName)
{
    EXPECT_THROW(make_engine(EngineKind::psync, 0, 4, 4096), std::invalid_argument);
    auto e = make_engine(EngineKind::psync, 0, 1, 4096);
    EXPECT_EQ(e->name(), "psync");
    EXPECT_EQ(reinterpret_cast<uintptr_t>(e->buffer(0)) % 4096, 0u);
}

TEST(BenchFileTarget, CreatedFilledAndGoneFromTheDirectory)
{
    namespace fs = std::filesystem;
    char tmpl[] = "/tmp/mmc-bench-test.XXXXXX";
    ASSERT_TRUE(::mkdtemp(tmpl));
    const fs::path dir = tmpl;
    {
        const Target t = Target::create_file(dir.string(), 3u << 20);
        EXPECT_EQ(t.kind(), TargetKind::file);
        EXPECT_EQ(t.size(), 3u << 20);
        EXPECT_TRUE(fs::is_empty(dir)); // unlinked at once
        const auto data = contents(t);
        std::size_t zero = 0;
        for (auto b : data) zero += b == std::byte{0};
        EXPECT_LT(zero, data.size() / 100); // filled, not sparse
        auto e = make_engine(EngineKind::psync, t.fd(), 1, 4096);
        const auto r = run_job(*e, quick("randread", 4096), Region{0, t.size()}, {});
        EXPECT_FALSE(r.partial) << r.error;
    }
    EXPECT_TRUE(fs::is_empty(dir));
    // An existing file is never touched.
    const fs::path existing = dir / "keep";
    { std::FILE* f = std::fopen(existing.c_str(), "w"); std::fputs("data", f); std::fclose(f); }
    EXPECT_THROW(Target::create_file(existing.string(), 1u << 20), std::system_error);
    EXPECT_EQ(fs::file_size(existing), 4u);
    // A stop while filling leaves nothing behind.
    std::atomic<bool> stop{true};
    EXPECT_THROW(Target::create_file((dir / "new").string(), 8u << 20, &stop), std::system_error);
    EXPECT_FALSE(fs::exists(dir / "new"));
    fs::remove_all(dir);
}
