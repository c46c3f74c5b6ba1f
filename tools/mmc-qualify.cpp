// mmc-qualify: the whole pipeline on one card: identify, diagnose the bus,
// probe the geometry, (with --destructive) erase and probe the capacity,
// measure, compare the used and erased states; one result bundle. Thin: options,
// the confirmation, signals and the views here; the step table, the plan,
// running it and the bundle in libmmc/qualify.
#include "bench/job.h"
#include "bench/suites.h"
#include "cli/cli.h"
#include "cli/device_sources.h"
#include "cli/stop_signal.h"
#include "cli/confirm.h"
#include "cli/deprecated.h"
#include "cli/duration.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "qualify/bundle.h"
#include "qualify/device_check.h"
#include "qualify/pipeline.h"
#include "qualify/steps.h"
#include "report/import.h"
#include "report/load.h"
#include "report/make_bundle.h"
#include "report/tables.h"
#include "report/text.h"
#include "version.h"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <fmt/format.h>
#include <getopt.h>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace {

constexpr const char* tool = "mmc-qualify";

const std::atomic<bool>& stop_requested = mmc::cli::stop_requested(); // set by SIGINT, SIGTERM, SIGHUP

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] DEVICE

Identify, diagnose, clean and measure an SD/MMC card; write one result
bundle and print what the card is, what the bus allows, its flash geometry
(mmc-probe, when installed), what it measured and which of its claims held.
DEVICE is /dev/mmcblk0, mmcblk0, mmc0 or mmc0:4567, or a USB card reader's
slot (/dev/sdb): what needs the MMC host (registers, health) is then skipped,
saying why, and the bundle records the reader and its link.

Options:
     --destructive       erase the card (verified), test its capacity, run
                         write suites and the state comparison (what erasing
                         buys); DESTROYS ALL DATA on DEVICE (asks once)
 -y, --yes               do not ask (with --destructive or --apply)
 -n, --dry-run           print the plan (what is read, erased, written) and stop
 -s, --suite LIST        comma-separated mmc-bench suites, one step each
                         (default: quick,iozone,a1 with --destructive; quick)
     --suites LIST       deprecated: use --suite
     --sustained         with --destructive, also write the whole card once with
                         mmc-bench's sustained suite (SLC cache, stalls, video
                         speed class by the spec's method); takes as long as the
                         card needs to be written
 -t, --runtime TIME      time budget of each benchmark job (default 5s)
     --size SIZE         benchmark region, from the start of the card (default 64M)
     --erase card|region
                         with --destructive, erase the whole card (default) or
                         only the benchmark region (faster on big, slow cards)
     --out DIR           where the bundle goes (default: ./mmc-results)
     --db URL            also store the bundle in a results database (an
                         SQLite file or postgresql://...; see mmc-report(1))
     --host-label TEXT   the host's name in reports (default: the machine and bus mode)
     --card-label TEXT   the card's name in reports (default: maker, product, size)
     --tune              also run mmc-tune, last: its bus plan (the modes card
                         and host share; changes nothing) and its block-queue
                         measurement (schedulers and read-ahead, each put back);
                         the bundle keeps both, mmc-report shows before/after
     --apply             with --tune, trial the bus modes: CHANGES THE HOST's
                         bus mode (caps, clock) for each trial and puts the
                         starting mode back at the end (asks once)
     --keep              with --apply, keep what the trials chose: the bus mode
                         until the next reboot, the queue's setting and its
                         udev rule
     --any-device        allow a device that is not an MMC/SD card (tests)
     --no-ioctl          send no card commands; registers from sysfs and debugfs
     --sysfs-root DIR    read sysfs from DIR (default /sys; tests)
 -J, --json              print JSON (see mmc-qualify(1))
 -h, --help              display this help
 -V, --version           display version

The device is checked first: one that is missing, not a block device, or
not a card (without --any-device) ends the run at once, with no bundle.

Exit status: 0 when every step worked, 1 when one or more failed (the
bundle says which, with each step's exit status) or the device was refused
before any step, 2 on a usage error, 130
when interrupted (the bundle is written, marked interrupted; no step is
started after Ctrl-C).

Examples:
 {0} /dev/mmcblk0
 {0} --dry-run --destructive mmcblk0
 {0} --destructive --erase region --size 32M --db results.sqlite /dev/mmcblk0
)",
               tool);
}

