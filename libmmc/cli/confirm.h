// The one confirmation prompt before anything is destroyed: the question on
// stderr, the answer from a terminal on stdin, and only "yes" agrees. No
// terminal and no --yes is its own answer, so that a tool can refuse with a
// hint instead of blocking or assuming.
#pragma once

#include <string_view>

namespace mmc::cli {

enum class Confirmation { yes, declined, no_terminal };

// Prints `question` (what will be destroyed, already said above it) and
// 'Type "yes" to ACTION: '. `assume_yes` (-y/--yes) answers yes unasked.
Confirmation confirm(std::string_view question, std::string_view action, bool assume_yes);

} // namespace mmc::cli
