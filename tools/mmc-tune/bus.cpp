// mmc-tune bus: options, the evidence (live, or pasted as mmc-bus takes it),
// the confirmation, the stop signals and the output; the plan, the trials,
// the state file, the persistent forms and the views are libmmc/tune's, the
// host's files dev/host_debugfs's.
#include "bus.h"
#include "tool.h"

#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/device_sources.h"
#include "cli/duration.h"
#include "cli/file_out.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/block_safety.h"
#include "dev/bus_evidence.h"
#include "dev/discovery.h"
#include "dev/register_sources.h"
#include "dev/system.h"
#include "tune/bus_live_host.h"
#include "tune/bus_overlay_check.h"
#include "tune/bus_persist.h"
#include "tune/bus_plan.h"
#include "tune/bus_state.h"
#include "tune/bus_trial.h"
#include "tune/bus_view.h"
#include "views/bus_pasted.h"

#include <fmt/format.h>
#include <getopt.h>
#include <iostream>
#include <unistd.h>

namespace mmc_tune {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
namespace tune = mmc::tune;
namespace bus = mmc::bus;
namespace fs = std::filesystem;

void bus_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} bus [options] DEVICE
 {0} bus --apply [--yes] [--keep] [--force] [--destructive --offset SIZE --size SIZE] DEVICE
 {0} bus [options] --emit FILE [--untested] DEVICE
 {0} bus --undo [DEVICE]
 {0} bus --ios FILE [--caps HEX] [--caps2 HEX] [--dt FILE|DIR] [--kernel VERSION]
         [--family sd|mmc] [--dmesg FILE [--dmesg-host HOST]] [--cmdline FILE]

Plan the bus modes card and host share, fastest first, each with what limits
it today and what a trial would set; with --apply, trial them: set caps,
caps2 and the clock through debugfs, re-initialise the card, confirm the
mode from ios, read the card twice and compare, and watch err_stats and the
kernel log. The fastest clean mode is the result; the host is put back as it
was (with the ios that proves it) unless --keep. A state file under
/run/mmckit/ is written before the first change, for --undo. Modes the
doctor rules out (the SoC table, 1.8 V I/O the board lacks, the card) are
listed with why and never trialled. The persistent form (a device-tree
overlay, a .dts edit, config.txt lines, a module option) is printed for a
mode trialled clean, or, marked untested, where the evidence supports it;
otherwise a sentence says why there is none. Trials need Linux 6.4 or
later (writable caps).

Options:
     --apply                 trial the planned modes (asks first)
 -y, --yes                   do not ask before the trials
     --keep                  keep the chosen mode until the next reboot
     --force                 trial modes faster than the one in use even on a
                             card with a mounted filesystem, and modes only
                             the SoC table rules out (never kept)
     --mode LIST             the bus modes to trial (comma separated: SDR104,
                             DDR50, SDR50, SDR25, HS, legacy, HS400ES, HS400,
                             HS200, DDR52, MMC-HS); default: from the fastest
                             down to the first clean one
     --destructive           with --offset and --size: a write-read-compare in
                             that scratch region in every trial (its data put back)
     --offset SIZE           the scratch region's start
     --size SIZE             the scratch region's length, from --offset
     --time TIME             the longest one trial may take (default 30s)
     --undo                  put the host back from the state file of an
                             interrupted or --keep run
     --emit FILE             write the persistent form (the overlay source) to
                             FILE, for a mode trialled clean on this card
     --untested              with --emit: write it for a mode not trialled too
 -n, --dry-run               print the plan and change nothing (the default
                             without --apply)
 -J, --json                  print JSON (see mmc-tune(1))
 -i, --ios FILE              plan from a pasted /sys/kernel/debug/mmcN/ios
     --caps HEX              the host's pasted debugfs caps (with --ios)
     --caps2 HEX             the host's pasted debugfs caps2 (with --ios)
     --dt FILE|DIR           the host's pasted device-tree node (with --ios)
     --dt-node NAME          which node of --dt is the host
     --kernel VERSION        the kernel that printed the pasted caps (with --ios)
     --family sd|mmc|sdio    what is in the slot (with --ios)
     --dmesg FILE            a pasted kernel log (CRC and tuning errors call for
                             clock steps)
     --dmesg-host HOST       which host's lines of --dmesg to read (mmc1), where the
                             evidence cannot tie the log to one
     --cmdline FILE          a pasted /proc/cmdline (default live: the running
                             kernel's): an sdhci.debug_quirks2 that holds the host back
     --no-ioctl              send no card commands; registers from sysfs and debugfs
     --sysfs-root DIR        read sysfs from DIR (default /sys)
     --debugfs-root DIR      read debugfs from DIR (default /sys/kernel/debug)
 -h, --help                  display this help
 -V, --version               display version

Examples:
 {0} bus /dev/mmcblk0
 {0} bus --apply /dev/mmcblk0
 {0} bus --apply --mode HS,legacy --yes -J mmc0
 {0} bus --undo mmc0
 {0} bus -n -J --ios ios.txt --caps 0x40ff8007 --caps2 0x00000000 --kernel 6.12 --dt board.dts
)",
               tool);
}

