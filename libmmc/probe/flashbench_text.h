// The text of a `flashbench -a` run, as people paste it: any block size and
// count, times in ns / µs (or "us") / ms / s, tabs or spaces, a shell prompt
// or other lines around it, indented (a mail quote), or cut off mid-line.
// Pure: text in, ladder out.
#pragma once

#include "probe/ladder.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::probe {

struct FlashbenchText {
    Ladder ladder;
    std::optional<uint64_t> blocksize;  // from a --blocksize on a pasted command line
    std::vector<std::string> notes;     // lines skipped and why
};

struct FlashbenchParseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws FlashbenchParseError when no "align" row can be read.
FlashbenchText parse_flashbench(std::string_view text);

// One flashbench time ("735µs", "1.08ms", "9ns", "4.2s", "53.3us") in ns.
// flashbench prints at most 7 characters, so a negative value loses its
// unit ("-412331", "-49389n"): those are ns. nullopt when not a time.
std::optional<double> parse_flashbench_time(std::string_view word);

} // namespace mmc::probe
