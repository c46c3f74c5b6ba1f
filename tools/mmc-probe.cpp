// mmc-probe: measure what a card's registers cannot say honestly. Thin: the
// subcommands' mains live in libmmc/probe.
#include "cli/cli.h"
#include "probe/capacity_command.h"

#include <fmt/format.h>
#include <getopt.h>
#include <string>

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
    static const option longopts[] = {
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
        {nullptr, 0, nullptr, 0},
    };
    // '+': options before the command are mmc-probe's; the rest are the command's.
    opterr = 0;
    int c;
    try {
        while ((c = getopt_long(argc, argv, "+:hV", longopts, nullptr)) != -1) {
            switch (c) {
            case 'h': usage(stdout); return mmc::cli::ok;
            case 'V': mmc::cli::print_version_and_exit(tool);
            default: mmc::cli::throw_getopt_error(c, argv);
            }
        }
    } catch (const mmc::cli::UsageError& e) {
        return mmc::cli::usage_failure(tool, e.what());
    }
    if (optind >= argc) return mmc::cli::usage_failure(tool, "no command given; expected capacity");
    const std::string command = argv[optind];
    if (command == "capacity") return mmc::probe::run_capacity(argc - optind, argv + optind);
    return mmc::cli::usage_failure(tool, fmt::format("unknown command '{}'; expected capacity", command));
}