struct Options {
    std::optional<std::string> device;
    bool apply = false, yes = false, keep = false, force = false, destructive = false, undo = false, dry_run = false,
         json = false, use_ioctl = true, untested = false;
    std::vector<bus::Mode> modes;
    std::optional<uint64_t> offset, size;
    double trial_seconds = 30;
    std::optional<std::string> emit;
    std::optional<mmc::out::PastedBus> pasted; // --ios and what goes with it
    std::optional<std::string> dmesg;
    std::string dmesg_host;
    std::optional<std::string> cmdline;
    dev::SysRoots roots;
};

bool same_word(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::vector<bus::Mode> mode_list(const std::string& text)
{
    std::vector<bus::Mode> out;
    std::size_t at = 0;
    while (at <= text.size()) {
        const auto comma = text.find(',', at);
        const std::string word = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        bool found = false;
        for (const auto& family : {bus::sd_modes, bus::mmc_modes})
            for (const auto m : family)
                if (same_word(word, bus::to_string(m)) && !found) {
                    out.push_back(m);
                    found = true;
                }
        if (!found)
            throw cli::UsageError(fmt::format("--mode {}: '{}' is no bus mode; expected SDR104, DDR50, SDR50, SDR25, HS, legacy, "
                                              "HS400ES, HS400, HS200, DDR52 or MMC-HS",
                                              text.substr(0, 60), word.substr(0, 20)));
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return out;
}

Options parse_options(int argc, char** argv)
{
    enum { apply = 256, keep, force, mode, destructive, offset, size, time, undo, emit, untested, caps, caps2, dt, dt_node, kernel, family, dmesg, dmesg_host, cmdline };
    static const auto longopts = cli::with_device_sources({
        {"apply", no_argument, nullptr, apply},
        {"yes", no_argument, nullptr, 'y'},
        {"keep", no_argument, nullptr, keep},
        {"force", no_argument, nullptr, force},
        {"mode", required_argument, nullptr, mode},
        {"destructive", no_argument, nullptr, destructive},
        {"offset", required_argument, nullptr, offset},
        {"size", required_argument, nullptr, size},
        {"time", required_argument, nullptr, time},
        {"undo", no_argument, nullptr, undo},
        {"emit", required_argument, nullptr, emit},
        {"untested", no_argument, nullptr, untested},
        {"dry-run", no_argument, nullptr, 'n'},
        {"json", no_argument, nullptr, 'J'},
        {"ios", required_argument, nullptr, 'i'},
        {"caps", required_argument, nullptr, caps},
        {"caps2", required_argument, nullptr, caps2},
        {"dt", required_argument, nullptr, dt},
        {"dt-node", required_argument, nullptr, dt_node},
        {"kernel", required_argument, nullptr, kernel},
        {"family", required_argument, nullptr, family},
        {"dmesg", required_argument, nullptr, dmesg},
        {"dmesg-host", required_argument, nullptr, dmesg_host},
        {"cmdline", required_argument, nullptr, cmdline},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    }, {.debugfs_root = true});
    Options o;
    mmc::out::PastedBus p;
    bool pasted_only = false; // an option that describes a pasted dump
    cli::DeviceSources sources;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = cli::next_option(argc, argv, ":yni:JhV", longopts.data())) != -1) {
        const std::string arg = optarg ? optarg : "";
        switch (c) {
        case apply: o.apply = true; break;
        case 'y': o.yes = true; break;
        case keep: o.keep = true; break;
        case force: o.force = true; break;
        case mode: o.modes = mode_list(arg); break;
        case destructive: o.destructive = true; break;
        case offset: o.offset = cli::size_option("--offset", arg); break;
        case size: o.size = cli::size_option("--size", arg); break;
        case time: {
            o.trial_seconds = cli::seconds_option("--time", arg);
            if (o.trial_seconds <= 0 || o.trial_seconds > 3600)
                throw cli::UsageError(fmt::format("--time {}: expected a time above zero and up to 1 h", arg.substr(0, 40)));
            break;
        }
        case undo: o.undo = true; break;
        case emit: o.emit = arg; break;
        case untested: o.untested = true; break;
        case 'n': o.dry_run = true; break;
        case 'J': o.json = true; break;
        case 'i': p.ios_file = arg; break;
        case caps: p.caps = mmc::out::caps_option("--caps", arg); pasted_only = true; break;
        case caps2: p.caps2 = mmc::out::caps_option("--caps2", arg); pasted_only = true; break;
        case dt: p.dt_file = arg; pasted_only = true; break;
        case dt_node: p.dt_node = arg; pasted_only = true; break;
        case kernel: p.kernel = mmc::out::kernel_option("--kernel", arg); pasted_only = true; break;
        case family: {
            p.family = mmc::regs::card_family_from_string(arg);
            p.sdio = arg == "sdio";
            if (!p.family && !p.sdio) throw cli::UsageError(fmt::format("--family {}: expected sd, mmc or sdio", arg.substr(0, 20)));
            pasted_only = true;
            break;
        }
        case dmesg: o.dmesg = arg; break;
        case dmesg_host: o.dmesg_host = mmc::out::host_option("--dmesg-host", arg); break;
        case cmdline: o.cmdline = arg; break;
        case 'h': bus_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv);
        }
    }
    o.use_ioctl = sources.use_ioctl;
    o.roots = sources.roots(o.roots);
    if (optind < argc) o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    if (!p.ios_file.empty()) {
        p.dmesg_file = o.dmesg;
        p.dmesg_host = o.dmesg_host;
        p.cmdline_file = o.cmdline;
        o.pasted = p;
    }
    if (!o.dmesg_host.empty() && !o.dmesg) throw cli::UsageError("--dmesg-host picks a host of --dmesg; give --dmesg FILE");
    if (o.pasted && o.device) throw cli::UsageError("give a DEVICE or --ios, not both");
    if (!o.pasted && pasted_only) throw cli::UsageError("--caps, --caps2, --dt, --dt-node, --kernel and --family describe a pasted dump; use them with --ios");
    if (p.dt_node && !p.dt_file) throw cli::UsageError("--dt-node picks a node of --dt; give --dt FILE");
    if (!o.pasted && !o.device && !o.undo) throw cli::UsageError("no DEVICE given (or --ios FILE to plan from a pasted dump)");
    if (o.untested && !o.emit) throw cli::UsageError("--untested qualifies --emit: give --emit FILE too");
    if (o.undo && (o.apply || o.pasted || o.dry_run || o.emit))
        throw cli::UsageError("--undo puts the host back and does nothing else: give it alone (with DEVICE)");
    if (o.pasted && o.apply) throw cli::UsageError("--apply trials on a live host; a pasted dump is planned only");
    if (o.apply && o.dry_run) throw cli::UsageError("--apply and --dry-run contradict: --dry-run plans only");
    for (const auto& [given, name] : {std::pair{o.keep, "--keep"}, {o.force, "--force"}, {o.destructive, "--destructive"},
                                      {!o.modes.empty(), "--mode"}, {o.yes, "--yes"}})
        if (given && !o.apply) throw cli::UsageError(fmt::format("{} qualifies --apply: give --apply too", name));
    if (o.destructive != (o.offset || o.size) || (o.destructive && (!o.offset || !o.size)))
        throw cli::UsageError("--destructive needs a scratch region: --destructive --offset SIZE --size SIZE (and --offset, "
                              "--size are for it alone)");
    if (o.size && (*o.size == 0 || *o.size % 4096 || *o.offset % 4096 || *o.size > (64u << 20)))
        throw cli::UsageError("--offset and --size: the scratch region must be a multiple of 4 KiB, and 4 KiB to 64 MiB long");
    return o;
}

