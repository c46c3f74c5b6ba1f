// Running a plan: each step in turn, its real exit status recorded. A
// failing step does not stop the pipeline (the bundle says what failed);
// Ctrl-C does: the step that was running stops at its next safe point
// (a chunk, a job), and no later step is started.
#pragma once

#include "qualify/plan.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmc::qualify {

enum class StepState { ok, failed, skipped, not_started };
std::string_view to_string(StepState s); // "ok", "failed", "skipped", "not started"

struct StepRecord {
    std::string name, tool;
    BundlePart part = BundlePart::document;
    StepState state = StepState::not_started;
    std::optional<int> exit_status; // none for a step not started or skipped
    std::string message;
    json doc;
    std::string summary;
    double seconds = 0;
};

struct Outcome {
    std::vector<StepRecord> steps; // every planned step, in order
    bool interrupted = false;
    std::string interrupted_during; // the step that was running, if any
    bool all_ok() const;             // nothing failed, nothing left undone
};

struct RunHooks {
    std::function<void(const PlannedStep&)> started;
    std::function<void(const StepRecord&)> finished;
};

// Runs the plan's steps in order. A step that throws has failed (exit 1).
// `stop` set before a step, or a step ending with exit 130, ends the run:
// the rest are recorded as not started.
Outcome run_plan(const Plan& plan, StepContext& context, const RunHooks& hooks);

} // namespace mmc::qualify
