// mmc-erase: erase a range of an SD/MMC card. Thin: options, confirmation
// and signals here; planning, safety, methods and verification in
// libmmc/erase; views in libmmc/views/erase_view.
#include "cli/cli.h"
#include "cli/device_sources.h"
#include "cli/deprecated.h"
#include "cli/stop_signal.h"
#include "cli/confirm.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "erase/erase.h"
#include "views/erase_view.h"
#include "probe/au_measure.h"
#include "probe/words_view.h"
#include "version.h"

#include <atomic>
#include <optional>
#include <cstring>
#include <fmt/format.h>
#include <getopt.h>
#include <iostream>
#include <unistd.h>

namespace {

constexpr const char* tool = "mmc-erase";

const std::atomic<bool>& stop_requested = mmc::cli::stop_requested(); // set by SIGINT, SIGTERM, SIGHUP

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] DEVICE

Erase a range of an SD, microSD or eMMC card, by the card's own erase
commands or the block layer's discard, secure discard or zeroout. DEVICE is
/dev/mmcblk0, mmcblk0, a partition (mmcblk0p1, erased within its bounds), a
host (mmc0) or a card (mmc0:4567); any block device with --any-device.

Options:
 -m, --method METHOD   auto (default: the best the card and host support),
                       discard, secure, zeroout (block layer); erase (SD and
                       eMMC CMD38 ERASE), sd-discard, fule (SD); trim,
                       emmc-discard, secure-erase, secure-trim, sanitize (eMMC)
 -o, --offset SIZE     start of the range (default 0); K, M, G, T suffixes
     --size SIZE       length of the range (default: to the end)
 -l, --length SIZE     deprecated: use --size
     --zero-unaligned  zero the head and tail outside whole erase units
                       (default: leave them alone)
     --au SIZE         the card's allocation unit, for cards whose registers
                       give none (default: the SD status's AU_SIZE); a method
                       that erases aligns to whole AUs, the only ones it
                       restores to the clean state
     --au measure      measure the AU first, as mmc-probe geometry does
                       (read-only: a few thousand small reads)
     --chunk SIZE      at most SIZE bytes per chunk (default: what the device
                       allows, bounded so Ctrl-C is prompt)
     --verify[=MODE]   read the range back and check it: sampled (default)
                       or full ("--verify full" works too)
 -y, --yes             do not ask for confirmation
 -n, --dry-run         print the plan and touch nothing
     --any-device      allow a block device that is not an MMC/SD card
     --no-ioctl        send no card commands (no raw methods; SSR from sysfs)
 -J, --json            print JSON (see mmc-erase(1))
 -v, --verbose         print each chunk as it completes (stderr)
     --sysfs-root DIR  read sysfs from DIR (default /sys)
 -h, --help            display this help
 -V, --version         display version

Examples:
 {0} --dry-run /dev/mmcblk0
 {0} --method erase --offset 16M --size 64M --verify /dev/mmcblk0
 {0} --any-device --au 4M --offset 4M --size 64M /dev/loop0
 {0} --yes --method discard mmcblk0p2
)",
               tool);
}

struct Options {
    std::string device;
    mmc::erase::Range range;
    mmc::erase::Method method = mmc::erase::Method::automatic;
    mmc::erase::Options lib;
    bool yes = false, dry_run = false, json = false, verbose = false;
    bool measure_au = false; // --au measure
};

