// mmc-probe: what the card really is, measured. A thin dispatcher: each
// subcommand's main lives in libmmc/probe (geometry_command.h; capacity is
// wired in by the lead from the probe-cap work).
#include "cli/cli.h"
#include "probe/geometry_command.h"
#include "version.h"

#include <cstring>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace {

constexpr const char* tool = "mmc-probe";

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} geometry [options] DEVICE
 {0} geometry [options] --from-flashbench FILE|-
 {0} capacity [options] DEVICE
 {0} -h|--help|-V|--version

Measure what an SD, microSD or eMMC card's registers cannot be trusted to
say: its flash geometry (page, allocation unit, open AUs) and its real
capacity. "{0} SUBCOMMAND --help" lists a subcommand's options.

Subcommands:
 geometry   page and AU size from read timing; open AUs with --destructive
 capacity   the fake-capacity probe

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
    if (argc < 2) return mmc::cli::usage_failure(tool, "no subcommand given (geometry or capacity)");
    const std::string sub = argv[1];
    if (sub == "-h" || sub == "--help") {
        usage(stdout);
        return mmc::cli::ok;
    }
    if (sub == "-V" || sub == "--version") mmc::cli::print_version_and_exit(tool);
    const std::vector<std::string> rest(argv + 2, argv + argc);
    if (sub == "geometry") return mmc::probe::run_geometry(rest);
    if (sub == "capacity") {
        mmc::cli::error(tool, "capacity: not built in this tree");
        return mmc::cli::failure;
    }
    return mmc::cli::usage_failure(tool, fmt::format("unknown subcommand '{}'; expected geometry or capacity", sub));
}