struct Options {
    mmc::qualify::Settings settings;
    bool yes = false, dry_run = false, json = false;
    std::string out_dir = "./mmc-results", db, host_label, card_label;
};

std::vector<mmc::bench::Suite> parse_suites(const std::string& list)
{
    std::vector<mmc::bench::Suite> suites;
    std::istringstream in(list);
    for (std::string s; std::getline(in, s, ',');) {
        const auto suite = mmc::bench::suite_from_text(s);
        if (!suite)
            throw mmc::cli::UsageError(
                fmt::format("--suite {}: unknown suite '{}' (expected {})", list, s, mmc::bench::suite_list()));
        suites.push_back(*suite);
    }
    if (suites.empty()) throw mmc::cli::UsageError("--suite: expected a comma-separated list such as quick,a1");
    return suites;
}

Options parse_options(int argc, char** argv)
{
    enum { destructive = 256, suites, size, erase, out, db, host_label, card_label, any_device, sustained, tune, apply, keep };
    static const auto longopts = mmc::cli::with_device_sources({
        {"destructive", no_argument, nullptr, destructive}, {"yes", no_argument, nullptr, 'y'},
        {"dry-run", no_argument, nullptr, 'n'},             {"suite", required_argument, nullptr, 's'},
        {"suites", required_argument, nullptr, suites},     {"sustained", no_argument, nullptr, sustained},
        {"runtime", required_argument, nullptr, 't'},       {"size", required_argument, nullptr, size},
        {"erase", required_argument, nullptr, erase},       {"out", required_argument, nullptr, out},
        {"db", required_argument, nullptr, db},             {"host-label", required_argument, nullptr, host_label},
        {"card-label", required_argument, nullptr, card_label}, {"any-device", no_argument, nullptr, any_device},
        {"tune", no_argument, nullptr, tune},               {"apply", no_argument, nullptr, apply},
        {"keep", no_argument, nullptr, keep},
        {"json", no_argument, nullptr, 'J'},                {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    });
    mmc::cli::DeviceSources sources;
    Options o;
    auto& s = o.settings;
    bool suites_given = false, erase_given = false;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":yns:t:JhV", longopts.data())) != -1) {
        switch (c) {
        case destructive: s.destructive = true; break;
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case suites: mmc::cli::warn_deprecated(tool, "--suites", "--suite"); [[fallthrough]];
        case 's':
            s.suites = parse_suites(optarg);
            suites_given = true;
            break;
        case 't': {
            const double t = mmc::cli::seconds_option("--runtime", optarg);
            if (t <= 0) throw mmc::cli::UsageError("--runtime: expected a time above zero");
            s.runtime_s = t;
            break;
        }
        case size:
            s.region_bytes = mmc::cli::size_option("--size", optarg);
            if (s.region_bytes == 0) throw mmc::cli::UsageError("--size 0: expected a size above zero");
            break;
        case sustained: s.sustained = true; break;
        case erase: {
            erase_given = true;
            const std::string v = optarg;
            if (v == "card") s.erase_scope = mmc::qualify::EraseScope::card;
            else if (v == "region") s.erase_scope = mmc::qualify::EraseScope::region;
            else throw mmc::cli::UsageError(fmt::format("--erase {}: expected card or region", v));
            break;
        }
        case out: o.out_dir = optarg; break;
        case db: o.db = optarg; break;
        case host_label: o.host_label = optarg; break;
        case card_label: o.card_label = optarg; break;
        case any_device: s.any_device = true; break;
        case tune: s.tune = true; break;
        case apply: s.tune_apply = true; break;
        case keep: s.tune_keep = true; break;
        case 'J': o.json = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) mmc::cli::throw_getopt_error(c, argv);
        }
    }
    s.use_ioctl = sources.use_ioctl;
    s.roots = sources.roots(s.roots);
    if (optind >= argc) throw mmc::cli::UsageError("no DEVICE given (e.g. /dev/mmcblk0)");
    s.device = argv[optind++];
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    // --erase only chooses what --destructive erases: alone it would be ignored.
    if (erase_given && !s.destructive)
        throw mmc::cli::UsageError("--erase chooses what --destructive erases; add --destructive (or leave --erase out)");
    // --apply and --keep only say what --tune does: alone they would be ignored.
    if (s.tune_apply && !s.tune)
        throw mmc::cli::UsageError("--apply trials the bus modes mmc-tune plans; add --tune (or leave --apply out)");
    if (s.tune_keep && !s.tune_apply)
        throw mmc::cli::UsageError("--keep keeps what the trials chose; add --tune --apply (or leave --keep out)");
    if (!suites_given) s.suites = mmc::qualify::default_suites(s.destructive);
    // The sustained suite named in --suite is the same step as --sustained.
    if (std::find(s.suites.begin(), s.suites.end(), mmc::bench::Suite::sustained) != s.suites.end()) s.sustained = true;
    if (s.sustained && !s.destructive)
        throw mmc::cli::UsageError("the sustained suite writes the whole card; add --destructive");
    return o;
}

