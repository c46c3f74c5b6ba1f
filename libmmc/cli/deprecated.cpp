#include "cli/deprecated.h"

#include <fmt/format.h>
#include <set>
#include <string>

namespace mmc::cli {

void warn_deprecated(std::string_view tool, std::string_view old_option, std::string_view new_option)
{
    static std::set<std::string> warned;
    if (!warned.insert(std::string(old_option)).second) return;
    fmt::print(stderr, "{}: {} is deprecated: use {}\n", tool, old_option, new_option);
}

} // namespace mmc::cli
