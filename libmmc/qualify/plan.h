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
};

struct Plan {
    std::string device;
    bool destructive = false;
    std::vector<PlannedStep> steps;
    std::vector<std::string> left_out; // names of steps that need --destructive
};

// The table's steps that apply: those that need --destructive only with it.
Plan make_plan(const std::vector<StepSpec>& table, const Settings& settings);

// "Plan for /dev/mmcblk0 (read-only):" and one line per step.
std::string plan_text(const Plan& plan);
json plan_json(const Plan& plan);

} // namespace mmc::qualify
