// mmc-tune queue: options, the device, the confirmation, the progress line
// and the signals; the race, the measurements, the discard timing, the rule,
// --apply/--undo and the views are libmmc/tune's (queue_*.h).
#include "queue.h"
#include "tool.h"

#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/device_sources.h"
#include "cli/duration.h"
#include "cli/file_out.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/block_queue.h"
#include "dev/disk_identity.h"
#include "bench/target.h"
#include "dev/resolver.h"
#include "tune/queue_apply.h"
#include "tune/queue_bench.h"
#include "tune/queue_discard.h"
#include "tune/queue_race.h"
#include "tune/queue_udev.h"
#include "tune/queue_view.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <getopt.h>
#include <optional>
#include <unistd.h>

namespace mmc_tune {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
namespace tune = mmc::tune;
namespace fs = std::filesystem;

void queue_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} queue [options] DEVICE
 {0} queue --undo DEVICE

Choose the block queue's I/O scheduler and read-ahead for DEVICE by
measurement: every scheduler the kernel offers times a few read-aheads, each
measured with mmc-bench's engine, interleaved and repeated until the
intervals separate or the time budget runs out. A change is advised only
when it is faster than the setting in force by more than the noise, the
scheduler and the read-ahead each on its own evidence; otherwise the current
setting is kept. Read-ahead acts only
on buffered reads, so the sequential read goes through the page cache; the
setting in force is put back after measuring, and on Ctrl-C. The advice is
kept by a udev rule matched to this card (its CID), written and put in force
only with --apply (asks first, or --yes); --undo removes it.

Options:
     --time TIME              the whole measurement's budget (default 2m)
     --runtime TIME           each measurement's time (default 1s)
     --scheduler LIST         only these schedulers, comma separated (default:
                              every one the kernel offers)
     --read-ahead LIST        the read-aheads to try, comma separated sizes
                              (default 128k,512k,2M and the one in force)
     --destructive            also measure writes and time a discard, in the
                              scratch region --offset/--size (its data is lost)
     --offset SIZE            the scratch region's start (default 0)
     --size SIZE              the scratch region's length
     --apply                  write the udev rule and put the advice in force now
     --undo                   remove the rule and put back what --apply found
     --emit FILE              write the udev rule to FILE as well
     --any-device             allow a block device that is not an MMC/SD card
 -y, --yes                    do not ask before writing
 -n, --dry-run                print what would be measured and change nothing
 -J, --json                   print JSON (see mmc-tune(1))
     --sysfs-root DIR         read sysfs from DIR (default /sys)
 -h, --help                   display this help
 -V, --version                display version

Environment: MMCKIT_UDEV_RULES_DIR (default /etc/udev/rules.d) and
MMCKIT_RUN_DIR (default /run/mmckit) move where --apply writes.

Examples:
 {0} queue /dev/mmcblk0
 {0} queue --time 5m --apply /dev/mmcblk0
 {0} queue --destructive --offset 1G --size 256M /dev/mmcblk0
 {0} queue --undo /dev/mmcblk0
)",
               tool);
}

struct Options {
    std::string device;
    double budget_s = 120, sample_s = 1;
    std::optional<std::vector<std::string>> schedulers;
    std::optional<std::vector<uint64_t>> read_aheads_kb;
    bool destructive = false, apply = false, undo = false, any_device = false, yes = false, dry_run = false, json = false;
    std::optional<uint64_t> offset, size;
    std::optional<std::string> emit;
    dev::SysRoots roots;
};

