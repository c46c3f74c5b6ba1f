// getopt_long with what every tool's command line shares, so that a tool
// keeps it by calling this instead of getopt_long:
// - an option that takes a value, given twice, is a usage error naming it
//   ("--from A --from B" must not silently keep B), unless the tool lists it
//   as one that gathers (mmc-info --decode, one register each);
// - -J/--json anywhere on the line asks run_tool to report a failure as a
//   JSON error object too, even when the line's error comes before the -J.
#pragma once

#include <getopt.h>
#include <initializer_list>
#include <string_view>

namespace mmc::cli {

// The next option, as getopt_long returns it. The first call of a scan (a
// new argv, or optind reset to 0 or 1) looks over the whole line first and
// throws UsageError for a repeated single-valued option not in `gathering`
// (long names).
int next_option(int argc, char** argv, const char* optstring, const option* longopts,
                std::initializer_list<std::string_view> gathering = {});

} // namespace mmc::cli