// ---- the evidence ----

struct Gathered {
    bus::Evidence evidence;
    std::optional<dev::Card> card;
    std::string device;      // "/dev/mmcblk0"
    std::string card_in_use; // "mmcblk0p2 is mounted on /"
};

Gathered live_evidence(const Options& o)
{
    Gathered g;
    const auto t = dev::resolve(*o.device, o.roots);
    if (!t.card || !t.card->is_storage())
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: {}", *o.device, t.card ? "an SDIO function, not a storage card" : "no card in the slot"));
    g.card = *t.card;
    g.device = t.card->device_path(o.roots);
    std::optional<mmc::regs::CardRegisters> regs;
    const auto gathered = dev::gather_registers(*t.card, o.roots, {o.use_ioctl});
    if (const auto family = dev::family_of(t.card->type)) regs = mmc::regs::decode_card(*family, gathered.registers);
    g.evidence = dev::gather_bus_evidence(t.host, &*t.card, regs ? &*regs : nullptr, o.roots);
    if (t.card->capacity_bytes) g.evidence.capacity_bytes = t.card->capacity_bytes;
    if (o.dmesg) {
        std::vector<std::string> devices;
        if (!t.host.controller.syspath.empty()) devices.push_back(t.host.controller.syspath.filename().string());
        const auto text = cli::in_context("--dmesg", [&] { return cli::read_input(*o.dmesg, 32 << 20, "kernel log"); });
        mmc::out::add_host_log(g.evidence, text, o.dmesg_host, devices);
    }
    if (o.cmdline) g.evidence.cmdline = cli::in_context("--cmdline", [&] { return mmc::out::read_kernel_cmdline(*o.cmdline); });
    dev::SafetyRoots sr;
    sr.sysfs = o.roots.sysfs;
    if (!o.roots.is_live()) sr.proc = o.roots.sysfs / ".." / "proc";
    const auto problems = dev::check_safety(t.card->block, sr);
    if (!problems.empty()) g.card_in_use = problems.front().what;
    return g;
}

