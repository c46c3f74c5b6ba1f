// mmc-bench's views (bench/report) of runs made by the session's phases on a
// simulated card with a manual clock, so every figure is exact: the text
// table and the JSON document, whole, against tests/data/views/bench-*.
// MMCKIT_UPDATE_VIEWS=1 rewrites the files (expected_view.h).
#include "bench/session_phases.h"

#include "bench_sim_engine.h"
#include "expected_view.h"

#include <gtest/gtest.h>

using namespace mmc::bench;

namespace {

constexpr uint64_t MiB = 1 << 20;

// Everything a view shows that is not measured: fixed, as a lab's card.
RunReport fixed_report(const char* suite)
{
    RunReport rep;
    rep.suite = suite_from_text(suite);
    rep.kernel = "6.1.0-28-amd64";
    rep.hostname = "lab";
    rep.target = {"/dev/mmcblk0", TargetKind::block, "", 256 * MiB, 512, true, true};
    CardInfo card;
    card.identity.name = "mmc0:aaaa";
    card.identity.type = "SD";
    card.type = mmc::dev::CardType::sd;
    card.identity.product = "SS16G";
    card.identity.manufacturer = "SanDisk (MID 0x03)";
    card.identity.serial = "0x12345678";
    card.identity.date = "2023-05";
    card.identity.capacity_bytes = 15'931'539'456;
    card.identity.host = "mmc0";
    card.identity.device = "/dev/mmcblk0";
    card.identity.rca = 0xaaaa;
    card.block = "mmcblk0";
    card.claims.known = true;
    card.claims.source = "ioctl";
    card.claims.speed_class_mb_s = 10;
    card.claims.uhs_grade = 1;
    card.claims.app_perf_class = 1;
    card.claims.au_bytes = 4 * MiB;
    rep.context.card = card;
    BusInfo bus;
    bus.host = "mmc0";
    bus.controller = "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)";
    bus.mode = "HS";
    bus.timing = "sd high-speed";
    bus.clock_hz = 50'000'000;
    bus.actual_clock_hz = 50'000'000;
    bus.bus_width_bits = 4;
    bus.ceiling_mb_s = 25;
    bus.limit = "card";
    rep.context.bus = bus;
    rep.context.queueing.cache_enabled = false;
    rep.context.queueing.cq_enabled = false;
    rep.cpu.cpu = 1;
    rep.cpu.governor = "performance";
    rep.cpu.cpu_model = "QEMU Virtual CPU";
    rep.cpu.cpus_online = 2;
    rep.clock.cost_ns = 20;
    rep.clock.resolution_ns = 1;
    NullTargetCalibration null;
    null.runner = EngineKind::psync;
    null.ios = 100000;
    null.seconds = 0.5;
    null.iops = 200000;
    null.per_io_us = 5;
    null.p50_us = 4.5;
    rep.null_target.push_back(null);
    return rep;
}

// A suite run through the phases on a card that reads at 20 MB/s and
// writes at 15 MB/s, 100 us per access.
RunReport run(const char* suite, std::optional<std::size_t> stop_after_job = std::nullopt)
{
    RunReport rep = fixed_report(suite);
    SessionOptions o;
    o.device = "/dev/mmcblk0";
    o.suite = suite_from_text(suite).value();
    o.destructive = true;
    o.suite_options.runtime_s = 1;
    JobPlan plan = plan_jobs(o, rep.context, false, rep);
    keep_reads_unless_destructive(plan, o, "/dev/mmcblk0", false, rep);
    const Placement pl = place_jobs(plan.jobs, rep.target.size_bytes, 512, plan.suite_options.au_bytes, rep);
    apply_precondition(plan.precondition, pl.all, [] { return PreconditionResult{}; }, {}, rep);

    ManualClock clock;
    std::atomic<bool> stop{false};
    SessionHooks hooks;
    hooks.stop = &stop;
    std::size_t done = 0;
    hooks.job_done = [&] { stop = stop_after_job && ++done == *stop_after_job; };
    JobDevice device;
    SimDevice card;
    card.write_bytes_per_s = 15e6;
    device.engine = [&](const Job& j) { return std::make_unique<SimEngine>(clock, card, j.iodepth, j.block_size); };
    run_jobs(pl, device, clock, hooks, rep);
    rep.interrupted = rep.partial && stop;
    draw_verdicts(o, rep);
    return rep;
}

// The JSON without the version, which changes with every release.
std::string json_view(const RunReport& rep)
{
    auto doc = report_json(rep);
    doc.erase("version");
    return doc.dump(2) + "\n";
}

} // namespace

TEST(BenchReportViews, QuickSuiteText)
{
    const auto rep = run("quick");
    ASSERT_EQ(rep.jobs.size(), 4u);
    expect_view("bench-quick.txt", report_text(rep, false));
}

TEST(BenchReportViews, QuickSuiteJson)
{
    expect_view("bench-quick.json", json_view(run("quick")));
}

TEST(BenchReportViews, InterruptedRunText)
{
    const auto rep = run("quick", 2);
    ASSERT_EQ(rep.jobs.size(), 2u);
    ASSERT_TRUE(rep.interrupted);
    expect_view("bench-quick-interrupted.txt", report_text(rep, false));
    const auto doc = report_json(rep);
    EXPECT_EQ(doc["interrupted"], true);
}

// A figure with no interval claims no more than three
// significant digits, and the text says it has none; with one, its digits
// follow the interval. The JSON keeps the full number.
TEST(BenchReportViews, FiguresCarryTheirPrecision)
{
    auto rep = run("quick");
    ASSERT_EQ(rep.jobs.size(), 4u);
    auto& none = rep.jobs[2]; // randread-4k: as if 200 I/Os in one round
    none.iops = 21354.5;
    none.mb_s = 87.468;
    none.ios = 200;
    none.ci95_pct.reset();
    auto& wide = rep.jobs[3]; // randwrite-4k: +-2%
    wide.iops = 21354.5;
    wide.mb_s = 87.468;
    wide.ci95_pct = 2.0;
    const std::string text = report_text(rep, false);
    EXPECT_NE(text.find("sim      21400      87.5       -"), std::string::npos) << text;
    EXPECT_NE(text.find("sim      21350      87.5    2.0%"), std::string::npos) << text;
    EXPECT_EQ(text.find("21354.5"), std::string::npos) << text;
    EXPECT_NE(text.find("No CI95 for randread-4k (200 I/Os): too few rounds for an interval; IOPS and MB/s shown to 3 "
                        "significant digits."),
              std::string::npos)
        << text;
    const auto doc = report_json(rep);
    EXPECT_DOUBLE_EQ(doc["jobs"][2]["iops"].get<double>(), 21354.5);
}

TEST(BenchReportViews, IozoneTable)
{
    expect_view("bench-iozone.txt", iozone_table(run("iozone")));
}

TEST(BenchReportViews, LatencyText)
{
    EXPECT_EQ(latency_text(2'350'000), "2.35 ms");
    EXPECT_EQ(latency_text(812'000), "812 us");
    EXPECT_EQ(latency_text(1'200'000'000), "1.20 s");
}
