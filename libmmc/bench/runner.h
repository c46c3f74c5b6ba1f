// The job loop shared by every engine: offsets (sequential or random over
// the region), fresh data, a monotonic timestamp before and after each I/O,
// the latency histogram, rounds for the confidence interval, write stalls,
// per-AU speeds, and a clean stop on Ctrl-C, an I/O error or a vanished
// device. Statistics live here, apart from the engines.
#pragma once

#include "bench/clock.h"
#include "bench/engines/engine.h"
#include "bench/histogram.h"
#include "bench/job.h"
#include "bench/sustained.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmc::bench {

// The SD spec's write busy limit: a write taking longer is a stall.
inline constexpr uint64_t stall_threshold_ns = 250'000'000;
inline constexpr std::size_t max_listed_stalls = 100;

struct Stall {
    uint64_t offset = 0;
    double latency_ms = 0;
    double at_s = 0; // since the measured phase began
};

// Why a job stopped. The normal ends: its time budget (runtime), its I/O
// count (ios), a narrow enough interval (converged); the abnormal ones leave
// a partial result: an I/O error, a stop signal, the device gone. warmup is
// the warm-up's own end, never a job's.
enum class StopReason { none, runtime, ios, converged, warmup, error, interrupted, removed };
// "runtime", ..., "removed" ("" for none): the JSON's words.
const char* to_string(StopReason);
bool is_abnormal(StopReason);

struct JobResult {
    Job job;
    Region region;
    std::string runner;
    uint64_t ios = 0;       // measured I/Os (warm-up excluded)
    uint64_t bytes = 0;
    double seconds = 0;     // measured phase, first submit to last completion
    double iops = 0;
    double mb_s = 0;        // 10^6 bytes per second
    std::vector<double> round_mb_s;
    std::optional<double> ci95_pct; // of the mean over rounds; nothing below two rounds
    bool converged = false;          // stopped early because the interval was narrow enough
    Histogram latency;               // nanoseconds
    uint64_t stalls_over_250ms = 0;
    std::vector<Stall> stalls;       // the first max_listed_stalls
    uint64_t unit_bytes = 0;
    std::vector<double> unit_mb_s;   // per whole unit (AU), in order
    std::vector<WriteSample> trace;  // job.trace: every measured write, in order
    uint64_t warmup_ios = 0;
    double warmup_s = 0;
    StopReason stop_reason = StopReason::none;
    bool partial = false;            // stopped before its end
    std::string error;               // what went wrong, for people
    int error_errno = 0;
};

struct Progress {
    const Job* job = nullptr;
    bool warming = false;
    double elapsed_s = 0; // in the current phase
    double budget_s = 0;
    uint64_t ios = 0;
    uint64_t bytes = 0;
};

struct RunControl {
    const Clock* clock = nullptr;
    const std::atomic<bool>* stop = nullptr;            // set by a signal handler
    std::function<void(const Progress&)> on_progress;   // about four times a second
    // About five times a second; a reason ("card removed") stops the job.
    std::function<std::optional<std::string>()> check;
    uint64_t seed = 0;                                  // 0: fresh_seed()
    double tick_s = 0.2;
};

// Round length for the confidence interval: a tenth of the budget, kept
// between 0.1 s and 2 s. At least five rounds before the interval may stop a job.
double round_seconds(double runtime_s);
inline constexpr int min_rounds = 5;

// Runs `job` over `region` through `engine`. Never throws for I/O errors:
// they end the job with partial = true, error and error_errno set. Throws
// std::system_error when the engine itself fails.
JobResult run_job(Engine& engine, const Job& job, const Region& region, const RunControl& control);

} // namespace mmc::bench
