#include "cli/cli.h"

#include "cli/input.h"

#include "version.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <getopt.h>
#include <sstream>
#include <unistd.h>

namespace mmc::cli {

void error(std::string_view tool, std::string_view message)
{
    fmt::print(stderr, "{}: {}\n", tool, message);
}

int usage_failure(std::string_view tool, std::string_view message)
{
    error(tool, message);
    fmt::print(stderr, "Try '{} --help' for more information.\n", tool);
    return usage;
}

void print_version_and_exit(std::string_view tool)
{
    fmt::print("{} from mmckit {}\n", tool, mmc::version);
    std::exit(ok);
}

void throw_getopt_error(int c, char** argv)
{
    if (c == ':') throw UsageError(fmt::format("option '{}' needs an argument", argv[optind - 1]));
    throw UsageError(fmt::format("unknown option '{}'", argv[optind - 1]));
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
    try {
        return read_file_capped(path, register_input_cap, "register dump");
    } catch (const InputError& e) {
        throw UsageError(e.what());
    }
}

} // namespace mmc::cli