std::vector<std::string> split_list(const std::string& option, const std::string& text)
{
    std::vector<std::string> out;
    std::size_t at = 0;
    for (;;) {
        const auto comma = text.find(',', at);
        const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (item.empty()) throw cli::UsageError(fmt::format("{} {}: an empty item in the list", option, text));
        out.push_back(item);
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return out;
}

std::vector<uint64_t> read_ahead_list(const std::string& text)
{
    std::vector<uint64_t> out;
    for (const auto& item : split_list("--read-ahead", text)) {
        const uint64_t bytes = cli::size_option("--read-ahead", item);
        if (bytes % 1024 != 0 || bytes > (uint64_t{1} << 30))
            throw cli::UsageError(fmt::format("--read-ahead {}: a whole number of KiB up to 1G", item));
        out.push_back(bytes / 1024);
    }
    return out;
}

double positive_seconds(const char* option, const std::string& text)
{
    const double s = cli::seconds_option(option, text);
    if (!(s > 0)) throw cli::UsageError(fmt::format("{} {}: give a time above zero", option, text));
    return s;
}

Options parse_options(int argc, char** argv)
{
    enum { time_opt = 256, runtime, scheduler, read_ahead, destructive, offset, size, apply, undo, emit, any_device };
    static const auto longopts = cli::with_device_sources({
        {"time", required_argument, nullptr, time_opt},
        {"runtime", required_argument, nullptr, runtime},
        {"scheduler", required_argument, nullptr, scheduler},
        {"read-ahead", required_argument, nullptr, read_ahead},
        {"destructive", no_argument, nullptr, destructive},
        {"offset", required_argument, nullptr, offset},
        {"size", required_argument, nullptr, size},
        {"apply", no_argument, nullptr, apply},
        {"undo", no_argument, nullptr, undo},
        {"emit", required_argument, nullptr, emit},
        {"any-device", no_argument, nullptr, any_device},
        {"yes", no_argument, nullptr, 'y'},
        {"dry-run", no_argument, nullptr, 'n'},
        {"json", no_argument, nullptr, 'J'},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    }, {.no_ioctl = false}); // it sends no card commands
    Options o;
    cli::DeviceSources sources;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = cli::next_option(argc, argv, ":ynJhV", longopts.data())) != -1) {
        const std::string arg = optarg ? optarg : "";
        switch (c) {
        case time_opt: o.budget_s = positive_seconds("--time", arg); break;
        case runtime: o.sample_s = positive_seconds("--runtime", arg); break;
        case scheduler:
            if (o.schedulers) throw cli::UsageError("--scheduler given twice; give one list");
            o.schedulers = split_list("--scheduler", arg);
            break;
        case read_ahead:
            if (o.read_aheads_kb) throw cli::UsageError("--read-ahead given twice; give one list");
            o.read_aheads_kb = read_ahead_list(arg);
            break;
        case destructive: o.destructive = true; break;
        case offset: o.offset = cli::size_option("--offset", arg); break;
        case size: o.size = cli::size_option("--size", arg); break;
        case apply: o.apply = true; break;
        case undo: o.undo = true; break;
        case emit: o.emit = arg; break;
        case any_device: o.any_device = true; break;
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case 'J': o.json = true; break;
        case 'h': queue_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv);
        }
    }
    o.roots = sources.roots(o.roots);
    if (optind >= argc) throw cli::UsageError("no DEVICE given");
    o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    if (o.apply && o.undo) throw cli::UsageError("--apply and --undo contradict; give one");
    if (o.undo && (o.destructive || o.emit || o.dry_run))
        throw cli::UsageError("--undo only puts back what --apply changed: give it alone with DEVICE");
    if ((o.offset || o.size) && !o.destructive)
        throw cli::UsageError("--offset and --size name the scratch region of --destructive; give it too");
    if (o.destructive && !o.size) throw cli::UsageError("--destructive needs the scratch region: give --size (and --offset)");
    if (o.size && *o.size == 0) throw cli::UsageError("--size 0: the scratch region is empty");
    return o;
}

tune::QueueApplyPaths apply_paths()
{
    tune::QueueApplyPaths p;
    if (const char* r = std::getenv("MMCKIT_UDEV_RULES_DIR"); r && *r) p.rules_dir = r;
    if (const char* r = std::getenv("MMCKIT_RUN_DIR"); r && *r) p.run_dir = r;
    return p;
}

dev::Device resolve(const Options& o)
{
    dev::ResolveOptions ro;
    ro.roots = o.roots;
    ro.any_device = o.any_device;
    const auto purpose = o.destructive ? dev::Purpose::erase : dev::Purpose::read;
    dev::Device d = dev::resolve_device(o.device, purpose, ro);
    if (!d.card && !d.is_reader_slot() && !o.any_device)
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: not an MMC/SD device: {}", d.typed, d.not_mmc),
                         cli::Remedy::any_device_measure);
    if (d.is_partition)
        throw cli::UsageError(fmt::format("{}: a partition of {}; the queue is the disk's: name {}", d.typed, d.disk, d.disk_path));
    if (o.destructive) d.require_allowed();
    if (o.size && (*o.size > d.size || o.offset.value_or(0) > d.size - *o.size))
        throw cli::UsageError(fmt::format("{}: the scratch region ends beyond the device ({})", d.typed,
                                          cli::format_bytes_exact(d.size)));
    return d;
}

tune::QueueSetting setting_of(const dev::QueueSettings& s) { return {s.scheduler, s.read_ahead_kb}; }

void emit_report(const Options& o, const tune::QueueReport& report)
{
    if (o.json)
        cli::print_tool_json(tune::queue_json(report), tool, "queue");
    else
        fmt::print("{}", tune::queue_text(report));
}

