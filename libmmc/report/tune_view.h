// mmc-tune's results as the report's views show them: one row
// per card@host that has them, before and after. The text and HTML views
// print the same cells; the JSON view writes the figures. Shared by the
// views so the three say the same.
#pragma once

#include "report/tables.h"

#include <string>

namespace mmc::report {

// The cells of the tuning table; "–" where a figure is missing.
struct TuneCells {
    std::string bus_before, before_mb_s; // "SDR50 at 100 MHz", "43.9"
    std::string bus_after, after_mb_s;   // the chosen mode; "–" when none was chosen
    std::string trials;                  // "3, 1 rejected", "none (plan only)"
    std::string restored;                // "yes", "no: the chosen mode kept", "–" (nothing changed)
    std::string queue;                   // "mq-deadline, read-ahead 128 KiB -> none, ...: better"; "–" without a queue result
    std::string queue_reason;            // the queue result's reason, "" when none
    std::string plan_only;               // why the bus was not trialled live, "" when it was (or not run)
};
TuneCells tune_cells(const Bundle& b);

// {"bus": {...} | null, "queue": {...} | null}, or null when the bundle has neither.
json tune_json(const Bundle& b);

} // namespace mmc::report
