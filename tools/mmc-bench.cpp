// mmc-bench: calibrated benchmarks of SD/microSD/eMMC cards, with verdicts
// against the card's own claims and the bus it runs on. Thin: options here,
// the engine, suites and views in libmmc/bench.
#include "bench/dry_run_view.h"
#include "bench/session.h"
#include "cli/cli.h"
#include "cli/device_sources.h"
#include "cli/confirm.h"
#include "cli/duration.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "version.h"

#include <atomic>
#include <charconv>
#include <cstdio>
#include <fmt/format.h>
#include <getopt.h>
#include <iostream>
#include <unistd.h>

namespace {

constexpr const char* tool = "mmc-bench";

const std::atomic<bool>& stop_requested = mmc::cli::stop_requested(); // set by SIGINT, SIGTERM, SIGHUP

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] DEVICE
 {0} [options] --file PATH

Measure how fast an SD/microSD/eMMC card is, calibrated and repeatable, and
judge it against its own claims (speed class, UHS grade, video class, A1/A2)
and the ceiling of the bus mode the host runs it in. Read-only unless
--destructive is given; --file measures a test file on a mounted filesystem.

Suites (default: quick):
 -s, --suite NAME        quick   sequential 4M read/write, random 4k read/write, QD1
                         iozone  4k/512k/16M sequential, 1k/4k/16k random, QD1
                         a1, a2  4k random IOPS and sustained write vs A1/A2
                         class   per-AU sequential write vs C/U/V classes
                         state   sequential and 4k random write used, then
                                 after an erase of the region: what erasing
                                 buys (needs --destructive)
                         sustained  the whole card (or --size) written once
                                 in 512 KiB units: SLC cache knee, burst and
                                 sustained speed, stalls, recording budget,
                                 per-AU class verdicts (needs --destructive)
     --idle TIME         sustained: then idle TIME and write again: what of
                         the cache recovered

One custom job instead (fio's terms):
     --rw MODE           read, write, randread or randwrite
 -b, --bs SIZE           block size, 512 to 16M (default 4k)
 -q, --iodepth N         I/Os in flight (default 1; above 1 needs io_uring)
 -e, --ioengine NAME     psync (default) or io_uring
     --number-ios N      stop after N I/Os

Common options:
 -t, --runtime TIME      time budget of each job (e.g. 10s, 2m)
     --offset SIZE       region start (rounded up to the AU on a card)
     --size SIZE         region length (test file size with --file; default 256M)
     --warmup TIME       run this long first and discard it (default 1s)
     --ci PCT            stop a job once its 95% confidence interval is within
                         +-PCT of the mean (default 2; 0 runs the whole budget)
     --precondition M    none (default), erase (discard the region), fill
                         (write the region sequentially first) or fragment
                         (4k writes scattered over every AU of the region: a
                         used card; the state suite's default)
     --au SIZE           allocation unit for alignment and the class suite
                         (default: the card's, else 4M)
     --cpu N             pin to CPU N (default: not pinned)
 -f, --file PATH         measure a test file created at PATH (or in the
                         directory PATH) on a mounted filesystem; it is
                         removed when the run ends, even on Ctrl-C
     --destructive       allow write tests on a raw device (destroys its data)
 -n, --dry-run           print the plan (jobs, regions, what is written) and stop
     --any-device        allow writing to a device that is not an MMC/SD card
 -y, --yes               do not ask before writing
     --no-ioctl          read the card's registers from sysfs only
     --sysfs-root DIR    read sysfs from DIR (default /sys; tests)
 -J, --json              print JSON (see mmc-bench(1) for the contract)
 -h, --help              display this help
 -V, --version           display version

Exit status: 0 when the run completed (whatever the verdicts), 1 on failure,
a refusal or a run stopped early (partial results), 2 on a usage error.

Examples:
 {0} /dev/mmcblk0
 {0} --suite a1 --destructive /dev/mmcblk0
 {0} --suite state --destructive --size 128M /dev/mmcblk0
 {0} --suite sustained --destructive --idle 60s /dev/mmcblk0
 {0} --rw randread --bs 4k --iodepth 32 --ioengine io_uring --runtime 10s mmcblk0
 {0} --file /media/card --suite iozone
)",
               tool);
}

