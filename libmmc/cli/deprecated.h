// An option renamed so that one long option means one thing in every tool
// (libmmc/cli/options.tsv, deprecated-options.tsv): its old spelling still works for
// one release and says, once, what to type instead.
#pragma once

#include <string_view>

namespace mmc::cli {

// "mmc-sim: --card is deprecated: use --card-file" on stderr, once per old
// spelling in a run however often it is given.
void warn_deprecated(std::string_view tool, std::string_view old_option, std::string_view new_option);

} // namespace mmc::cli
