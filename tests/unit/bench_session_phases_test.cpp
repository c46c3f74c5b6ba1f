// bench::run_session's phases without a device: jobs planned from a suite and
// a card, the writes a read-only run drops, the jobs placed on a target, the
// precondition, and the job loop over a simulated engine on a manual clock.
#include "bench/session_phases.h"

#include "bench_sim_engine.h"

#include <gtest/gtest.h>

using namespace mmc::bench;

namespace {

constexpr uint64_t MiB = 1 << 20;

SessionOptions options(Suite suite)
{
    SessionOptions o;
    o.device = "/dev/mmcblk0";
    o.suite = suite;
    return o;
}

Job job(const char* rw, uint32_t bs, double runtime = 1)
{
    Job j;
    j.rw = *parse_rw(rw);
    j.block_size = bs;
    j.runtime_s = runtime;
    j.warmup_s = 0;
    j.ci_target_pct = 0;
    j.name = default_name(j);
    return j;
}

Context sd_card(uint64_t au_bytes, int cq_depth = 0)
{
    Context c;
    CardInfo card;
    card.identity.type = "SD";
    card.type = mmc::dev::CardType::sd;
    card.identity.product = "SD16G";
    card.identity.capacity_bytes = 15'931'539'456;
    card.claims.au_bytes = au_bytes;
    card.claims.cq_depth = cq_depth;
    c.card = card;
    return c;
}

std::vector<std::string> names(const std::vector<Job>& jobs)
{
    std::vector<std::string> out;
    for (const auto& j : jobs) out.push_back(j.name);
    return out;
}

// The job loop's world: a simulated card on a manual clock, counting the
// engines it hands out.
struct SimWorld {
    ManualClock clock;
    SimDevice card;
    int engines = 0;
    std::optional<std::string> removed_as;
    int erases = 0;
    PreconditionResult erase_result;

    JobDevice device()
    {
        JobDevice d;
        d.engine = [this](const Job& j) -> std::unique_ptr<Engine> {
            ++engines;
            if (j.runner == EngineKind::io_uring) throw std::runtime_error("io_uring_setup: Function not implemented");
            return std::make_unique<SimEngine>(clock, card, j.iodepth, j.block_size);
        };
        d.check = [] { return std::nullopt; };
        d.removed = [this](const JobResult&) { return removed_as; };
        d.erase_all = [this] {
            ++erases;
            return erase_result;
        };
        return d;
    }
};

Placement placed(std::vector<Job> jobs)
{
    RunReport unused;
    return place_jobs(jobs, 256 * MiB, 512, 4 * MiB, unused);
}

} // namespace

// --- planning ---------------------------------------------------------------

TEST(BenchSessionPhases, TheCardsAuSizesTheClassSuite)
{
    RunReport rep;
    const auto plan = plan_jobs(options(Suite::speed_class), sd_card(8 * MiB), false, rep);
    EXPECT_EQ(plan.suite_options.au_bytes, 8 * MiB);
    ASSERT_EQ(plan.jobs.size(), 1u);
    EXPECT_EQ(plan.jobs[0].unit_bytes, 8 * MiB);
    EXPECT_TRUE(plan.writes);
    EXPECT_TRUE(rep.notes.empty());
}

TEST(BenchSessionPhases, AnUnknownAuIsANoteWhereItMatters)
{
    RunReport rep;
    const auto plan = plan_jobs(options(Suite::speed_class), sd_card(0), false, rep);
    EXPECT_EQ(plan.suite_options.au_bytes, 4 * MiB);
    EXPECT_EQ(rep.notes, std::vector<std::string>{"the card's AU is unknown; 4 MiB assumed (an AU given overrides it)"});
    RunReport quick;
    plan_jobs(options(Suite::quick), sd_card(0), false, quick);
    EXPECT_TRUE(quick.notes.empty());
}

