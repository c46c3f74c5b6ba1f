// mmc-sim: a simulated card with a known flash translation layer, served as
// a block device on this machine for the length of one command. Thin:
// options here; the model in libmmc/sim, card files and the serving chain in
// libmmc/simserve, the server itself in tools/nbdkit-mmcsim-plugin/.
#include "cli/cli.h"
#include "cli/deprecated.h"
#include "cli/process.h"
#include "cli/stop_signal.h"
#include "sim/params.h"
#include "simserve/card_file.h"
#include "simserve/host_device.h"
#include "version.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <getopt.h>
#include <iostream>
#include <vector>

namespace {

constexpr const char* tool = "mmc-sim";

std::string presets_text()
{
    std::string out;
    for (const auto& name : mmc::simserve::preset_names()) out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? "none installed" : out;
}

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [card options] [--stats FILE] [-v] -- COMMAND [ARG...]
 {0} [card options] --describe [-J]

Serve a simulated SD card (flash geometry, timing and fake type set by the
options) as a block device, run COMMAND with MMC_SIM_DEV naming it, and tear
it down when COMMAND ends. The exit status is COMMAND's.

Card:
 -p, --preset NAME          start from a preset ({1})
     --card-file FILE       start from a card file (a preset or --describe -J output)
 -c, --card FILE            deprecated: use --card-file
     --capacity SIZE        announced capacity (the card file's "size")
     --size SIZE            deprecated: use --capacity
     --page SIZE            flash page (4k-64k)
     --au SIZE              allocation unit = erase block (2^n or 3*2^n, e.g. 12M)
     --open-aus N           AUs the controller keeps open for writing
     --fat-area SIZE        the card's start taking small random writes (the FAT area; 0 = none)
     --cache SIZE           RAM write-back buffer before the flash (0 = none; not --slc-cache)
     --state STATE          clean, full or fragmented
     --erased-byte BYTE     what discarded ranges read as (0 or 0xff)
     --fake TYPE            none, limbo, wraparound, chain or bad
     --real-size SIZE       the storage a fake really has
     --module SIZE          where a wraparound or chain fake's addresses wrap
     --strict-cache         a limbo fake's cache returns only exact re-reads
     --bridge-cache SIZE    a USB reader's read cache in front of the card (0 = none)
     --command TIME         per request overhead (e.g. 100us)
     --page-read TIME       per flash page read
     --page-program TIME    per flash page programmed
     --block-erase TIME     per erase block erased
     --au-cross TIME        extra for a read across an AU boundary
     --bus-rate RATE        bus transfer rate in bytes/s (25e6) or a size (25M)
     --slc-cache SIZE       SLC cache: writes land fast until this much is written (0 = none)
     --slc-rate RATE        the SLC cache's program rate (0 = page-program's)
     --native-rate RATE     the native flash's sequential write rate, past the cache
     --slc-fold-rate RATE   how fast idle time empties the SLC cache (0 = native rate)
     --slc-fold-after TIME  idle time before the SLC cache starts folding
     --gc-stall TIME        a garbage-collection stall (0 = none) ...
     --gc-every N           ... for every N blocks the FTL has to make free
     --gc-reserve SIZE      erased flash kept: opening an AU below it makes a block free
     --endurance CYCLES     P/E cycles a block is rated for, or tlc, mlc, pslc (0 = never wears)
     --age TIME             the card's age (e.g. 17520h); read retries grow with it
     --spare-blocks N       blocks that take worn-out blocks' places
     --end-of-life MODE     once worn out: read-only, lose-writes or dead
     --weak OFFSET,SIZE[,LEVEL]  a region needing LEVEL more read retries (repeatable)
     --seed N               the starting state's random seed
 Options apply in order over the preset or card file.

Serving:
     --stats FILE           write the device-side counters as JSON at the end
     --describe             print the resolved card and exit; serve nothing
 -J, --json                 with --describe: print JSON
 -v, --verbose              say what is served where
 -h, --help                 display this help
 -V, --version              display version

COMMAND's environment: MMC_SIM_DEV (the block device), MMC_SIM_STATS (the
counters, refreshed at every flush, e.g. after 'sync').
Needs root, loop and FUSE, nbdkit, nbdfuse (libnbd-bin) and losetup.

