// The step table: the pipeline, one row per step, in order. Adding a step
// is adding a row (a StepSpec): an in-process step, or a sibling tool run as
// a child process (child_step.h) with Needs and WhenMissing. Each family of
// steps keeps its spec beside its runner in steps_FAMILY.cpp (info, bus,
// erase, bench, probe, health, tune); steps_common.h is what they share.
#pragma once

#include "qualify/step.h"

#include <vector>

namespace mmc::qualify {

// identify -> bus -> health -> geometry -> (--destructive) erase -> capacity -> one
// benchmark step per suite -> (--destructive) the state comparison ->
// (--tune) mmc-tune bus and queue, last: their trials change what the
// measurements would see.
std::vector<StepSpec> step_table(const Settings& settings);

// The in-process steps, each the library behind one tool, so each gives
// the document and exit status that tool would.
StepSpec info_step();                          // mmc-info -J DEVICE: dev::identify
StepSpec bus_step();                           // mmc-bus -J --measure: the bus doctor
StepSpec erase_step();                         // mmc-erase --yes --verify -J: erase::prepare, execute
StepSpec bench_step(bench::Suite suite, Needs needs = Needs::always); // mmc-bench -J --suite SUITE
StepSpec state_step();                         // mmc-bench --suite state --destructive [--au SIZE]: what erasing buys
StepSpec sustained_step();                     // mmc-bench --suite sustained --destructive: the whole card once

// Sibling tools run as child processes, skipped when not installed.
StepSpec health_step();                        // mmc-health -J DEVICE; exits 3-6 (a verdict) are its answer
StepSpec geometry_step();                      // mmc-probe geometry -J DEVICE (read-only)
StepSpec capacity_step();                      // mmc-probe capacity -J --yes DEVICE (writes; puts back); exits
                                               // 10-13 naming a fake are its answer, not a failure
StepSpec tune_bus_step();                      // mmc-tune bus -J -n DEVICE (--apply --yes [--keep]: the trials)
StepSpec tune_queue_step();                    // mmc-tune queue -J DEVICE ([--apply] with --apply --keep)

} // namespace mmc::qualify
