// The views of a run: the JSON contract documented in mmc-bench(1), and the
// human table (jobs, then verdicts, with what the figures rest on above).
// Kept with the bench engine rather than libmmc/views to keep mmc-bench's
// files together; both views read only the RunReport.
#pragma once

#include "bench/calibration.h"
#include "bench/context.h"
#include "bench/precondition.h"
#include "bench/runner.h"
#include "bench/suites.h"
#include "bench/sustained_suite.h"
#include "bench/target.h"
#include "bench/verdicts.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bench {

struct TargetInfo {
    std::string path;     // the device, or the test file
    TargetKind kind = TargetKind::block;
    std::string device;   // the block device holding a test file ("mmcblk0p1"), if any
    uint64_t size_bytes = 0;
    uint32_t logical_block = 512;
    bool direct = true;
    bool writable = false;
};

struct Skipped {
    std::string job;
    std::string why;
};

struct RunReport {
    std::optional<Suite> suite; // nothing: a custom job
    TargetInfo target;
    Context context;
    std::string kernel;
    std::string hostname;
    CpuPlacement cpu;
    PreconditionResult precondition;
    std::optional<PreconditionResult> state_erase; // the state suite's erase between its two states
    ClockCalibration clock;
    std::vector<NullTargetCalibration> null_target;
    double ci_target_pct = 2;
    std::vector<JobResult> jobs;
    std::vector<Skipped> skipped;
    std::vector<Verdict> verdicts;
    std::optional<SustainedResult> sustained; // the sustained suite's figures
    bool partial = false;
    std::string partial_why;
    bool interrupted = false; // stopped by a signal (the run is partial too)
    std::vector<std::string> notes;
};

// The views' "suite": the suite's word, or "custom" for a custom job.
std::string_view suite_word(const RunReport& report);

nlohmann::ordered_json report_json(const RunReport& report);
std::string report_text(const RunReport& report, bool color);

// The iozone-suite row SBC users exchange: card; 1K, 4K, 16K random write
// and read IOPS; sequential 16 MiB write and read MB/s.
std::string iozone_table(const RunReport& report);

// "2.35 ms", "812 us", "1.20 s" from nanoseconds.
std::string latency_text(double ns);

} // namespace mmc::bench