// The first Ctrl-C stops the pipeline cleanly (the running step at its next
// safe point, then the bundle); a second one (SA_RESETHAND) ends it at once,
// as in mmc-bench, for a step stuck in a command.
std::string now_utc() { return mmc::report::iso8601_utc(static_cast<int64_t>(std::time(nullptr))); }

// Asks once for the whole plan: what it destroys (--destructive) and what
// it changes on the host (--tune --apply). Returns an exit status, or -1 to go on.
int confirm_plan(const Options& o, const mmc::qualify::Plan& plan)
{
    const auto& s = o.settings;
    const std::string host_change = s.tune_keep ? "changes the host's bus mode for the trials and keeps the one they choose until reboot"
                                                : "changes the host's bus mode for the trials (the starting mode is put back)";
    const std::string what = plan.destructive ? fmt::format("destroys the data on {} (every step marked above){}", s.device,
                                                            plan.changes_host ? " and " + host_change : "")
                                              : host_change;
    const std::string action = plan.destructive ? fmt::format("destroy data on {}", s.device) : fmt::format("trial bus modes for {}", s.device);
    if (!o.yes && !isatty(STDIN_FILENO)) {
        mmc::cli::error(tool, fmt::format("{}: refusing to {} without confirmation: stdin is not a terminal; "
                                          "use --yes (or --dry-run to see the plan)",
                                          s.device, plan.destructive ? "destroy data" : "change the host's bus mode"));
        return mmc::cli::failure;
    }
    const auto answer = mmc::cli::confirm(fmt::format("{}This {}.", mmc::qualify::plan_text(plan), what), action, o.yes);
    if (stop_requested.load()) {
        mmc::cli::error(tool, "interrupted before anything was done");
        return mmc::cli::interrupted;
    }
    if (answer != mmc::cli::Confirmation::yes) {
        mmc::cli::error(tool, "not confirmed; nothing was done");
        return mmc::cli::failure;
    }
    return -1;
}

// The step lines on stderr, as the pipeline goes: "mmc-qualify: erase ... ok".
// On a terminal a long step shows how far it is on the progress line, which
// replaces the step's line until the step ends and the line is written again.
struct StepLines {
    mmc::cli::ProgressLine line;
    std::string prefix; // "mmc-qualify: erase ... "
    bool drawn = false;

    void progress(const std::string& text, bool last)
    {
        if (!line.enabled()) return;
        line.show(prefix + text, last);
        drawn = true;
    }
    // Before anything else goes to stderr: the step's own line again.
    void restore()
    {
        if (!drawn) return;
        line.clear();
        fmt::print(stderr, "{}", prefix);
        drawn = false;
    }
};

