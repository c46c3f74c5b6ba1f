// The suites: fixed sets of jobs that answer a common question, and the
// verdicts each draws from its figures.
//   quick   a one-minute overview: sequential 4 MiB read and write, random
//           4 KiB read and write, QD1
//   iozone  the table SBC users exchange: sequential write/read with 4 KiB,
//           512 KiB and 16 MiB records, random 1/4/16 KiB write/read IOPS, QD1
//   a1, a2  4 KiB random read/write IOPS and sustained sequential write
//           against A1 (1500/500 IOPS, 10 MB/s) and A2 (4000/2000, 10 MB/s)
//   class   sequential 512 KiB writes across whole AUs: per-AU speed against
//           the speed class, UHS grade and video class
//   state   what erasing buys: sequential 512 KiB write (one pass over its
//           half of the region) and 4 KiB random write (over the other half)
//           in the used state, then the region erased and both again
//   sustained the region (default: the whole card) written once in 512 KiB
//           recording units, every write's latency kept: the SLC cache's
//           knee, burst and sustained speed, stalls, the recording budget,
//           per-AU speed against the class claims (bench/sustained*.h); with
//           an idle time, the start of the region again after it (recovery)
#pragma once

#include "bench/job.h"
#include "bench/runner.h"
#include "bench/verdicts.h"

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bench {

// The suites above; "class" is speed_class (a C++ keyword).
enum class Suite { quick, iozone, a1, a2, speed_class, state, sustained };
std::span<const Suite> all_suites();
std::string_view to_string(Suite suite); // the option's and the JSON's word: "quick", ..., "class", ...
std::optional<Suite> suite_from_text(std::string_view word);
// "quick, iozone, ..., sustained": what an unknown suite's error expects.
std::string suite_list();

struct SuiteOptions {
    std::optional<double> runtime_s;    // overrides each job's budget
    std::optional<double> warmup_s;
    std::optional<double> ci_target_pct;
    std::optional<uint64_t> offset;
    std::optional<uint64_t> length;
    uint64_t au_bytes = 4u << 20;       // the card's AU (class suite)
    unsigned class_aus = 8;             // AUs the class suite writes when no length is given
    unsigned state_aus = 8;             // AUs of each half of the state suite's region when no length is given
    unsigned queue_depth = 0;           // a2: also run QD-N io_uring jobs (the host queues commands)
    std::optional<double> idle_s;       // sustained: idle this long, then write again (recovery)
};

// The sustained suite's recording unit: 512 KiB, the RU the SD spec's Class
// 10 and UHS speed grade measurements use at least (Speed Class chapter), and
// what the class suite writes; it divides every AU size.
inline constexpr uint32_t sustained_ru_bytes = 512u << 10;
// Its time budget: one pass over the region, however long (a week).
inline constexpr double sustained_budget_s = 7 * 24 * 3600.0;
// The recovery pass writes at most this much again.
inline constexpr uint64_t recovery_pass_max_bytes = uint64_t{1} << 30;

// Throws std::invalid_argument when the state suite's region holds fewer
// than two whole AUs.
std::vector<Job> suite_jobs(Suite suite, const SuiteOptions& options);

// What came out of each job, by name, for the verdicts.
struct Outcomes {
    std::map<std::string, const JobResult*> ran;
    std::map<std::string, std::string> skipped; // job name -> why

    Measured iops(const std::string& job) const;
    Measured mb_s(const std::string& job) const;
    Measured min_unit_mb_s(const std::string& job) const;
};

struct SuiteFacts {
    bool sd_card = false;   // the target is an SD card (claims apply)
    CardClaims claims;
    std::string claims_missing_why; // why claims.known is false
    BusCeiling bus;
    HostQueueing host;
};

// The state suite's figures: each job's figure in the used state and after
// the erase, and what erasing bought (erased / used).
inline constexpr std::string_view state_seq_used = "seqwrite-512k-used", state_seq_erased = "seqwrite-512k-erased",
                                  state_rand_used = "randwrite-4k-used", state_rand_erased = "randwrite-4k-erased";
struct StateFigures {
    Measured seq_used_mb_s, seq_erased_mb_s;
    Measured rand_used_iops, rand_erased_iops;
    std::optional<double> seq_gain() const;
    std::optional<double> rand_gain() const;
};
StateFigures state_figures(const Outcomes& outcomes);
// One line: "sequential write 4.10 -> 9.80 MB/s after erase (x2.39); 4 KiB
// random write 4.5 -> 120.0 IOPS (x26.67)", or why a figure is missing.
std::string state_line(const StateFigures& figures);

std::vector<Verdict> suite_verdicts(Suite suite, const Outcomes& outcomes, const SuiteFacts& facts);

} // namespace mmc::bench
