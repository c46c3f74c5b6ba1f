#pragma once
// The AU as the read ladder finds it (read-only), for the tools that erase or
// lay out by the AU when the user asks them to measure it (--au measure).
#include "probe/confidence.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace mmc::probe {

struct MeasuredAu {
    uint64_t bytes = 0;
    Confidence confidence = Confidence::none;
};

// Reads DISK_PATH's ladder with a progress line, stopping at SIGINT/SIGTERM
// (cli::stop_requested). Throws cli::Error: interrupted (its message ends
// with NOTHING_DONE, what the caller has not yet changed), or a failure
// with Remedy::give_au when the ladder shows no AU.
MeasuredAu measure_au(const std::string& disk_path, std::string_view nothing_done);

} // namespace mmc::probe