bool confirmed(const std::string& question, bool yes)
{
    if (yes) return true;
    if (!isatty(STDIN_FILENO))
        throw cli::Error(cli::ErrorKind::failure, "refusing to change anything without confirmation: stdin is not a terminal",
                         cli::Remedy::confirm);
    return cli::confirm(question, "go on", false) == cli::Confirmation::yes;
}

int undo(const Options& o, const dev::Device& d, tune::QueueReport& report)
{
    report.undone = cli::in_context(d.typed, [&] {
        return tune::undo_queue(apply_paths(), d.disk, d.disk_syspath, report.start);
    });
    emit_report(o, report);
    return cli::ok;
}

// The rule for the advice, or why there is none.
tune::QueuePersistent persistent_form(const dev::Device& d, const Options& o, const tune::QueueSetting& chosen,
                                      const tune::RaceResult& race)
{
    tune::QueuePersistent p;
    const auto id = dev::read_disk_identity(d, o.roots);
    std::string why;
    const auto match = tune::device_match(id, d.card.has_value(), why);
    if (!match) {
        p.why_not = fmt::format("{}: {}", d.typed, why);
        return p;
    }
    const std::string comment = fmt::format("mmc-tune queue: {} for {} ({})\n{}", tune::to_string(chosen), d.disk_path,
                                            dev::describe_device(d), race.reason);
    p.text = tune::udev_rule(*match, chosen, comment);
    p.scope = match->scope;
    p.file = (apply_paths().rules_dir / tune::rule_file_name(*match)).string();
    return p;
}

} // namespace

