// Views of an erase: the plan shown before anything is destroyed (and by
// --dry-run), the summary after, the progress line, and the JSON documented
// in man/mmc-erase.1.
#pragma once

#include "erase/erase.h"

#include <nlohmann/json.hpp>
#include <string>

namespace mmc::out {

// Device, card, serial, capacity, range, alignment, method: what will go.
std::string erase_plan_text(const erase::Prepared& p);

// Method, bytes, chunks, time, throughput; what was erased when interrupted
// or stopped by an error; the verification and the warnings.
std::string erase_report_text(const erase::Report& r);

// "  8 MiB of 16 MiB  50%  11.2 MB/s  1 s left" (no newline).
std::string erase_progress_line(const erase::Progress& p);

// The document after "tool" and "version". report is null for a dry run.
nlohmann::ordered_json erase_json(const erase::Prepared& p, const erase::Report* report);

} // namespace mmc::out
