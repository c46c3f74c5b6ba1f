// mmc-tune's documents in a bundle (its "tune" part: {"bus": ..., "queue":
// ...}, each mmc-tune's -J output) read into the figures the
// report shows: Bundle::tune_bus and Bundle::tune_queue. Tolerant, as the
// rest of a bundle is read: a value of the wrong type is a warning.
#pragma once

#include "report/bundle.h"
#include "report/json_reader.h"

namespace mmc::report {

void read_tune_parts(JsonReader& r, Bundle& b);

// "bus" or "queue": which mmc-tune subcommand made doc; "" when neither.
std::string tune_subcommand(const json& doc);

} // namespace mmc::report