Examples:
 {0} --preset a1 --describe
 {0} --capacity 1G --au 4M --open-aus 2 -- sh -c 'dd if=/dev/zero of=$MMC_SIM_DEV bs=1M count=16 oflag=direct'
 {0} --preset fake-limbo-64g-8g --stats counters.json -- f3probe $MMC_SIM_DEV
 {0} --preset v30-slc-tlc --capacity 1G --slc-cache 64M --describe
)",
               tool, presets_text());
}

struct Options {
    mmc::sim::Params params;
    std::optional<std::string> stats_file;
    bool describe = false, json = false, verbose = false;
    std::vector<std::string> command;
};

Options parse_options(int argc, char** argv)
{
    enum { stats = 256, describe, card_file, card_deprecated, capacity, card_option_base = 1000 };
    const auto& names = mmc::simserve::card_option_names();
    std::vector<option> longopts = {
        {"preset", required_argument, nullptr, 'p'},  {"card-file", required_argument, nullptr, card_file},
        {"card", required_argument, nullptr, card_deprecated}, // deprecated spelling of --card-file, as -c
        {"capacity", required_argument, nullptr, capacity},    // the card option "size": --size is a region elsewhere
        {"stats", required_argument, nullptr, stats}, {"describe", no_argument, nullptr, describe},
        {"json", no_argument, nullptr, 'J'},          {"verbose", no_argument, nullptr, 'v'},
        {"help", no_argument, nullptr, 'h'},          {"version", no_argument, nullptr, 'V'},
    };
    std::vector<std::string> name_storage(names.begin(), names.end()); // getopt wants C strings
    for (std::size_t i = 0; i < names.size(); ++i)
        longopts.push_back({name_storage[i].c_str(), names[i] == "strict-cache" ? no_argument : required_argument, nullptr,
                            int(card_option_base + i)});
    longopts.push_back({nullptr, 0, nullptr, 0});

    Options o;
    std::optional<std::string> base_file, base_what;
    std::vector<std::pair<std::string, std::string>> card_options;
    opterr = 0;
    int c;
    // '+': stop at COMMAND, so that its own options are not taken for ours.
    while ((c = mmc::cli::next_option(argc, argv, "+:p:c:JvhV", longopts.data(), {"weak"})) != -1) {
        switch (c) {
        case 'c': mmc::cli::warn_deprecated(tool, "-c", "--card-file"); [[fallthrough]];
        case card_deprecated:
            if (c == card_deprecated) mmc::cli::warn_deprecated(tool, "--card", "--card-file");
            [[fallthrough]];
        case 'p':
        case card_file: {
            if (base_file) throw mmc::cli::UsageError("give one --preset or --card-file");
            if (c != 'p') {
                base_file = optarg;
                base_what = fmt::format("--card-file {}", optarg);
                break;
            }
            const auto file = mmc::simserve::preset_file(optarg);
            if (file.empty())
                throw mmc::cli::UsageError(fmt::format("--preset {}: no such preset (there are: {})", optarg, presets_text()));
            base_file = file.string();
            base_what = fmt::format("--preset {}", optarg);
            break;
        }
        case stats: o.stats_file = optarg; break;
        case describe: o.describe = true; break;
        case 'J': o.json = true; break;
        case 'v': o.verbose = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default:
            if (c == capacity || (c >= card_option_base && c < card_option_base + int(names.size()))) {
                const std::string_view name = c == capacity ? "size" : names[c - card_option_base];
                if (c != capacity && name == "size") mmc::cli::warn_deprecated(tool, "--size", "--capacity");
                card_options.emplace_back(name, optarg ? optarg : "");
                break;
            }
            mmc::cli::throw_getopt_error(c, argv);
        }
    }
    for (int i = optind; i < argc; ++i) o.command.push_back(argv[i]);

    o.params = mmc::sim::default_params();
    if (base_file) {
        o.params = mmc::cli::in_context(*base_what, [&] {
            return mmc::cli::as_usage([&] { return mmc::simserve::load_card_file(*base_file, o.params); });
        });
    }
    for (const auto& [name, value] : card_options) {
        try {
            mmc::sim::set_option(o.params, name, value);
        } catch (const std::exception& e) {
            throw mmc::cli::UsageError(
                fmt::format("--{}{}{}: {}", name == "size" ? "capacity" : name, value.empty() ? "" : " ", value, e.what()));
        }
    }
    try {
        mmc::sim::validate(o.params);
    } catch (const std::exception& e) {
        throw mmc::cli::UsageError(fmt::format("not a card that can exist: {}", e.what()));
    }
    if (o.json && !o.describe) throw mmc::cli::UsageError("-J goes with --describe (the counters' JSON: --stats FILE)");
    if (o.describe && !o.command.empty()) throw mmc::cli::UsageError("--describe serves nothing; drop the COMMAND");
    if (!o.describe && o.command.empty()) throw mmc::cli::UsageError("no COMMAND to run on the simulated card (or use --describe)");
    return o;
}

