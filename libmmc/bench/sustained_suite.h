// The sustained suite's result: the analysis of its write trace
// (bench/sustained.h), the recovery after the idle time, the per-AU speeds
// and their verdicts by the spec's method (bench/sustained_classes.h), the
// card's state before the run, and the warnings a reader needs (a region
// too small to reach the knee, a run stopped early). Its JSON sits under
// "sustained" in mmc-bench's document and its text after the job table.
#pragma once

#include "bench/precondition.h"
#include "bench/runner.h"
#include "bench/suites.h"
#include "bench/sustained.h"
#include "bench/sustained_classes.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::bench {

inline constexpr std::string_view sustained_region_job = "seqwrite-512k-region",
                                  sustained_recovery_job = "seqwrite-512k-recovery";

struct SustainedResult {
    uint64_t ru_bytes = 0;
    uint64_t au_bytes = 0;
    std::string state_before;        // "as found", "erased (free AUs)", "filled", "fragmented (used)"
    bool aus_free = false;           // erased before the run, as the spec measures
    std::string recorder_rate_why;   // "the card's V30 claim", "no claim: 30 MB/s (V30)"
    SustainedFigures figures;
    std::optional<Recovery> recovery;
    std::vector<AuSpeed> aus;        // whole AUs, in order (not in the JSON: the slowest is)
    std::vector<std::string> warnings;
};

// The recorder rate for the budget: the card's highest speed claim, else 30
// MB/s; and why, in words.
std::pair<double, std::string> recorder_rate(const SuiteFacts& facts);

// Nothing when the region job wrote nothing. `whole_card`: the region was
// the whole card (no knee then means no cache, not a region too small).
std::optional<SustainedResult> sustained_result(std::span<const JobResult> jobs, const SuiteFacts& facts,
                                                const PreconditionResult& precondition, uint64_t au_bytes,
                                                bool whole_card);

nlohmann::ordered_json sustained_json(const SustainedResult&);
std::string sustained_text(const SustainedResult&);

} // namespace mmc::bench