mmc::qualify::RunHooks step_lines(StepLines& lines)
{
    mmc::qualify::RunHooks hooks;
    hooks.started = [&lines](const mmc::qualify::PlannedStep& s) {
        lines.prefix = fmt::format("{}: {} ... ", tool, s.spec.name);
        fmt::print(stderr, "{}", lines.prefix);
        std::fflush(stderr);
    };
    hooks.finished = [&lines](const mmc::qualify::StepRecord& r) {
        using mmc::qualify::StepState;
        lines.restore();
        if (r.state == StepState::ok) fmt::print(stderr, "ok ({:.1f} s){}{}\n", r.seconds, r.message.empty() ? "" : ": ", r.message);
        else if (r.state == StepState::skipped) fmt::print(stderr, "skipped: {}\n", r.message);
        else fmt::print(stderr, "failed (exit {}){}{}\n", r.exit_status.value_or(1), r.message.empty() ? "" : ": ", r.message);
    };
    return hooks;
}

struct Stored {
    bool ok = false;
    std::string text;   // "results.sqlite: stored" or why not
    std::string outcome; // "stored", "duplicate", "rejected", "failed"
};

Stored store_bundle(const std::string& db, const std::string& path)
{
    using mmc::report::Outcome;
    try {
        const auto store = mmc::report::open_store(db);
        const auto summary = mmc::report::import_paths(*store, {path});
        if (summary.items.empty()) return {false, fmt::format("{}: nothing imported", store->describe()), "failed"};
        const auto& item = summary.items.front();
        if (item.outcome == Outcome::rejected)
            return {false, fmt::format("{}: rejected: {}", store->describe(), item.reason), "rejected"};
        const bool fresh = item.outcome == Outcome::stored;
        return {true, fmt::format("{}: {}", store->describe(), fresh ? "stored" : "already there"), fresh ? "stored" : "duplicate"};
    } catch (const std::exception& e) {
        return {false, e.what(), "failed"};
    }
}

void print_summary(const Options& o, const mmc::qualify::Outcome& outcome, const std::string& bundle_path)
{
    fmt::print("\n== {}\n", o.settings.device);
    for (const auto& s : outcome.steps)
        if (!s.summary.empty() && (s.tool == "mmc-info" || s.tool == "mmc-bus")) fmt::print("{}\n", s.summary);
    auto loaded = mmc::report::load_paths({bundle_path});
    for (const auto& w : loaded.warnings) mmc::cli::error(tool, w);
    if (!loaded.bundles.empty())
        std::cout << mmc::report::text_report(mmc::report::build_report(std::move(loaded.bundles)), mmc::cli::use_color(STDOUT_FILENO));
    fmt::print("\nBundle: {}\n", bundle_path);
}