enum LongOnly {
    opt_rw = 256, opt_number_ios, opt_offset, opt_size, opt_warmup, opt_ci, opt_precondition, opt_au, opt_cpu,
    opt_destructive, opt_any_device, opt_idle,
};

struct Parsed {
    mmc::bench::SessionOptions session;
    bool json = false;
    bool yes = false;
    bool dry_run = false;
};

uint64_t number(const char* option, const char* text)
{
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (errno || !end || *end || text[0] == '-' || text[0] == '\0')
        throw mmc::cli::UsageError(fmt::format("{} {}: expected a whole number", option, text));
    return v;
}

Parsed parse_options(int argc, char** argv)
{
    static const auto longopts = mmc::cli::with_device_sources({
        {"suite", required_argument, nullptr, 's'},      {"rw", required_argument, nullptr, opt_rw},
        {"bs", required_argument, nullptr, 'b'},         {"iodepth", required_argument, nullptr, 'q'},
        {"ioengine", required_argument, nullptr, 'e'},   {"runtime", required_argument, nullptr, 't'},
        {"number-ios", required_argument, nullptr, opt_number_ios},
        {"offset", required_argument, nullptr, opt_offset}, {"size", required_argument, nullptr, opt_size},
        {"warmup", required_argument, nullptr, opt_warmup}, {"ci", required_argument, nullptr, opt_ci},
        {"precondition", required_argument, nullptr, opt_precondition}, {"au", required_argument, nullptr, opt_au},
        {"cpu", required_argument, nullptr, opt_cpu},    {"file", required_argument, nullptr, 'f'},
        {"destructive", no_argument, nullptr, opt_destructive}, {"any-device", no_argument, nullptr, opt_any_device},
        {"yes", no_argument, nullptr, 'y'},
        {"dry-run", no_argument, nullptr, 'n'},
        {"idle", required_argument, nullptr, opt_idle},
        {"json", no_argument, nullptr, 'J'},             {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    });
    mmc::cli::DeviceSources sources;
    using namespace mmc::bench;
    Parsed p;
    auto& s = p.session;
    Job custom;
    bool have_custom = false, custom_detail = false, suite_given = false;
    std::optional<double> runtime;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":s:b:q:e:t:f:ynJhV", longopts.data())) != -1) {
        switch (c) {
        case 's':
            if (const auto given = suite_from_text(optarg)) s.suite = *given;
            else throw mmc::cli::UsageError(fmt::format("--suite {}: unknown suite (expected {})", optarg, suite_list()));
            suite_given = true;
            break;
        case opt_rw: {
            const auto rw = parse_rw(optarg);
            if (!rw) throw mmc::cli::UsageError(fmt::format("--rw {}: expected read, write, randread or randwrite", optarg));
            custom.rw = *rw;
            have_custom = true;
            break;
        }
        case 'b': {
            const uint64_t bs = mmc::cli::size_option("--bs", optarg);
            if (bs < min_block_size || bs > max_block_size || bs % 512)
                throw mmc::cli::UsageError(fmt::format("--bs {}: expected a multiple of 512 from 512 to 16M", optarg));
            custom.block_size = static_cast<uint32_t>(bs);
            custom_detail = true;
            break;
        }
        case 'q': {
            const uint64_t q = number("--iodepth", optarg);
            if (q < 1 || q > max_iodepth) throw mmc::cli::UsageError(fmt::format("--iodepth {}: expected 1 to {}", optarg, max_iodepth));
            custom.iodepth = static_cast<unsigned>(q);
            custom_detail = true;
            break;
        }
        case 'e':
            if (const auto engine = engine_from_text(optarg)) custom.runner = *engine;
            else throw mmc::cli::UsageError(fmt::format("--ioengine {}: expected psync or io_uring", optarg));
            custom_detail = true;
            break;
        case 't': runtime = mmc::cli::seconds_option("--runtime", optarg); break;
        case opt_number_ios:
            custom.ios = number("--number-ios", optarg);
            custom_detail = true;
            break;
        case opt_offset: s.suite_options.offset = mmc::cli::size_option("--offset", optarg); break;
        case opt_size: {
            const uint64_t size = mmc::cli::size_option("--size", optarg);
            if (size == 0) throw mmc::cli::UsageError("--size 0: expected a size above zero");
            s.suite_options.length = size;
            break;
        }
        case opt_idle: {
            const double idle = mmc::cli::seconds_option("--idle", optarg);
            if (idle <= 0) throw mmc::cli::UsageError("--idle: expected a time above zero");
            s.suite_options.idle_s = idle;
            break;
        }
        case opt_warmup: s.suite_options.warmup_s = mmc::cli::seconds_option("--warmup", optarg); break;
        case opt_ci: {
            std::string pct = optarg;
            if (!pct.empty() && pct.back() == '%') pct.pop_back();
            double ci = -1;
            const auto [end, ec] = std::from_chars(pct.data(), pct.data() + pct.size(), ci, std::chars_format::fixed);
            if (ec != std::errc() || end != pct.data() + pct.size() || ci < 0 || ci > 100) throw mmc::cli::UsageError(fmt::format("--ci {}: expected a percentage from 0 to 100", optarg));
            s.suite_options.ci_target_pct = ci;
            break;
        }
        case opt_precondition: {
            const auto m = parse_precondition(optarg);
            if (!m) throw mmc::cli::UsageError(fmt::format("--precondition {}: expected none, erase, fill or fragment", optarg));
            s.precondition = *m;
            break;
        }
        case opt_au: {
            const uint64_t au = mmc::cli::size_option("--au", optarg);
            if (au < 512 || au % 512) throw mmc::cli::UsageError(fmt::format("--au {}: expected a multiple of 512", optarg));
            s.au_bytes = au;
            break;
        }
        case opt_cpu: s.cpu = static_cast<int>(number("--cpu", optarg)); break;
        case 'f': s.file = optarg; break;
        case opt_destructive: s.destructive = true; break;
        case opt_any_device: s.any_device = true; break;
        case 'y': p.yes = true; break;
        case 'n': p.dry_run = true; break;
        case 'J': p.json = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) mmc::cli::throw_getopt_error(c, argv);
        }
    }
    if (optind < argc) s.device = argv[optind++];
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    if (s.device.empty() && !s.file) throw mmc::cli::UsageError("no DEVICE and no --file PATH given");
    if (!s.device.empty() && s.file) throw mmc::cli::UsageError("give a DEVICE or --file PATH, not both");
    if (s.file && s.precondition && *s.precondition != mmc::bench::PreconditionMethod::none)
        throw mmc::cli::UsageError("--precondition applies to a raw device; a test file is written once when it is created");
    if (custom_detail && !have_custom) throw mmc::cli::UsageError("--bs, --iodepth, --ioengine and --number-ios describe a custom job: add --rw");
    if (have_custom && suite_given) throw mmc::cli::UsageError("give a --suite or a custom job (--rw), not both");
    if (have_custom) {
        if (custom.iodepth > 1 && custom.runner == EngineKind::psync)
            throw mmc::cli::UsageError(fmt::format("--iodepth {} needs --ioengine io_uring (psync keeps one I/O in flight)", custom.iodepth));
        if (runtime) custom.runtime_s = *runtime;
        if (s.suite_options.warmup_s) custom.warmup_s = *s.suite_options.warmup_s;
        if (s.suite_options.ci_target_pct) custom.ci_target_pct = *s.suite_options.ci_target_pct;
        custom.name = default_name(custom);
        s.custom = custom;
    }
    if (s.suite_options.idle_s && (s.suite != Suite::sustained || have_custom))
        throw mmc::cli::UsageError("--idle applies to the sustained suite (--suite sustained)");
    if (runtime && *runtime <= 0) throw mmc::cli::UsageError("--runtime: expected a time above zero");
    s.suite_options.runtime_s = runtime;
    s.use_ioctl = sources.use_ioctl;
    s.roots = sources.roots(s.roots);
    return p;
}

} // namespace