// The card's data: the block device, or in a fixture tree the file
// dev/NAME beside its sys/ (a test's stand-in for the card).
fs::path card_data(const Options& o, const dev::Card& card)
{
    return o.roots.is_live() ? fs::path(card.device_path(o.roots)) : o.roots.sysfs / ".." / "dev" / card.block;
}

// ---- the persistent form ----

void add_persistent(tune::BusReport& r, const tune::BusPlanInput& in, const Options& o)
{
    const auto kept = tune::persistent_result(in.evidence, in.diagnosis, r.plan, r.run);
    r.persistent = kept.forms;
    r.persistent_for = kept.for_what;
    r.persistent_tested = kept.tested;
    r.persistent_none = kept.none;
    // The overlay checked against the running tree, as the boot loader will
    // apply it; a pasted evidence has no whole tree to check it against.
    const auto overlay = std::find_if(r.persistent.begin(), r.persistent.end(),
                                      [](const tune::PersistentForm& f) { return f.kind == "dt-overlay"; });
    if (overlay == r.persistent.end()) return;
    const fs::path running = o.roots.device_tree_dir();
    if (!in.live)
        r.overlay_check = {"not checked: a pasted node is no whole tree; on the board, mmc-tune bus checks it against the running one"};
    else if (!fs::is_directory(running))
        r.overlay_check = {fmt::format("not checked: no running device tree at {}", running.string())};
    else
        r.overlay_check = tune::check_overlay(overlay->text, running).lines;
}

