#include "geometry.h"
#include "tool.h"

#include "cli/cli.h"
#include "cli/device_sources.h"
#include "cli/confirm.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/resolver.h"
#include "probe/flashbench_text.h"
#include "probe/geometry_run.h"
#include "probe/geometry_view.h"
#include "probe/ladder.h"
#include "version.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <getopt.h>
#include <optional>
#include <unistd.h>

namespace mmc_probe {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
namespace fs = std::filesystem;
using namespace mmc::probe;

void geometry_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} geometry [options] DEVICE
 {0} geometry [options] --from-flashbench FILE|-

Find a card's flash page and allocation unit (AU) from the time small reads
take across aligned boundaries, with the evidence and a confidence, and
cross-check them with the card's registers. Read-only unless --destructive,
which also counts the AUs the card keeps open for writing (in order and at
random) and looks for a special area at the card's start; every block it
writes is read first and written back afterwards.

Options:
     --from-flashbench FILE  read the text of a flashbench -a run instead of
                       a device ("-": standard input)
     --repeats N       reads per place, the fastest kept (default 3, and 9
                       again when the first reading is not clear)
     --positions N     places per boundary, spread over the device (default 8)
     --destructive     also measure open AUs and the start area (writes)
 -n, --dry-run         read the ladder and say what --destructive would
                       write; write nothing
     --max-open N      try up to N + 1 open AUs (default 8)
 -y, --yes             do not ask before writing
     --any-device      allow writing to a device that is not an MMC/SD card
     --no-ioctl        send no card commands (registers from sysfs)
     --sysfs-root DIR  read sysfs from DIR (default /sys)
 -J, --json            print JSON (see mmc-probe(1))
 -v, --verbose         print the ladder
 -h, --help            display this help
 -V, --version         display version

Examples:
 {0} geometry /dev/mmcblk0
 {0} geometry --dry-run /dev/mmcblk0
 {0} geometry --destructive --yes /dev/mmcblk0
 flashbench -a /dev/mmcblk0 --blocksize=1024 -o /dev/null | {0} geometry --from-flashbench -
)",
               tool);
}

struct GeometryCommandOptions {
    std::string device;
    std::optional<std::string> flashbench;
    unsigned repeats = 3, positions = 8, max_open = 8;
    bool repeats_given = false; // no second, longer reading then
    bool destructive = false, dry_run = false, yes = false, any_device = false, use_ioctl = true, json = false, verbose = false;
    dev::SysRoots roots;
};

unsigned count_option(const char* name, const char* text, unsigned lo, unsigned hi)
{
    char* end = nullptr;
    errno = 0;
    const unsigned long v = std::strtoul(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi || text[0] == '-')
        throw cli::UsageError(fmt::format("--{} {}: expected a whole number from {} to {}", name, text, lo, hi));
    return static_cast<unsigned>(v);
}

GeometryCommandOptions parse_geometry_command(const std::vector<std::string>& args)
{
    enum { from_flashbench = 256, repeats, positions, destructive, max_open, any_device };
    static const auto longopts = cli::with_device_sources({
        {"from-flashbench", required_argument, nullptr, from_flashbench},
        {"repeats", required_argument, nullptr, repeats},
        {"positions", required_argument, nullptr, positions},
        {"destructive", no_argument, nullptr, destructive},
        {"dry-run", no_argument, nullptr, 'n'},
        {"max-open", required_argument, nullptr, max_open},
        {"yes", no_argument, nullptr, 'y'},
        {"any-device", no_argument, nullptr, any_device},
        {"json", no_argument, nullptr, 'J'},
        {"verbose", no_argument, nullptr, 'v'},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    });
    std::vector<std::string> storage{std::string(tool) + " geometry"};
    storage.insert(storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& s : storage) argv.push_back(s.data());
    argv.push_back(nullptr);
    const int argc = static_cast<int>(storage.size());

    GeometryCommandOptions o;
    cli::DeviceSources sources;
    optind = 0; // a fresh scan (0 also resets getopt's internal state)
    opterr = 0;
    int c;
    while ((c = cli::next_option(argc, argv.data(), ":nyJvhV", longopts.data())) != -1) {
        switch (c) {
        case from_flashbench: o.flashbench = optarg; break;
        case repeats:
            o.repeats = count_option("repeats", optarg, 1, 100);
            o.repeats_given = true;
            break;
        case positions: o.positions = count_option("positions", optarg, 1, 1000); break;
        case destructive: o.destructive = true; break;
        case 'n': o.dry_run = true; break;
        case max_open: o.max_open = count_option("max-open", optarg, 1, 64); break;
        case 'y': o.yes = true; break;
        case any_device: o.any_device = true; break;
        case 'J': o.json = true; break;
        case 'v': o.verbose = true; break;
        case 'h': geometry_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv.data());
        }
    }
    o.use_ioctl = sources.use_ioctl;
    o.roots = sources.roots(o.roots);
    if (o.flashbench) {
        if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}' with --from-flashbench", argv[optind]));
        if (o.destructive) throw cli::UsageError("--destructive needs a device, not --from-flashbench");
        if (o.dry_run) throw cli::UsageError("--dry-run needs a device, not --from-flashbench (a pasted ladder writes nothing)");
        return o;
    }
    if (optind >= argc) throw cli::UsageError("no DEVICE given (or --from-flashbench FILE)");
    o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    return o;
}


dev::ResolveOptions resolve_options(const GeometryCommandOptions& o)
{
    dev::ResolveOptions ro;
    ro.roots = o.roots;
    ro.any_device = o.any_device;
    return ro;
}