// The tool once its options parse; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    const Parsed p = parse_options(argc, argv);

    // The first Ctrl-C stops the run cleanly; a second one (SecondSignal::kills)
    // kills it at once, which leaves nothing behind either: the test file
    // has no name from the start.
    mmc::cli::install_stop_signals(mmc::cli::SecondSignal::kills);

    mmc::cli::ProgressLine line;
    // An error leaves through run_tool: no progress left on its line.
    struct ClearLine {
        mmc::cli::ProgressLine& line;
        ~ClearLine() { line.clear(); }
    } clear_line{line};
    mmc::bench::SessionHooks hooks;
    hooks.stop = &stop_requested;
    hooks.confirm = [&](const std::string& question) {
        line.clear();
        return mmc::cli::confirm(question, "write to it", p.yes);
    };
    hooks.phase = [&](const std::string& what) { line.show(what + "...", true); };
    hooks.note = [&](const std::string& note) {
        line.clear();
        fmt::print(stderr, "{}: {}\n", tool, note);
    };
    hooks.job_done = [&] { line.clear(); };
    hooks.progress = [&](std::size_t i, std::size_t n, const mmc::bench::Progress& pr) {
        if (!line.enabled()) return;
        if (n == 0) {
            line.show(fmt::format("preparing: {:.0f}% ({} MiB)", pr.elapsed_s * 100, pr.bytes >> 20));
            return;
        }
        const auto& j = *pr.job;
        if (pr.warming) {
            line.show(fmt::format("[{}/{}] {:<22} warm-up {:.1f}/{:.1f} s", i, n, j.name, pr.elapsed_s, pr.budget_s));
            return;
        }
        const double mb_s = pr.elapsed_s > 0 ? static_cast<double>(pr.bytes) / pr.elapsed_s / 1e6 : 0;
        const double iops = pr.elapsed_s > 0 ? static_cast<double>(pr.ios) / pr.elapsed_s : 0;
        if (j.one_pass && j.ios) {
            // A pass over its region (the whole card for the sustained suite):
            // how far, at what speed, how long still.
            const uint64_t total = j.ios * j.block_size;
            line.show(fmt::format("[{}/{}] {:<22} {} of {}  {:8.2f} MB/s  {}", i, n, j.name,
                                  mmc::cli::format_bytes(pr.bytes), mmc::cli::format_bytes(total), mb_s,
                                  mmc::cli::eta_text(static_cast<double>(pr.bytes), static_cast<double>(total), pr.elapsed_s)));
            return;
        }
        line.show(fmt::format("[{}/{}] {:<22} {:5.1f}/{:.0f} s  {:9.1f} IOPS  {:8.2f} MB/s", i, n, j.name, pr.elapsed_s,
                              pr.budget_s, iops, mb_s));
    };

    if (p.dry_run) {
        const auto dry = mmc::bench::plan_session(p.session, hooks);
        line.clear();
        if (p.json) mmc::cli::print_json(mmc::bench::dry_run_json(dry), tool);
        else std::cout << mmc::bench::dry_run_text(dry);
        return mmc::cli::ok;
    }
    mmc::bench::RunReport report = mmc::bench::run_session(p.session, hooks);
    line.clear();
    report.interrupted = report.partial && stop_requested.load();
    if (p.json)
        mmc::cli::print_json(mmc::bench::report_json(report), tool);
    else
        std::cout << mmc::bench::report_text(report, mmc::cli::use_color(STDOUT_FILENO));
    if (report.partial) {
        mmc::cli::error(tool, report.partial_why);
        return report.interrupted ? mmc::cli::interrupted : mmc::cli::failure;
    }
    return mmc::cli::ok;
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
