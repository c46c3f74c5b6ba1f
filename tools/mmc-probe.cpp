// mmc-probe: what the card really is, measured. A thin dispatcher: each
// subcommand's front end is a file of its own beside it (mmc-probe/geometry.cpp,
// mmc-probe/capacity.cpp); the probes are libmmc's (probe/geometry_run.h,
// probe/capacity_run.h).
#include "cli/cli.h"
#include "cli/subcommand.h"
#include "mmc-probe/capacity.h"
#include "mmc-probe/geometry.h"
#include "mmc-probe/scrub.h"
#include "mmc-probe/tool.h"
#include "mmc-probe/verify.h"
#include "version.h"

#include <cstring>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace {

using mmc_probe::tool;

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} geometry [options] DEVICE
 {0} geometry [options] --from-flashbench FILE|-
 {0} capacity [options] DEVICE
 {0} verify [options] DEVICE | --file-system DIR
 {0} scrub [options] DEVICE
 {0} -h|--help|-V|--version

Measure what an SD, microSD or eMMC card's registers cannot be trusted to
say: its flash geometry (page, allocation unit, open AUs), its real
capacity, whether it keeps what is written to it, and how its reads age. "{0} SUBCOMMAND --help" lists a subcommand's options.

Subcommands:
 geometry   page and AU size from read timing; open AUs with --destructive
 capacity   the fake-capacity probe
 verify     every sector written and read back (a device, or a file system's free space)
 scrub      the whole card read once, every region timed (read-only)

Options:
 -h, --help     display this help
 -V, --version  display version
)",
               tool);
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    const auto at = mmc::cli::subcommand_index(argc, argv, tool, usage, "geometry, capacity, verify or scrub");
    if (!at) return mmc::cli::ok;
    const std::string sub = argv[*at];
    const std::vector<std::string> rest(argv + *at + 1, argv + argc);
    if (sub == "geometry") return mmc_probe::run_geometry(rest);
    if (sub == "capacity") return mmc_probe::run_capacity(argc - *at, argv + *at);
    if (sub == "verify") return mmc_probe::run_verify(argc - *at, argv + *at);
    if (sub == "scrub") return mmc_probe::run_scrub(argc - *at, argv + *at);
    mmc::cli::throw_unknown_subcommand(sub, "geometry, capacity, verify or scrub");
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