Options parse_options(int argc, char** argv)
{
    enum { zero_unaligned = 256, chunk, verify, any_device, au, size, length_deprecated };
    static const auto longopts = mmc::cli::with_device_sources({
        {"method", required_argument, nullptr, 'm'},      {"offset", required_argument, nullptr, 'o'},
        {"size", required_argument, nullptr, size},       {"zero-unaligned", no_argument, nullptr, zero_unaligned},
        {"length", required_argument, nullptr, length_deprecated}, // deprecated spelling of --size, as -l
        {"chunk", required_argument, nullptr, chunk},     {"verify", optional_argument, nullptr, verify},
        {"au", required_argument, nullptr, au},
        {"yes", no_argument, nullptr, 'y'},               {"dry-run", no_argument, nullptr, 'n'},
        {"any-device", no_argument, nullptr, any_device},
        {"json", no_argument, nullptr, 'J'},              {"verbose", no_argument, nullptr, 'v'},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    });
    Options o;
    mmc::cli::DeviceSources sources;
    std::optional<std::string> au_given;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":m:o:l:ynJvhV", longopts.data())) != -1) {
        switch (c) {
        case 'm': {
            const auto m = mmc::erase::method_from_string(optarg);
            if (!m)
                throw mmc::cli::UsageError(fmt::format(
                    "--method {}: expected auto, discard, secure, zeroout, erase, sd-discard, fule, trim, "
                    "emmc-discard, secure-erase, secure-trim or sanitize",
                    optarg));
            o.method = *m;
            break;
        }
        case 'o': o.range.offset = mmc::cli::size_option("--offset", optarg); break;
        case 'l': mmc::cli::warn_deprecated(tool, "-l", "--size"); [[fallthrough]];
        case length_deprecated:
            if (c == length_deprecated) mmc::cli::warn_deprecated(tool, "--length", "--size");
            [[fallthrough]];
        case size: o.range.length = mmc::cli::size_option("--size", optarg); break;
        case zero_unaligned: o.lib.zero_unaligned = true; break;
        case chunk:
            o.lib.max_chunk = mmc::cli::size_option("--chunk", optarg);
            if (o.lib.max_chunk == 0) throw mmc::cli::UsageError("--chunk 0: a chunk must hold at least one byte");
            break;
        case au:
            if (const auto bytes = mmc::cli::au_option(optarg, au_given)) {
                o.lib.au_bytes = *bytes;
                o.lib.au_source = "--au";
            } else {
                o.measure_au = true;
            }
            break;
        case verify: {
            // "--verify=full" to getopt; "--verify full" is taken too (no device is named so).
            const char* given = optarg;
            if (!given && optind < argc && (std::string(argv[optind]) == "sampled" || std::string(argv[optind]) == "full"))
                given = argv[optind++];
            const std::string v = given ? given : "sampled";
            if (v == "sampled") o.lib.verify = mmc::erase::VerifyMode::sampled;
            else if (v == "full") o.lib.verify = mmc::erase::VerifyMode::full;
            else throw mmc::cli::UsageError(fmt::format("--verify={}: expected sampled or full", v));
            break;
        }
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case any_device: o.lib.any_device = true; break;
        case 'J': o.json = true; break;
        case 'v': o.verbose = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) mmc::cli::throw_getopt_error(c, argv);
        }
    }
    o.lib.use_ioctl = sources.use_ioctl;
    o.lib.roots = sources.roots(o.lib.roots);
    if (sources.sysfs_root) o.lib.safety.sysfs = *sources.sysfs_root;
    if (optind >= argc) throw mmc::cli::UsageError("no DEVICE given");
    o.device = argv[optind++];
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    return o;
}

void print_json(const nlohmann::ordered_json& body) { mmc::cli::print_tool_json(body, tool); }

int interrupted_status() { return mmc::cli::interrupted; }

// Ask on the terminal; true only for "yes".
bool confirm(const mmc::erase::Prepared& p)
{
    const auto question = fmt::format("{}\nThis destroys the data in the range above on {}.",
                                      mmc::out::erase_plan_text(p), p.target.path);
    return mmc::cli::confirm(question, "erase", false) == mmc::cli::Confirmation::yes;
}

// --au measure: the AU from the read ladder of mmc-probe geometry, on the
// whole disk (AUs are counted from its first byte). Read-only.
void measure_au(Options& o, const mmc::erase::Target& t)
{
    const auto au = mmc::probe::measure_au(t.disk_path, "nothing was erased");
    o.lib.au_bytes = au.bytes;
    o.lib.au_source = fmt::format("the read ladder (mmc-probe geometry: confidence {})", mmc::probe::confidence_name(au.confidence));
}