int describe(const Options& o)
{
    if (o.json)
        std::cout << mmc::simserve::describe_json(o.params).dump(2) << '\n';
    else
        std::cout << mmc::simserve::describe_text(o.params);
    return mmc::cli::ok;
}

// Runs COMMAND with the device in its environment; its exit code. It shares
// our terminal: a Ctrl-C reaches it directly, a stop signal sent to us alone
// is passed on.
int run_command(const Options& o, const mmc::simserve::HostDevice& device)
{
    mmc::cli::SpawnOptions options;
    options.environment = {{"MMC_SIM_DEV", device.device()}, {"MMC_SIM_STATS", device.live_stats().string()}};
    try {
        mmc::cli::Child command(o.command, options);
        return command.wait_passing_on_stop(mmc::cli::stop_requested());
    } catch (const std::system_error& e) {
        mmc::cli::error(tool, e.what());
        return mmc::cli::exit_code_of_start_failure(e);
    }
}

void write_stats(const std::string& file, nlohmann::json counters, int command_exit)
{
    if (counters.is_null()) throw std::runtime_error(fmt::format("--stats {}: the server left no counters", file));
    counters["command_exit_status"] = command_exit;
    std::ofstream out(file);
    out << counters.dump(2) << '\n';
    out.close();
    if (!out) throw std::runtime_error(fmt::format("--stats {}: cannot write", file));
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    const Options o = parse_options(argc, argv);
    if (o.describe) return describe(o);

    const auto plugin = mmc::simserve::plugin_file();
    int command_exit = mmc::cli::failure;
    try {
        mmc::simserve::check_host_can_serve();
        if (plugin.empty()) throw std::runtime_error("nbdkit-mmcsim-plugin.so: not found beside this program (build it: make)");
        mmc::cli::install_stop_signals(mmc::cli::SecondSignal::ignored);
        mmc::simserve::HostDevice device(o.params, plugin);
        if (o.verbose)
            mmc::cli::error(tool, fmt::format("{}: a simulated card of {} bytes; counters in {}", device.device(),
                                              o.params.size_bytes, device.live_stats().string()));
        if (!mmc::cli::stop_requested()) command_exit = run_command(o, device);
        const auto counters = device.stop();
        for (const auto& w : device.warnings()) mmc::cli::error(tool, w);
        if (o.stats_file) write_stats(*o.stats_file, counters, command_exit);
    } catch (const std::exception& e) {
        // Torn down by a signal: said here, and the signal's status below.
        if (!mmc::cli::stop_requested()) throw;
        mmc::cli::error(tool, e.what());
    }
    // Interrupted: the shell's convention, 128 + the signal (130 for Ctrl-C).
    if (const int sig = mmc::cli::first_stop_signal()) return 128 + sig;
    return command_exit;
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
