// mmc-tune: from a diagnosis to a tuned, verified card. A thin dispatcher:
// each subcommand's front end is a file of its own beside it
// (mmc-tune/emmc.cpp, bus.cpp, queue.cpp, rpmb.cpp); the
// planning and the writes are libmmc's (tune/).
#include "cli/cli.h"
#include "cli/subcommand.h"
#include "mmc-tune/bus.h"
#include "mmc-tune/emmc.h"
#include "mmc-tune/queue.h"
#include "mmc-tune/rpmb.h"
#include "mmc-tune/tool.h"
#include "version.h"

#include <fmt/format.h>
#include <string>

namespace {

using mmc_tune::tool;

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} emmc [options] DEVICE
 {0} emmc [options] --decode ext_csd=HEX|@FILE
 {0} bus [options] DEVICE
 {0} bus [options] --ios FILE
 {0} queue [options] DEVICE
 {0} rpmb [options] DEVICE
 {0} -h|--help|-V|--version

Change what a card lets the host change, safely: every change planned
first, refused with the reason when the card cannot take it, confirmed,
written, and read back. "{0} SUBCOMMAND --help" lists a subcommand's
options.

Subcommands:
 bus    the bus mode: planned, trialled on the card, put back, made persistent
 emmc   an eMMC's configuration: cache, bkops, boot, reset, partitions, ...
 queue  the block queue's I/O scheduler and read-ahead, chosen by measurement
 rpmb   an eMMC's replay protected memory block: key, counter, authenticated blocks

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
    const auto at = mmc::cli::subcommand_index(argc, argv, tool, usage, "emmc, bus, queue or rpmb");
    if (!at) return mmc::cli::ok;
    const std::string sub = argv[*at];
    if (sub == "emmc") return mmc_tune::run_emmc(argc - *at, argv + *at);
    if (sub == "bus") return mmc_tune::run_bus(argc - *at, argv + *at);
    if (sub == "queue") return mmc_tune::run_queue(argc - *at, argv + *at);
    if (sub == "rpmb") return mmc_tune::run_rpmb(argc - *at, argv + *at);
    mmc::cli::throw_unknown_subcommand(sub, "emmc, bus, queue or rpmb");
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