TEST(BenchSessionPhases, TheHostsCommandQueueAddsQueuedJobsToA2)
{
    RunReport rep;
    Context c = sd_card(4 * MiB, 16);
    c.queueing.cq_enabled = true;
    const auto plan = plan_jobs(options(Suite::a2), c, false, rep);
    EXPECT_EQ(plan.suite_options.queue_depth, 16u);
    EXPECT_EQ(names(plan.jobs), (std::vector<std::string>{"randread-4k", "randwrite-4k", "randread-4k-qd16",
                                                          "randwrite-4k-qd16", "seqwrite-512k-sustained"}));
}

TEST(BenchSessionPhases, ACustomJobTakesTheRegionOptions)
{
    SessionOptions o = options(Suite::quick);
    o.custom = job("randread", 4096);
    o.custom->ci_target_pct = 5;
    o.suite_options.offset = 8 * MiB;
    o.suite_options.length = 16 * MiB;
    RunReport rep;
    const auto plan = plan_jobs(o, Context{}, false, rep);
    ASSERT_EQ(plan.jobs.size(), 1u);
    EXPECT_EQ(plan.jobs[0].offset, 8 * MiB);
    EXPECT_EQ(plan.jobs[0].length, 16 * MiB);
    EXPECT_FALSE(plan.writes);
    EXPECT_EQ(rep.ci_target_pct, 5);
}

TEST(BenchSessionPhases, AnInvalidJobIsAUsageError)
{
    SessionOptions o = options(Suite::quick);
    o.custom = job("read", 1000);
    RunReport rep;
    EXPECT_THROW(plan_jobs(o, Context{}, false, rep), SessionUsage);
}

TEST(BenchSessionPhases, AFileCannotTakeTheStateSuiteOrAPrecondition)
{
    SessionOptions o = options(Suite::state);
    o.file = "/tmp";
    EXPECT_THROW(check_usage(o), SessionUsage);
    o.suite = Suite::quick;
    EXPECT_NO_THROW(check_usage(o));
    o.precondition = PreconditionMethod::fill;
    EXPECT_THROW(check_usage(o), SessionUsage);
    EXPECT_EQ(precondition_of(options(Suite::state)), PreconditionMethod::fragment);
    EXPECT_EQ(precondition_of(options(Suite::quick)), PreconditionMethod::none);
}

// --- who may write -----------------------------------------------------------

TEST(BenchSessionPhases, AReadOnlyRunDropsTheWriteJobsAndSaysSo)
{
    RunReport rep;
    const SessionOptions o = options(Suite::quick);
    auto plan = plan_jobs(o, Context{}, false, rep);
    keep_reads_unless_destructive(plan, o, "/dev/mmcblk0", false, rep);
    EXPECT_EQ(names(plan.jobs), (std::vector<std::string>{"seqread-4M", "randread-4k"}));
    EXPECT_FALSE(plan.writes);
    ASSERT_EQ(rep.skipped.size(), 2u);
    EXPECT_EQ(rep.skipped[0].job, "seqwrite-4M");
    EXPECT_EQ(rep.skipped[0].why, "write test skipped: read-only run (destructive runs only)");
}

TEST(BenchSessionPhases, DestructiveOrAFileKeepsTheWrites)
{
    for (bool on_file : {false, true}) {
        SessionOptions o = options(Suite::quick);
        o.destructive = !on_file;
        RunReport rep;
        auto plan = plan_jobs(o, Context{}, on_file, rep);
        keep_reads_unless_destructive(plan, o, "/dev/mmcblk0", on_file, rep);
        EXPECT_EQ(plan.jobs.size(), 4u);
        EXPECT_TRUE(plan.writes);
        EXPECT_TRUE(rep.skipped.empty());
    }
}

