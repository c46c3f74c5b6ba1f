// mmc-bench -n as text and JSON: the plan of a run, nothing measured.
#pragma once

#include "bench/session.h"

#include <nlohmann/json.hpp>
#include <string>

namespace mmc::bench {

// "Plan for /dev/mmcblk0 (suite quick, read-only):", one line per job with
// its region, what is left out and why, the precondition; "Dry run: ...".
std::string dry_run_text(const DryRun& dry);

// {"tool", "version", "dry_run": true, "target", "suite", "writes",
//  "precondition", "jobs": [{name, rw, block_size, iodepth, runner, offset,
//  length, runtime_s}], "skipped", "notes"}
nlohmann::ordered_json dry_run_json(const DryRun& dry);

} // namespace mmc::bench
