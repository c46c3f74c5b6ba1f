// mmc-probe: measure what a card's registers cannot say honestly. Thin: the
// subcommands' mains live in libmmc/probe.
#include "cli/cli.h"
#include "probe/capacity_command.h"

#include <cstring>
#include <fmt/format.h>

namespace {

constexpr const char* tool = "mmc-probe";

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} capacity [options] DEVICE
 {0} COMMAND --help

Measure a card: capacity finds out whether the announced capacity is real.

Options:
 -h, --help     display this help
 -V, --version  display version
)",
               tool);
}

} // namespace

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    if (argc < 2) return mmc::cli::usage_failure(tool, "no command given; expected capacity");
    const std::string command = argv[1];
    if (command == "-h" || command == "--help") {
        usage(stdout);
        return mmc::cli::ok;
    }
    if (command == "-V" || command == "--version") mmc::cli::print_version_and_exit(tool);
    if (command == "capacity") return mmc::probe::run_capacity(argc - 1, argv + 1);
    return mmc::cli::usage_failure(tool, fmt::format("unknown command '{}'; expected capacity", command));
}