TEST(BenchSessionPhases, RunsThatCannotBeReadOnlyAreRefused)
{
    auto refusal = [](SessionOptions o) {
        RunReport rep;
        auto plan = plan_jobs(o, sd_card(4 * MiB), false, rep);
        try {
            keep_reads_unless_destructive(plan, o, "/dev/mmcblk0", false, rep);
        } catch (const SessionRefused& e) {
            EXPECT_TRUE(e.hint.empty()); // the library gives the remedy by meaning; cli words it
            return std::string(e.what()) + " | " + std::string(mmc::cli::remedy_text(e.remedy));
        }
        return std::string("not refused");
    };
    EXPECT_EQ(refusal(options(Suite::state)),
              "/dev/mmcblk0: the state suite writes to and erases its region, destroying the data there | add --destructive to allow it");
    SessionOptions custom = options(Suite::quick);
    custom.custom = job("randwrite", 4096);
    EXPECT_EQ(refusal(custom), "/dev/mmcblk0: a write test destroys the data on it | add --destructive to allow it");
    SessionOptions fill = options(Suite::quick);
    fill.precondition = PreconditionMethod::fill;
    EXPECT_EQ(refusal(fill), "/dev/mmcblk0: preconditioning (fill) destroys the data on it | add --destructive to allow it");
}

TEST(BenchSessionPhases, TheConfirmationNamesTheCardAndWhatItHolds)
{
    EXPECT_EQ(write_question("/dev/mmcblk0", sd_card(4 * MiB).card, "vfat \"BOOT\""),
              "mmc-bench will write to /dev/mmcblk0 (SD \"SD16G\", 15.9 GB) and destroy data on it.\n"
              "It holds: vfat \"BOOT\".");
    EXPECT_EQ(write_question("/dev/loop0", std::nullopt, "nothing"),
              "mmc-bench will write to /dev/loop0 and destroy data on it.\nIt holds: nothing.");
    EXPECT_NO_THROW(require_confirmation(mmc::cli::Confirmation::yes, "/dev/mmcblk0"));
    EXPECT_THROW(require_confirmation(mmc::cli::Confirmation::declined, "/dev/mmcblk0"), SessionRefused);
    try {
        require_confirmation(mmc::cli::Confirmation::no_terminal, "/dev/mmcblk0");
        ADD_FAILURE() << "not refused";
    } catch (const SessionRefused& e) {
        EXPECT_EQ(e.remedy, mmc::cli::Remedy::confirm);
        EXPECT_EQ(mmc::cli::error_text(e), "/dev/mmcblk0: refusing to write without confirmation: no terminal to ask on; "
                                           "add --yes to confirm on the command line");
    }
}

// --- placing -------------------------------------------------------------------

TEST(BenchSessionPhases, JobsArePlacedOnTheTargetAndTheOddOnesSkipped)
{
    Job whole = job("read", 4096);
    Job late = job("write", 4096);
    late.offset = 64 * MiB;
    late.length = 32 * MiB;
    Job pass = job("write", 512 * 1024);
    pass.one_pass = true;
    pass.length = 8 * MiB;
    Job small = job("read", 512);
    RunReport rep;
    const auto pl = place_jobs({whole, late, pass, small}, 256 * MiB, 4096, 4 * MiB, rep);
    EXPECT_EQ(names(pl.jobs), (std::vector<std::string>{"seqread-4k", "seqwrite-4k", "seqwrite-512k"}));
    ASSERT_EQ(pl.regions.size(), 3u);
    EXPECT_EQ(pl.regions[1].offset, 64 * MiB);
    EXPECT_EQ(pl.jobs[2].ios, 16u); // one pass over 8 MiB of 512 KiB writes
    EXPECT_EQ(pl.all.offset, 0u);
    EXPECT_EQ(pl.all.length, 256 * MiB);
    ASSERT_EQ(rep.skipped.size(), 1u);
    EXPECT_EQ(rep.skipped[0].why, "block size 512 is not a multiple of the device's 4096-byte logical block");
    Job beyond = job("read", 4096);
    beyond.offset = 512 * MiB;
    EXPECT_THROW(place_jobs({beyond}, 256 * MiB, 4096, 4 * MiB, rep), SessionUsage);
}

// --- precondition and jobs -------------------------------------------------------

TEST(BenchSessionPhases, NoPreconditionLeavesTheCardAsFound)
{
    RunReport rep;
    int ran = 0;
    apply_precondition(PreconditionMethod::none, Region{0, 8 * MiB}, [&] { ++ran; return PreconditionResult{}; }, {}, rep);
    EXPECT_EQ(ran, 0);
    EXPECT_EQ(rep.precondition.how, "as found");
    EXPECT_EQ(rep.precondition.region.length, 8 * MiB);
}