// --emit writes the first form, only for a mode trialled clean on this card
// (or with --untested); otherwise nothing, and the report says why.
void emit_file(const Options& o, tune::BusReport& r)
{
    if (!o.emit) return;
    if (r.persistent.empty())
        r.persistent_not_written = "no persistent form: " + r.persistent_none;
    else if (!r.persistent_tested && !o.untested)
        r.persistent_not_written = fmt::format("{} is untested on this card: trial it with --apply first, or give --untested to write "
                                               "it anyway",
                                               r.persistent_for.substr(0, r.persistent_for.find(" (")));
    if (r.persistent_not_written) {
        if (!o.json) fmt::print(stderr, "{}: --emit {}: nothing written: {}\n", tool, *o.emit, *r.persistent_not_written);
        return;
    }
    cli::write_output_file(*o.emit, r.persistent.front().text);
}

void print(const Options& o, const tune::BusReport& r, const std::string& log_note)
{
    if (o.json) {
        auto j = tune::bus_report_json(r);
        j["kernel_log_note"] = log_note.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(log_note);
        cli::print_tool_json(j, tool, "bus");
    } else {
        std::cout << tune::bus_report_text(r);
        // A log given and not read must not pass silently.
        if (!log_note.empty()) fmt::print("Kernel log: {}\n", log_note);
    }
}

bool confirmed(const tune::BusPlan& plan, const std::string& device, bool yes)
{
    if (yes) return true;
    if (!isatty(STDIN_FILENO))
        throw cli::Error(cli::ErrorKind::failure,
                         fmt::format("{}: refusing to trial bus modes without confirmation: stdin is not a terminal; use --yes "
                                     "(or --dry-run to see the plan)",
                                     device));
    return cli::confirm(fmt::format("This changes {}'s bus mode for each trial and puts it back after.", plan.host), "trial",
                        false) == cli::Confirmation::yes;
}

int undo(const Options& o)
{
    fs::path state;
    if (o.device) {
        const auto t = dev::resolve(*o.device, o.roots);
        state = tune::bus_state_path(t.host.name);
    } else {
        std::vector<fs::path> found;
        std::error_code ec;
        for (fs::directory_iterator it(tune::run_dir(), ec), end; !ec && it != end; it.increment(ec))
            if (it->path().filename().string().rfind("tune-bus-", 0) == 0) found.push_back(it->path());
        if (found.size() != 1)
            throw cli::Error(cli::ErrorKind::failure,
                             found.empty() ? fmt::format("{}: no state file: nothing to undo", tune::run_dir().string())
                                           : fmt::format("{}: {} state files: name the DEVICE to undo", tune::run_dir().string(), found.size()));
        state = found.front();
    }
    const auto start = cli::in_context("--undo", [&] { return tune::read_bus_state(state); });
    const auto t = dev::resolve(start.host, o.roots);
    if (!t.card) throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: no card in the slot to put back", start.host));
    tune::LiveBusHost host(dev::DebugfsHost(*t.card, o.roots, card_data(o, *t.card)), o.roots.is_live(), nullptr);
    const auto restored = tune::restore_host(host, start, 10);
    if (restored.done) {
        std::error_code ec;
        fs::remove(state, ec);
    }
    if (o.json) {
        nlohmann::ordered_json body;
        body["host"] = start.host;
        body["state_file"] = state.string();
        body["restored"] = {{"done", restored.done}, {"kept", false}, {"ios_mode", restored.ios_mode},
                            {"ios_clock_hz", restored.ios_clock_hz}, {"errors", restored.errors}};
        cli::print_tool_json(body, tool, "bus");
    } else {
        fmt::print("{}: ios shows {} at {}\n", restored.done ? "Put back as it was" : "NOT put back", restored.ios_mode,
                   cli::format_hz(static_cast<double>(restored.ios_clock_hz)));
        for (const auto& e : restored.errors) fmt::print("  {}\n", e);
    }
    if (!restored.done)
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: not put back; the state file {} is kept", start.host, state.string()));
    return cli::ok;
}

} // namespace

