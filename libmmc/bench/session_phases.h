// bench::run_session as phases, each a function of what the one before
// handed it: the jobs planned from the suite and the card, the writes a run
// without --destructive must drop, the jobs placed on the opened target,
// the precondition, the job loop and the verdicts. The device, the engines
// and the clock come in from outside (session.cpp passes the real ones), so
// unit tests drive the phases with a simulated engine on a manual clock.
#pragma once

#include "bench/session.h"

#include <functional>
#include <memory>

namespace mmc::bench {

// The suite a session runs: options.suite, or nothing for a custom job.
std::optional<Suite> suite_of(const SessionOptions& options);

// The precondition a session runs: the one asked for, else the suite's own
// (fragment for the state suite, none otherwise).
PreconditionMethod precondition_of(const SessionOptions& options);

// Usage problems that need no device (a file target with the state suite or
// a precondition). Throws SessionUsage.
void check_usage(const SessionOptions& options);

// The jobs a session would run, before anything is opened.
struct JobPlan {
    std::vector<Job> jobs;
    SuiteOptions suite_options;   // as used: with the card's AU and queue depth
    PreconditionMethod precondition = PreconditionMethod::none;
    bool writes = false;          // a job or the precondition writes
};

// From the suite (or the custom job) and what the context says of the card:
// its AU (a note in `report` when it is unknown and matters) and its
// command-queue depth. Sets report.ci_target_pct. Throws SessionUsage for a
// job that does not validate.
JobPlan plan_jobs(const SessionOptions& options, const Context& context, bool on_file, RunReport& report);

// Without `destructive` on a raw device: the write jobs are dropped and
// listed as skipped, unless the run cannot be read-only (the state suite, a
// custom write job, a precondition that writes): then SessionRefused. After
// it, plan.writes says whether the run still writes.
void keep_reads_unless_destructive(JobPlan& plan, const SessionOptions& options, const std::string& path, bool on_file,
                                   RunReport& report);

// What the confirmation asks before writing to `path`; `holds` says what is
// on it now.
std::string write_question(const std::string& path, const std::optional<CardInfo>& card, const std::string& holds);

// The person's answer: SessionRefused unless confirmed.
void require_confirmation(cli::Confirmation answer, const std::string& path);

// The jobs placed on the opened target.
struct Placement {
    std::vector<Job> jobs;        // those that fit, one_pass jobs sized to their region
    std::vector<Region> regions;  // regions[i] is jobs[i]'s
    Region all;                   // spans every region: what a precondition covers
};

// Regions aligned to `align` on a target of `size` bytes; a job whose block
// size is not a multiple of the logical block is skipped (in report). Throws
// SessionUsage for a job that does not fit.
Placement place_jobs(const std::vector<Job>& jobs, uint64_t size, uint32_t logical_block, uint64_t align,
                     RunReport& report);

// The clock's cost and the null target of every (runner, depth) the jobs
// use, psync QD1 always; a failed calibration is a note.
void calibrate(const std::vector<Job>& jobs, const Clock& clock, RunReport& report,
               const std::function<void(const std::string&)>& note);

// Runs the precondition through `run` over `all` (nothing to do: "as found");
// a precondition that stopped makes the report partial, so no job runs.
void apply_precondition(PreconditionMethod method, const Region& all,
                        const std::function<PreconditionResult()>& run, const SessionHooks& hooks, RunReport& report);

// What the job loop needs from the device and the world.
struct JobDevice {
    // The engine for a job; throws when its runner is unavailable (the job
    // is skipped).
    std::function<std::unique_ptr<Engine>(const Job&)> engine;
    // While a job runs: a reason to stop it ("card removed ...").
    std::function<std::optional<std::string>()> check;
    // After a job ended on an I/O error: how it shows that the card was
    // removed, if it was.
    std::function<std::optional<std::string>(const JobResult&)> removed;
    // The state suite's erase of the whole placement between its states.
    std::function<PreconditionResult()> erase_all;
    // The sustained suite's idle time before its recovery pass: returns
    // after `seconds`, or sooner once a stop is asked for.
    std::function<void(double seconds)> idle;
};

// The jobs in order. Stops before a job once hooks.stop is set (partial,
// "interrupted"), and after a job that ended early: interrupted, the card
// removed, or an I/O error (the card may be failing). Nothing runs on a
// report that is already partial.
void run_jobs(const Placement& placement, const JobDevice& device, const Clock& clock, const SessionHooks& hooks,
              RunReport& report);

// The suite's verdicts from the jobs that ran and were skipped, the card's
// claims and the bus (none for a custom job).
void draw_verdicts(const SessionOptions& options, RunReport& report);

} // namespace mmc::bench