TEST(BenchSessionPhases, APreconditionThatStoppedRunsNoJob)
{
    RunReport rep;
    std::vector<std::string> phases;
    SessionHooks hooks;
    hooks.phase = [&](const std::string& s) { phases.push_back(s); };
    apply_precondition(PreconditionMethod::fill, Region{0, 64 * MiB}, [] {
        PreconditionResult r;
        r.method = PreconditionMethod::fill;
        r.partial = true;
        r.error = "write at offset 4194304 failed: Input/output error";
        return r;
    }, hooks, rep);
    EXPECT_EQ(phases, std::vector<std::string>{"precondition: fill of 64 MiB"});
    EXPECT_TRUE(rep.partial);
    EXPECT_EQ(rep.partial_why, "precondition fill stopped: write at offset 4194304 failed: Input/output error");

    SimWorld w;
    run_jobs(placed({job("read", 4096), job("write", 4096)}), w.device(), w.clock, hooks, rep);
    EXPECT_EQ(w.engines, 0);
    EXPECT_TRUE(rep.jobs.empty());
}

TEST(BenchSessionPhases, AllJobsRunInOrderOnTheirRegions)
{
    SimWorld w;
    RunReport rep;
    std::vector<std::pair<std::size_t, std::size_t>> progress;
    SessionHooks hooks;
    hooks.progress = [&](std::size_t i, std::size_t n, const Progress&) {
        if (progress.empty() || progress.back().first != i) progress.push_back({i, n});
    };
    const auto pl = placed({job("read", 1 << 20), job("write", 1 << 20)});
    run_jobs(pl, w.device(), w.clock, hooks, rep);
    EXPECT_FALSE(rep.partial);
    ASSERT_EQ(rep.jobs.size(), 2u);
    EXPECT_EQ(rep.jobs[0].job.name, "seqread-1M");
    // Each I/O: 100 us of access, then the transfer at 20 MB/s (read) or 10 MB/s (write).
    const double mib = 1 << 20;
    EXPECT_NEAR(rep.jobs[0].mb_s, mib / (1e-4 + mib / 20e6) / 1e6, 1e-6);
    EXPECT_NEAR(rep.jobs[1].mb_s, mib / (1e-4 + mib / 10e6) / 1e6, 1e-6);
    EXPECT_EQ(rep.jobs[1].region.offset, pl.regions[1].offset);
    EXPECT_EQ(progress, (std::vector<std::pair<std::size_t, std::size_t>>{{1, 2}, {2, 2}}));
}

TEST(BenchSessionPhases, StopBetweenJobsReportsInterruptedAndRunsNoLaterJob)
{
    SimWorld w;
    RunReport rep;
    std::atomic<bool> stop{false};
    SessionHooks hooks;
    hooks.stop = &stop;
    hooks.job_done = [&] { stop = true; }; // Ctrl-C as the first job ends
    run_jobs(placed({job("read", 4096), job("write", 4096), job("randread", 4096)}), w.device(), w.clock, hooks, rep);
    EXPECT_EQ(w.engines, 1);
    ASSERT_EQ(rep.jobs.size(), 1u);
    EXPECT_FALSE(rep.jobs[0].partial);
    EXPECT_TRUE(rep.partial);
    EXPECT_EQ(rep.partial_why, "interrupted");
}

TEST(BenchSessionPhases, StopDuringAJobNamesTheJob)
{
    SimWorld w;
    RunReport rep;
    std::atomic<bool> stop{true};
    SessionHooks hooks;
    hooks.stop = &stop;
    Placement pl = placed({job("read", 4096)});
    // Set while the job runs: the loop saw it clear before the job began.
    stop = false;
    hooks.progress = [&](std::size_t, std::size_t, const Progress&) { stop = true; };
    run_jobs(pl, w.device(), w.clock, hooks, rep);
    ASSERT_EQ(rep.jobs.size(), 1u);
    EXPECT_EQ(rep.jobs[0].stop_reason, mmc::bench::StopReason::interrupted);
    EXPECT_EQ(rep.partial_why, "interrupted during seqread-4k");
}