int run_bus(int argc, char** argv)
{
    const Options o = parse_options(argc, argv);
    if (o.undo) return undo(o);

    tune::BusReport report;
    tune::BusPlanInput in;
    std::optional<Gathered> live;
    if (o.pasted) {
        std::vector<bus::Evidence> all;
        try {
            all = mmc::out::pasted_bus_evidence(*o.pasted);
        } catch (const mmc::out::PastedInputError& e) {
            // Each file's failure names the option that gave it.
            const char* option = e.input == mmc::out::PastedInput::device_tree      ? "--dt"
                                 : e.input == mmc::out::PastedInput::kernel_log     ? "--dmesg"
                                 : e.input == mmc::out::PastedInput::kernel_cmdline ? "--cmdline"
                                                                                    : "--ios";
            throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: {}", option, e.what()));
        }
        if (all.size() != 1)
            throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: {} hosts in the dump; give one host's ios", o.pasted->ios_file, all.size()));
        in.evidence = all.front();
    } else {
        live = live_evidence(o);
        in.evidence = live->evidence;
        in.live = true;
        in.card_in_use = live->card_in_use;
        report.device = live->device;
    }
    in.diagnosis = bus::diagnose(in.evidence);
    in.force = o.force;
    in.only = o.modes;
    std::optional<dev::DebugfsHost> debugfs;
    if (live) {
        debugfs.emplace(*live->card, o.roots, card_data(o, *live->card));
        in.caps_not_writable = debugfs->caps_not_writable();
    }
    report.plan = tune::plan_bus(in);
    const std::string log_note =
        in.evidence.log_note + (in.evidence.log_needs_host ? "; give --dmesg-host mmcN to read one host's lines" : "");

    if (o.apply && !report.plan.live_trials) {
        add_persistent(report, in, o);
        emit_file(o, report);
        print(o, report, log_note);
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: no trials: {}", report.device, report.plan.live_trials_reason));
    }
    if (o.apply) {
        const bool any = std::any_of(report.plan.steps.begin(), report.plan.steps.end(), [](const tune::BusStep& s) { return s.trialled; });
        if (!any) {
            add_persistent(report, in, o);
            print(o, report, log_note);
            throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: no mode to trial (see each step's reason)", report.device));
        }
        const auto& stop = cli::install_stop_signals(cli::SecondSignal::ignored);
        if (!o.yes) fmt::print(stderr, "{}", tune::bus_report_text(report));
        if (!confirmed(report.plan, report.device, o.yes)) throw cli::Error(cli::ErrorKind::failure, "not confirmed; nothing was changed");
        if (stop.load()) throw cli::Error(cli::ErrorKind::interrupted, "interrupted before anything was changed");
        tune::LiveBusHost host(*debugfs, o.roots.is_live(), &stop);
        tune::TrialOptions to;
        to.trial_seconds = o.trial_seconds;
        if (o.destructive) to.scratch = tune::Region{*o.offset, *o.size};
        to.keep = o.keep;
        to.state_file = tune::bus_state_path(report.plan.host);
        to.device = report.device;
        to.stop = &stop;
        cli::ProgressLine progress;
        to.progress = [&](const std::string& s) { progress.show(s, true); };
        // The state file is written inside, before the first change; a
        // failure to write it stops everything before anything changed.
        report.run = cli::in_context(report.device, [&] { return tune::run_trials(host, report.plan, to); });
        progress.clear();
    }
    add_persistent(report, in, o);
    emit_file(o, report);
    print(o, report, log_note);
    if (report.run) {
        const auto& run = *report.run;
        if (run.restored && !run.restored->done && !run.restored->kept)
            throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: the host was NOT put back as it was; mmc-tune bus --undo {} "
                                                                  "retries from the state file",
                                                                  report.device, report.plan.host));
        if (run.interrupted)
            throw cli::Error(cli::ErrorKind::interrupted, fmt::format("{}: interrupted; {}", report.device,
                                                                      run.restored ? "the host was put back" : "nothing was changed"));
        if (!run.failure.empty() && run.trials.empty()) throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: {}", report.device, run.failure));
    }
    return cli::ok;
}

} // namespace mmc_tune
