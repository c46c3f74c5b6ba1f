// One mmc-bench run from start to end: resolve the target, learn the card
// and bus, decide which jobs may run, check and confirm before writing,
// calibrate, precondition, run the jobs (stopping cleanly on Ctrl-C or a
// vanished card) and draw the verdicts. The tool around it parses options
// and shows the report.
#pragma once

#include "bench/report.h"
#include "bench/suites.h"
#include "cli/confirm.h"
#include "cli/errors.h"
#include "dev/sysfs.h"

#include <atomic>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace mmc::bench {

struct SessionOptions {
    std::string device;                 // DEVICE as named (/dev/mmcblk0, mmcblk0, mmc0, mmc0:4567)
    std::optional<std::string> file;    // --file PATH instead
    Suite suite = Suite::quick;         // ignored with `custom`
    std::optional<Job> custom;
    SuiteOptions suite_options;         // runtime, warm-up, CI, offset, length overrides
    // nothing: the suite's own (fragment for the state suite, else none).
    std::optional<PreconditionMethod> precondition;
    bool destructive = false;
    bool any_device = false;
    std::optional<int> cpu;             // --cpu: pin there; nothing: let the scheduler place the run
    std::optional<uint64_t> au_bytes;   // --au: override the AU
    uint64_t file_bytes = 256u << 20;   // test file size when --size is not given
    dev::SysRoots roots;
    bool use_ioctl = true;
};

struct SessionHooks {
    const std::atomic<bool>* stop = nullptr;
    // "writing to ... destroys ... Continue?" -> the answer.
    std::function<cli::Confirmation(const std::string& question)> confirm;
    std::function<void(const std::string& what)> phase;                 // "calibrating", "filling 64 MiB"
    std::function<void(std::size_t index, std::size_t count, const Progress&)> progress;
    std::function<void(const std::string& note)> note;                  // stderr notes as they happen
    std::function<void()> job_done;                                     // clears a progress line
};

// Refusals (a failure: exit 1) and usage problems (exit 2) before any I/O:
// typed errors whose kind gives the tool's exit status (cli/errors.h).
struct SessionRefused : cli::Error {
    explicit SessionRefused(const std::string& what, cli::Remedy r = cli::Remedy::none)
        : cli::Error(cli::ErrorKind::failure, what, r) {}
};
struct SessionUsage : cli::Error {
    explicit SessionUsage(const std::string& what) : cli::Error(cli::ErrorKind::usage, what) {}
};

// What a run would do (mmc-bench -n): the target, the card and bus, the
// jobs with the regions they would use, the precondition, whether anything
// would be written. Nothing is measured, written or created, and no question
// is asked; a write the run would refuse is refused the same way.
struct DryRun {
    RunReport report; // target, context, jobs (regions, no figures), skipped, notes
    PreconditionMethod precondition = PreconditionMethod::none;
    bool writes = false;
};
DryRun plan_session(const SessionOptions& options, const SessionHooks& hooks);

// Throws SessionUsage, SessionRefused, or std::system_error when the target
// cannot be opened. I/O errors during jobs do not throw: the report comes
// back with partial = true.
RunReport run_session(const SessionOptions& options, const SessionHooks& hooks);

} // namespace mmc::bench