int run_queue(int argc, char** argv)
{
    const Options o = parse_options(argc, argv);
    // Measuring changes the queue's settings while it runs: a signal is a
    // request to stop, honoured between I/Os, and the start setting is put
    // back before the exit (a second signal does not cut that short).
    const auto& stop = cli::install_stop_signals(cli::SecondSignal::ignored);
    const dev::Device d = resolve(o);
    const auto start_settings = cli::in_context(d.typed, [&] { return dev::read_queue_settings(d.disk_syspath); });
    tune::QueueReport report;
    report.device = d.disk_path;
    report.described = dev::describe_device(d);
    report.start = setting_of(start_settings);
    report.offered = start_settings.schedulers;
    report.budget_s = o.budget_s;
    report.sample_s = o.sample_s;
    if (o.undo) return undo(o, d, report);

    std::vector<std::string> schedulers = start_settings.schedulers;
    if (o.schedulers) {
        for (const auto& s : *o.schedulers)
            if (std::find(schedulers.begin(), schedulers.end(), s) == schedulers.end())
                throw cli::UsageError(fmt::format("--scheduler {}: {} offers no such scheduler (it offers: {})", s, d.disk,
                                                  fmt::join(schedulers, ", ")));
        schedulers = *o.schedulers;
    }
    const auto candidates =
        tune::queue_candidates(report.start, schedulers, o.read_aheads_kb.value_or(tune::default_read_aheads_kb()));
    if (candidates.size() < 2)
        throw cli::UsageError(fmt::format("only {} to measure: nothing to compare it with; name another scheduler or "
                                          "read-ahead",
                                          tune::to_string(candidates[0])));
    // Asked before the minutes of measuring, not after: there is no one to say yes.
    if ((o.apply || o.destructive) && !o.yes && !o.dry_run && !isatty(STDIN_FILENO))
        throw cli::Error(cli::ErrorKind::failure, "refusing to change anything without confirmation: stdin is not a terminal",
                         cli::Remedy::confirm);
    tune::RaceOptions race_options;
    race_options.budget_s = o.budget_s;
    race_options.stop = &stop;
    if (o.destructive) {
        race_options.workloads.push_back(tune::Workload::seq_write);
        race_options.workloads.push_back(tune::Workload::rand_write);
    }
    if (o.dry_run) {
        if (!o.json) {
            fmt::print("{}\nIn force: {}\nWould measure {} setting{} with", report.described, tune::to_string(report.start),
                       candidates.size(), candidates.size() == 1 ? "" : "s");
            for (const auto w : race_options.workloads) fmt::print(" {}", tune::to_string(w));
            fmt::print(", {} s each, within {} s:\n", o.sample_s, o.budget_s);
            for (const auto& c : candidates) fmt::print("  {}\n", tune::to_string(c));
            fmt::print("Dry run: nothing was measured or changed.\n");
        } else {
            emit_report(o, report);
        }
        return cli::ok;
    }
    if (o.destructive) {
        const std::string what =
            fmt::format("Measuring writes and a discard destroys the data in {} from offset {} of {}.",
                        cli::format_bytes_exact(*o.size), cli::format_bytes_exact(o.offset.value_or(0)), d.typed);
        if (!o.json || !o.yes) fmt::print(stderr, "{}\n", what);
        if (!confirmed(what, o.yes)) throw cli::Error(cli::ErrorKind::failure, "not confirmed; nothing was written");
    }

    // The discard first: its exclusive open must not meet the race's.
    if (o.destructive) {
        if (d.queue.discard_max_bytes == 0)
            report.discard = tune::no_discard_policy();
        else
            report.discard = cli::in_context(d.typed, [&] {
                return tune::measure_discard(d.disk_path, o.offset.value_or(0), *o.size, d.disk_size, o.any_device, o.roots, stop);
            });
    }
    tune::QueueBenchOptions bo;
    bo.device = d.disk_path;
    bo.disk_syspath = d.disk_syspath;
    bo.device_bytes = d.disk_size;
    bo.sample_s = o.sample_s;
    if (o.destructive) bo.scratch = mmc::bench::Region{o.offset.value_or(0), *o.size};
    bo.stop = &stop;
    tune::QueueBench bench(bo);
    cli::ProgressLine progress;
    race_options.progress = [&](const tune::RaceProgress& p) {
        progress.show(fmt::format("round {}: {}, {} ({} left) {} of {}", p.round, tune::to_string(candidates[p.candidate]),
                                  tune::to_string(p.workload), p.left, cli::duration_text(p.elapsed_s),
                                  cli::duration_text(p.budget_s)));
    };
    // Opened once before any setting changes: a device that cannot be read
    // (no such node, no permission) fails here, with nothing changed.
    cli::in_context(d.typed, [&] { return mmc::bench::Target::open_block(d.disk_path, false, true).size(); });
    {
        tune::QueueRestorer restorer(d.disk_syspath, report.start);
        try {
            report.race = cli::in_context(d.typed, [&] { return tune::race(bench, candidates, race_options); });
        } catch (...) {
            progress.clear();
            restorer.restore();
            throw;
        }
        progress.clear();
        cli::in_context(d.typed, [&] { restorer.restore(); });
        report.restored = true;
    }
    report.queued_engine = bench.queued_engine();
    report.interrupted = report.race->end == tune::RaceEnd::interrupted;
    if (report.interrupted) {
        emit_report(o, report);
        throw cli::Error(cli::ErrorKind::interrupted, fmt::format("interrupted; {} is back in force on {}",
                                                                  tune::to_string(report.start), d.typed));
    }
    const auto& race = *report.race;
    const auto& chosen = race.contenders[race.chosen].setting;
    if (race.chosen != 0) {
        report.persistent = persistent_form(d, o, chosen, race);
    } else {
        report.persistent.emplace();
        report.persistent->why_not = "the advice is to keep the setting in force: there is no rule to write";
    }
    const bool rule = !report.persistent->text.empty();
    if (o.emit && rule) cli::write_output_file(*o.emit, report.persistent->text);
    // Nothing to emit is an answer, not a failure: said, and no file made.
    if (o.emit && !rule) report.notes.push_back(fmt::format("--emit {}: nothing written: {}", *o.emit, report.persistent->why_not));
    if (o.apply && rule) {
        const std::string question = fmt::format("This writes {} and puts {} in force on {} now (--undo takes it back).",
                                                 report.persistent->file, tune::to_string(chosen), d.typed);
        if (!o.json) fmt::print("{}", tune::queue_text(report));
        if (!o.json || !o.yes) fmt::print(stderr, "{}\n", question);
        if (!confirmed(question, o.yes)) throw cli::Error(cli::ErrorKind::failure, "not confirmed; nothing was changed");
        report.applied = cli::in_context(d.typed, [&] {
            return tune::apply_queue(apply_paths(), d.disk_path, d.disk, d.disk_syspath, report.start, chosen,
                                     fs::path(report.persistent->file).filename().string(), report.persistent->text);
        });
        if (o.json) {
            emit_report(o, report);
        } else {
            fmt::print("Applied:\n");
            for (const auto& c : report.applied->changes) fmt::print("  {}: {} -> {}\n", c.what, c.from, c.to);
            fmt::print("  (undo: mmc-tune queue --undo {}; the state is in {})\n", d.typed, report.applied->state_path.string());
        }
        return cli::ok;
    }
    if (o.apply) report.notes.push_back("nothing to apply: " + report.persistent->why_not);
    else if (race.chosen != 0) report.notes.push_back("nothing was changed: --apply writes the rule and puts the advice in force");
    emit_report(o, report);
    return cli::ok;
}

} // namespace mmc_tune
