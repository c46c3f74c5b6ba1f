// The plan: the steps of the table that this run will take, in order, each
// with what it will read, erase or write. -n prints it and stops; with
// --destructive it is what the one confirmation shows.
#pragma once

#include "qualify/step.h"

#include <string>
#include <vector>

namespace mmc::qualify {

struct PlannedStep {
    StepSpec spec;
    std::string what; // spec.describe(settings)
    std::string skip; // spec.skip_when(settings): why it will not run here; "" when it will
};

struct Plan {
    std::string device;
    bool destructive = false;
    bool changes_host = false; // --tune --apply: the bus trials change the host's bus mode (put back unless --keep)
    std::vector<PlannedStep> steps;
    std::vector<std::string> left_out; // names of steps that need --destructive
};

// The table's steps that apply: those that need --destructive only with it.
Plan make_plan(const std::vector<StepSpec>& table, const Settings& settings);

// "Plan for /dev/mmcblk0 (read-only):" and one line per step; a step that
// cannot run on this device says "skipped: why" instead of what it does.
std::string plan_text(const Plan& plan);
json plan_json(const Plan& plan);

} // namespace mmc::qualify