// Asks before erasing (or, with --yes, shows what is about to go). An
// interrupted question returns the status to exit with.
std::optional<int> confirm_or_show(const Options& o, const mmc::erase::Prepared& prepared)
{
    if (o.yes) {
        if (!o.json) { // show what is about to go, even unasked
            fmt::print("{}", mmc::out::erase_plan_text(prepared));
            std::fflush(stdout);
        }
        return std::nullopt;
    }
    if (!isatty(STDIN_FILENO))
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure,
                              fmt::format("{}: refusing to erase without confirmation: stdin is not a terminal; "
                                          "use --yes (or --dry-run to see the plan)",
                                          prepared.target.path));
    const bool yes = confirm(prepared);
    if (stop_requested.load()) {
        fmt::print(stderr, "\n");
        mmc::cli::error(tool, "interrupted before anything was erased");
        return interrupted_status();
    }
    if (!yes) throw mmc::cli::Error(mmc::cli::ErrorKind::failure, "not confirmed; nothing was erased");
    return std::nullopt;
}

// The erase with its progress on a terminal; -v adds a line per chunk,
// which the progress line must not overwrite.
mmc::erase::Report erase_with_progress(const Options& o, const mmc::erase::Prepared& prepared)
{
    mmc::cli::ProgressLine line;
    auto progress = [&](const mmc::erase::Progress& p) {
        if (o.verbose) {
            line.clear();
            fmt::print(stderr, "chunk {}/{} done: {} of {} bytes in {:.3f} s\n", p.chunks_done, p.chunks_total,
                       p.done_bytes, p.total_bytes, p.seconds);
        }
        line.show(mmc::out::erase_progress_line(p), p.done_bytes == p.total_bytes);
    };
    // An error leaves through run_tool: the progress line ends first.
    struct FinishLine {
        mmc::cli::ProgressLine& line;
        ~FinishLine() { line.finish(); }
    } finish_line{line};
    return mmc::cli::in_context(o.device, [&] { return mmc::erase::execute(prepared, progress, stop_requested); });
}

// The report, then the exit status by its causes: interrupted, a failed
// chunk, a failed verification.
int report_erase(const Options& o, const mmc::erase::Prepared& prepared, const mmc::erase::Report& report)
{
    if (o.json)
        print_json(mmc::out::erase_json(prepared, &report));
    else
        fmt::print("{}{}", o.yes ? "\n" : "", mmc::out::erase_report_text(report));

    if (report.interrupted) {
        mmc::cli::error(tool, fmt::format("interrupted: erased offset {} length {} of {}", report.erased.offset,
                                          report.erased.length, prepared.target.path));
        return interrupted_status();
    }
    if (!report.error.empty())
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure, fmt::format("{}: {}", prepared.target.path, report.error));
    if (report.verify && report.verify->result == mmc::erase::VerifyResult::fail)
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure,
                              fmt::format("{}: verification failed: the range does not read back as erased",
                                          prepared.target.path));
    return mmc::cli::ok;
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    Options o = parse_options(argc, argv);
    // A second signal is ignored too: a card command in flight always ends.
    mmc::cli::install_stop_signals(mmc::cli::SecondSignal::ignored);

    // Resolved and identified once; planned again after --au measure from
    // the same record. A bad range is a usage error (erase::PlanError), the
    // rest failures.
    const auto device = mmc::cli::in_context(o.device, [&] { return mmc::erase::device_to_erase(o.device, o.lib); });
    const auto card = mmc::dev::identify(device, o.lib.roots, {o.lib.use_ioctl});
    auto prepare = [&] {
        return mmc::cli::in_context(o.device, [&] {
            return mmc::erase::prepare(device, card ? &*card : nullptr, o.range, o.method, o.lib);
        });
    };
    mmc::erase::Prepared prepared = prepare();
    if (o.measure_au) { // the device is resolved and safe: measure, then plan again with the AU found
        measure_au(o, prepared.target);
        prepared = prepare();
    }

    if (o.dry_run) {
        if (o.json)
            print_json(mmc::out::erase_json(prepared, nullptr));
        else
            fmt::print("{}Dry run: nothing was erased.\n", mmc::out::erase_plan_text(prepared));
        return mmc::cli::ok;
    }
    if (const auto status = confirm_or_show(o, prepared)) return *status;
    return report_erase(o, prepared, erase_with_progress(o, prepared));
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
