// The terminal view of a report (its tables: cli/text_table.h).
#pragma once

#include "report/tables.h"

#include <string>
#include <vector>

namespace mmc::report {

// Every group: its provenance, the by-card sequential read and write
// tables, the random-I/O table, the verdicts, then errors and failed steps.
std::string text_report(const Report& report, bool color);

} // namespace mmc::report