mmc::qualify::json run_json(const Options& o, const mmc::qualify::StepContext& context, const mmc::qualify::Outcome& outcome,
                            const std::string& bundle_path, const std::optional<Stored>& stored)
{
    mmc::qualify::json doc;
    doc["tool"] = tool;
    doc["version"] = mmc::version;
    doc["device"] = o.settings.device;
    doc["card"] = context.card; // null when the info step failed
    doc["destructive"] = o.settings.destructive;
    auto& steps = doc["steps"] = mmc::qualify::json::array();
    for (const auto& s : outcome.steps)
        steps.push_back({{"name", s.name},
                         {"tool", s.tool},
                         {"state", mmc::qualify::to_string(s.state)},
                         {"exit_status", s.exit_status ? mmc::qualify::json(*s.exit_status) : mmc::qualify::json(nullptr)},
                         {"message", s.message},
                         {"seconds", s.seconds}});
    doc["interrupted"] = outcome.interrupted;
    doc["partial"] = !outcome.all_ok();
    doc["bundle"] = bundle_path;
    doc["stored"] = stored ? mmc::qualify::json{{"database", o.db}, {"outcome", stored->outcome}, {"message", stored->text}}
                           : mmc::qualify::json(nullptr);
    return doc;
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    const Options o = parse_options(argc, argv);
    mmc::cli::install_stop_signals(mmc::cli::SecondSignal::kills);

    // The device first: a name that leads to nothing runs no step and leaves
    // no bundle. A device that is there but refused (no card, in use) still
    // gets its plan in a dry run, which then says the run would be refused.
    std::optional<mmc::dev::DeviceError> refused;
    // The device's attachment: a USB reader's slot skips the steps that need
    // the MMC host, and the bundle records the reader and link.
    mmc::qualify::Settings settings = o.settings;
    std::optional<mmc::dev::Device> device;
    try {
        device = mmc::qualify::check_device(o.settings);
        if (device->is_reader_slot()) settings.reader = device->usb;
    } catch (const mmc::dev::DeviceError& e) {
        using Why = mmc::dev::DeviceError::Why;
        if (!o.dry_run || e.why == Why::not_found || e.why == Why::not_block || e.why == Why::no_card || e.why == Why::no_block)
            throw;
        refused = e;
    }
    const auto plan = mmc::qualify::make_plan(mmc::qualify::step_table(settings), settings);
    if (o.dry_run) {
        if (o.json) {
            mmc::qualify::json doc;
            doc["tool"] = tool;
            doc["version"] = mmc::version;
            doc["dry_run"] = true;
            doc["plan"] = mmc::qualify::plan_json(plan);
            doc["refused"] = refused ? mmc::qualify::json(mmc::cli::error_text(*refused)) : mmc::qualify::json(nullptr);
            mmc::cli::print_json(doc, tool);
        } else {
            fmt::print("{}Dry run: no step was run; nothing was erased or written.\n", mmc::qualify::plan_text(plan));
            if (refused) fmt::print("A run would be refused before its first step: {}\n", mmc::cli::error_text(*refused));
        }
        if (refused) throw *refused; // the error and exit status the run would have
        return mmc::cli::ok;
    }
    if (plan.destructive || plan.changes_host)
        if (const int rc = confirm_plan(o, plan); rc >= 0) return rc;
    // Read before any step writes: the partition table's identifier goes with the erase.
    const auto attachment = mmc::qualify::attachment_of(*device);

    StepLines lines;
    mmc::qualify::StepContext context(settings, stop_requested);
    context.note = [&lines](const std::string& note) {
        lines.restore();
        fmt::print(stderr, "\n{}: {}\n{}", tool, note, lines.prefix);
    };
    context.progress = [&lines](const std::string& text, bool last) { lines.progress(text, last); };
    const auto outcome = mmc::qualify::run_plan(plan, context, step_lines(lines));
    if (outcome.interrupted)
        mmc::cli::error(tool, fmt::format("interrupted{}; no later step was started",
                                          outcome.interrupted_during.empty() ? "" : " during the " + outcome.interrupted_during + " step"));

    const std::string bundle_path = mmc::cli::in_context("could not write the bundle", [&] {
        const auto made = mmc::qualify::make_bundle(
            outcome, {o.card_label, o.host_label, mmc::report::collect_environment(), now_utc(), attachment});
        const auto written = mmc::qualify::write_bundle(o.out_dir, made);
        if (!written.replaced_at.empty()) fmt::print(stderr, "{}\n", mmc::cli::replaced_warning(tool, written.replaced_at));
        return written.path;
    });
    std::optional<Stored> stored;
    if (!o.db.empty()) {
        stored = store_bundle(o.db, bundle_path);
        if (!stored->ok) mmc::cli::error(tool, fmt::format("could not store the bundle in {} (it is still in {}): {}", o.db, bundle_path, stored->text));
    }

    if (o.json) {
        mmc::cli::print_json(run_json(o, context, outcome, bundle_path, stored), tool);
    } else {
        print_summary(o, outcome, bundle_path);
        if (stored && stored->ok) fmt::print("Stored: {}\n", stored->text);
    }
    if (outcome.interrupted) return mmc::cli::interrupted;
    if (!outcome.all_ok()) {
        mmc::cli::error(tool, "some steps failed; the bundle says which");
        return mmc::cli::failure;
    }
    return stored && !stored->ok ? mmc::cli::failure : mmc::cli::ok;
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
