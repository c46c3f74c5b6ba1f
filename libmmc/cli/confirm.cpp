#include "cli/confirm.h"

#include <cstdio>
#include <fmt/format.h>
#include <iostream>
#include <string>
#include <unistd.h>

namespace mmc::cli {

Confirmation confirm(std::string_view question, std::string_view action, bool assume_yes)
{
    if (assume_yes) return Confirmation::yes;
    if (!::isatty(STDIN_FILENO)) return Confirmation::no_terminal;
    fmt::print(stderr, "{}\nType \"yes\" to {}: ", question, action);
    std::fflush(stderr);
    std::string answer;
    if (!std::getline(std::cin, answer)) return Confirmation::declined;
    return answer == "yes" ? Confirmation::yes : Confirmation::declined;
}

} // namespace mmc::cli