int from_flashbench(const GeometryCommandOptions& o)
{
    GeometryReport r;
    r.source_file = *o.flashbench;
    const auto start = std::chrono::steady_clock::now();
    std::string text;
    try {
        text = cli::read_input(*o.flashbench, 16u << 20, "flashbench output");
    } catch (const std::exception& e) {
        cli::error(tool, e.what());
        return cli::failure;
    }
    try {
        auto parsed = parse_flashbench(text);
        r.ladder = std::move(parsed.ladder);
        r.notes = std::move(parsed.notes);
    } catch (const FlashbenchParseError& e) {
        cli::error(tool, fmt::format("{}: {}", *o.flashbench == "-" ? "standard input" : *o.flashbench, e.what()));
        return cli::failure;
    }
    r.geometry = analyze(r.ladder);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.json) cli::print_json(geometry_json(nullptr, r), tool);
    else print_geometry_text(nullptr, r, o.verbose);
    return cli::ok;
}

// The verdict of the one resolver on the open-AU test's writes: not a card
// without --any-device, or in use. An exit status when refused.
std::optional<int> refuse_write(const GeometryCommandOptions& o)
{
    try {
        dev::resolve_device(o.device, dev::Purpose::probe, resolve_options(o)).require_allowed();
    } catch (const dev::DeviceError& e) {
        cli::error(tool, cli::error_text(e));
        return cli::failure;
    }
    return std::nullopt;
}

// Before the ladder is read (a minute or more): what refuses the write
// whatever the ladder finds, so the user is not told only after waiting.
// The safety of mmc-erase, and a yes that cannot be asked for.
std::optional<int> refuse_before_reading(const GeometryCommandOptions& o, const ProbedDevice& d)
{
    if (const auto refused = refuse_write(o)) return refused;
    if (!o.yes && !isatty(STDIN_FILENO)) {
        cli::error(tool, fmt::format("{}: refusing to write without confirmation: stdin is not a terminal; use --yes", d.path));
        return cli::failure;
    }
    return std::nullopt;
}

// Before writing: the safety of mmc-erase again (the device may have been
// mounted meanwhile), what will be overwritten, and the user's yes. Returns
// an exit status when the test must not run.
std::optional<int> refuse_or_confirm(const GeometryCommandOptions& o, const ProbedDevice& d, const WritePlan& plan, uint64_t au_bytes)
{
    if (const auto refused = refuse_before_reading(o, d)) return refused;
    if (!plan.max_trial) {
        cli::error(tool, fmt::format("{}: too small for an open-AU test with {} AUs", d.path, cli::format_bytes(au_bytes)));
        return cli::failure;
    }
    const std::string what = fmt::format(
        "The open-AU test writes {} in page-sized blocks to {} AUs of {}, between offset 0 and {}.\n"
        "Every block is read first and written back afterwards (also after Ctrl-C); the card's wear and\n"
        "internal layout change.",
        cli::format_bytes(plan.bytes), plan.aus, d.path, cli::format_bytes(plan.end));
    if (o.yes) {
        if (!o.json) fmt::print(stderr, "{}\n", what);
        return std::nullopt;
    }
    const auto answer = cli::confirm(what, "write", false);
    if (cli::stop_requested().load()) return cli::interrupted;
    if (answer != cli::Confirmation::yes) {
        cli::error(tool, "not confirmed; nothing was written");
        return cli::failure;
    }
    return std::nullopt;
}

int on_device(const GeometryCommandOptions& o)
{
    // A name that leads to no block device is a cli::Error that reaches the
    // tool's cli::run_tool in the resolver's words.
    const ProbedDevice d = probed_device(dev::resolve_device(o.device, dev::Purpose::read, resolve_options(o)), o.roots, o.use_ioctl);
    if (o.destructive && !o.dry_run)
        if (const auto refused = refuse_before_reading(o, d)) return *refused;
    if (o.dry_run) {
        // Whether the writes would be refused is part of what a dry run says.
        if (const auto refused = refuse_write(o)) return *refused;
    }
    cli::install_stop_signals();
    cli::ProgressLine line;
    GeometryRunOptions run;
    run.repeats = o.repeats;
    run.positions = o.positions;
    run.again_if_unclear = !o.repeats_given;
    run.open_aus = o.destructive;
    run.dry_run = o.dry_run;
    run.max_open = o.max_open;
    run.stop = &cli::stop_requested();
    run.progress = [&](const std::string& what) { line.show(what); };
    std::optional<int> refused;
    run.approve_writes = [&](const WritePlan& plan, const Geometry& g) {
        line.clear();
        refused = refuse_or_confirm(o, d, plan, *g.au_bytes);
        return !refused;
    };
    GeometryReport r;
    try {
        r = probe_geometry(d, run);
        line.clear();
    } catch (const std::exception& e) {
        line.clear();
        cli::error(tool, e.what());
        return cli::failure;
    }
    if (refused) return *refused;
    if (o.json) cli::print_json(geometry_json(&d, r), tool);
    else print_geometry_text(&d, r, o.verbose);
    if (r.open && !r.open->restored) {
        cli::error(tool, fmt::format("{}: the blocks the test wrote could not all be written back: {}", d.path, r.open->restore_error));
        return cli::failure;
    }
    if (r.interrupted) {
        cli::error(tool, interrupted_text(r));
        return cli::interrupted;
    }
    return cli::ok;
}

} // namespace

int run_geometry(const std::vector<std::string>& args)
{
    const GeometryCommandOptions o = parse_geometry_command(args); // a cli::UsageError goes to the tool's cli::run_tool
    return o.flashbench ? from_flashbench(o) : on_device(o);
}

} // namespace mmc_probe