TEST(BenchSessionPhases, AnIoErrorIsAFailingCardUnlessTheCardWasRemoved)
{
    for (bool removed : {false, true}) {
        SimWorld w;
        w.card.fail_after_ios = 10;
        if (removed) w.removed_as = "the device is gone";
        RunReport rep;
        run_jobs(placed({job("read", 4096), job("write", 4096)}), w.device(), w.clock, {}, rep);
        ASSERT_EQ(rep.jobs.size(), 1u) << "no job after the error";
        EXPECT_EQ(rep.jobs[0].stop_reason, mmc::bench::StopReason::error);
        EXPECT_TRUE(rep.partial);
        const std::string& why = rep.partial_why;
        if (removed)
            EXPECT_EQ(why.rfind("the card was removed during seqread-4k (", 0), 0u) << why;
        else
            EXPECT_EQ(why.rfind("seqread-4k failed: ", 0), 0u) << why;
        EXPECT_NE(why.find(removed ? "; the device is gone); results so far are partial"
                                   : " (the card may be failing); results so far are partial"),
                  std::string::npos)
            << why;
    }
}

TEST(BenchSessionPhases, AnUnavailableEngineSkipsItsJobOnly)
{
    SimWorld w;
    RunReport rep;
    Job queued = job("randread", 4096);
    queued.runner = EngineKind::io_uring;
    queued.iodepth = 32;
    queued.name = default_name(queued);
    run_jobs(placed({queued, job("read", 4096)}), w.device(), w.clock, {}, rep);
    ASSERT_EQ(rep.skipped.size(), 1u);
    EXPECT_EQ(rep.skipped[0].job, "randread-4k-qd32");
    EXPECT_EQ(rep.skipped[0].why, "io_uring unavailable: io_uring_setup: Function not implemented");
    ASSERT_EQ(rep.jobs.size(), 1u);
    EXPECT_FALSE(rep.partial);
}

TEST(BenchSessionPhases, TheStateSuiteErasesBetweenItsStatesAndStopsIfTheEraseDoes)
{
    SessionOptions o = options(Suite::state);
    o.destructive = true;
    RunReport planned;
    const auto plan = plan_jobs(o, sd_card(4 * MiB), false, planned);
    for (bool erase_fails : {false, true}) {
        SimWorld w;
        w.erase_result.partial = erase_fails;
        w.erase_result.error = erase_fails ? "CMD38 timed out" : "";
        std::vector<Job> short_jobs = plan.jobs;
        for (auto& j : short_jobs) j.runtime_s = 0.5;
        RunReport rep;
        run_jobs(placed(short_jobs), w.device(), w.clock, {}, rep);
        EXPECT_EQ(w.erases, 1);
        if (erase_fails) {
            EXPECT_EQ(rep.jobs.size(), 2u); // the used state only
            EXPECT_EQ(rep.partial_why, "the erase between the states stopped: CMD38 timed out");
        } else {
            EXPECT_EQ(rep.jobs.size(), 4u);
            EXPECT_FALSE(rep.partial);
            ASSERT_TRUE(rep.state_erase);
        }
    }
}

// --- verdicts ---------------------------------------------------------------------

TEST(BenchSessionPhases, ACustomJobHasNoVerdictsASuiteHasSome)
{
    SimWorld w;
    RunReport rep;
    rep.context = sd_card(4 * MiB);
    run_jobs(placed({job("read", 4096)}), w.device(), w.clock, {}, rep);
    SessionOptions custom = options(Suite::quick);
    custom.custom = job("read", 4096);
    draw_verdicts(custom, rep);
    EXPECT_TRUE(rep.verdicts.empty());
    draw_verdicts(options(Suite::quick), rep);
    EXPECT_FALSE(rep.verdicts.empty());
}
