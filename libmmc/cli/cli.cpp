#include "cli/cli.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace mmc::cli {

void error(std::string_view tool, std::string_view message)
{
    fmt::print(stderr, "{}: {}\n", tool, message);
}

bool use_color(int fd)
{
    const char* no_color = std::getenv("NO_COLOR");
    return isatty(fd) && !(no_color && *no_color);
}

std::string read_arg_or_file(const std::string& arg)
{
    if (arg.empty() || arg[0] != '@') return arg;
    const std::string path = arg.substr(1);
    std::ifstream in(path);
    if (!in) throw UsageError(fmt::format("{}: {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace mmc::cli
