#include "capacity.h"
#include "tool.h"
#include "whole_card.h"

#include "cli/cli.h"
#include "cli/device_sources.h"
#include "cli/confirm.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/resolver.h"
#include "probe/capacity_run.h"
#include "version.h"

#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <getopt.h>
#include <memory>
#include <unistd.h>

namespace mmc_probe {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
using namespace mmc::probe;

void capacity_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} capacity [options] DEVICE

Find out whether a card's announced capacity is real: writes stamps to as
few blocks as it can, reads them back in random order and names the fake:
good, limbo, wraparound, chain or bad, with the usable size exact to the
block. Every block it stamps is copied first and written back at the end
(and on Ctrl-C) unless --destructive. DEVICE is a whole card: /dev/mmcblk0,
mmcblk0, mmc0, mmc0:4567; any block device with --any-device.

Options:
     --destructive     keep no copies and restore nothing (fewer writes)
     --max-cache SIZE  the largest cache a fake is assumed to have
                       (default 1G; the check stops at 1/16 of the card)
 -y, --yes             do not ask for confirmation
 -n, --dry-run         print what would be written and touch nothing
     --any-device      allow a block device that is not an MMC/SD card
     --seed N          the stamps' salt and read order (default: random)
 -J, --json            print JSON (see mmc-probe(1), CAPACITY)
     --no-ioctl        send no card commands (registers from sysfs)
     --sysfs-root DIR  read sysfs from DIR (default /sys)
 -h, --help            display this help
 -V, --version         display version

Exit status: 0 good, 10 limbo, 11 wraparound, 12 chain, 13 bad,
1 failure, 2 usage error, 130 interrupted (the card restored).

Examples:
 {0} capacity --dry-run /dev/mmcblk0
 {0} capacity --yes /dev/mmcblk0
)",
               tool);
}

struct CapacityCommandOptions {
    std::string device;
    CapacityOptions probe;
    bool yes = false, dry_run = false, json = false, any_device = false, use_ioctl = true;
    dev::SysRoots roots;
};

CapacityCommandOptions parse_capacity_command(int argc, char** argv)
{
    enum { destructive = 256, max_cache, any_device, seed };
    static const auto longopts = cli::with_device_sources({
        {"destructive", no_argument, nullptr, destructive}, {"max-cache", required_argument, nullptr, max_cache},
        {"yes", no_argument, nullptr, 'y'},                 {"dry-run", no_argument, nullptr, 'n'},
        {"any-device", no_argument, nullptr, any_device},   {"seed", required_argument, nullptr, seed},
        {"json", no_argument, nullptr, 'J'},
        {"help", no_argument, nullptr, 'h'},                {"version", no_argument, nullptr, 'V'},
    });
    CapacityCommandOptions o;
    cli::DeviceSources sources;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = cli::next_option(argc, argv, ":ynJhV", longopts.data())) != -1) {
        switch (c) {
        case destructive: o.probe.destructive = true; break;
        case max_cache:
            o.probe.max_cache_bytes = cli::size_option("--max-cache", optarg);
            if (o.probe.max_cache_bytes == 0) throw cli::UsageError("--max-cache 0: the check needs at least one block");
            break;
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case any_device: o.any_device = true; break;
        case seed:
            try {
                std::size_t used = 0;
                o.probe.seed = std::stoull(optarg, &used, 0);
                if (used != std::string(optarg).size()) throw std::invalid_argument("trailing text");
            } catch (const std::exception&) {
                throw cli::UsageError(fmt::format("--seed '{}': expected a number", optarg));
            }
            break;
        case 'J': o.json = true; break;
        case 'h': capacity_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv);
        }
    }
    o.use_ioctl = sources.use_ioctl;
    o.roots = sources.roots(o.roots);
    if (optind >= argc) throw cli::UsageError("capacity: no DEVICE given");
    o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    return o;
}

} // namespace

int run_capacity(int argc, char** argv)
{
    CapacityCommandOptions o = parse_capacity_command(argc, argv); // a cli::UsageError goes to the tool's cli::run_tool

    int refused = cli::failure;
    const auto card = resolve_whole_card(o.device, o.any_device, o.roots, refused);
    if (!card) return refused;
    const dev::Device& d = *card;
    const CapacityTarget target = capacity_target(d, o.roots, o.use_ioctl);

    std::unique_ptr<DeviceBlocks> io;
    CapacityPlan plan;
    try {
        io = std::make_unique<DeviceBlocks>(target.path);
        plan = plan_capacity(io->block_count(), io->block_size(), o.probe);
    } catch (const std::exception& e) {
        cli::error(tool, e.what());
        return cli::failure;
    }

    if (o.dry_run) {
        if (o.json) cli::print_json(capacity_document(dry_run_json(target, plan)), tool);
        else fmt::print("{}Dry run: nothing was written.\n", plan_text(target, plan, o.probe.destructive));
        return cli::ok;
    }

    // A second signal is ignored too: the probe always restores what it overwrote.
    cli::install_stop_signals();
    if (!o.yes) {
        if (!isatty(STDIN_FILENO)) {
            cli::error(tool, fmt::format("{}: refusing to write without confirmation: stdin is not a terminal; use --yes "
                                         "(or --dry-run to see what would be written)",
                                         target.path));
            return cli::failure;
        }
        const auto question = fmt::format("{}This writes to {}{}.", plan_text(target, plan, o.probe.destructive), target.path,
                                          o.probe.destructive ? " and leaves the stamps there" : " and puts every block back");
        const bool yes = cli::confirm(question, "probe", false) == cli::Confirmation::yes;
        if (cli::stop_requested().load()) {
            fmt::print(stderr, "\n");
            cli::error(tool, "interrupted before anything was written");
            return cli::interrupted;
        }
        if (!yes) {
            cli::error(tool, "not confirmed; nothing was written");
            return cli::failure;
        }
    } else if (!o.json) {
        fmt::print("{}\n", plan_text(target, plan, o.probe.destructive));
        std::fflush(stdout);
    }

    cli::ProgressLine line;
    CapacityProgressText progress_text;
    o.probe.stop = &cli::stop_requested();
    o.probe.progress = [&](const CapacityProgress& p) { line.show(progress_text(p)); };

    CapacityResult r;
    try {
        r = run_capacity_probe(target, *io, o.probe);
    } catch (const std::exception& e) {
        line.clear();
        cli::error(tool, fmt::format("{}: {}", target.path, e.what()));
        return cli::failure;
    }
    line.clear();

    if (o.json)
        cli::print_json(capacity_document(result_json(target, r, io->block_size(), o.probe.destructive)), tool);
    else
        fmt::print("{}", result_text(target, r, io->block_size()));
    if (r.interrupted) {
        cli::error(tool, interrupted_text(target, r));
        return cli::interrupted;
    }
    return exit_status(*r.verdict);
}

} // namespace mmc_probe
