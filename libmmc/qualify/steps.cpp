#include "qualify/steps.h"

#include "bench/quick_read.h"
#include "bench/session.h"
#include "cli/cli.h"
#include "cli/size.h"
#include "dev/bus_evidence.h"
#include "dev/discovery.h"
#include "dev/identify.h"
#include "erase/erase.h"
#include "health/verdict.h"
#include "out/bus_view.h"
#include "out/device_view.h"
#include "out/erase_view.h"
#include "cli/stop_signal.h"
#include "dev/resolver.h"
#include "out/reader_view.h"
#include "probe/capacity_run.h"
#include "probe/geometry_run.h"
#include "probe/words_view.h"
#include "qualify/child_step.h"
#include "version.h"

#include <fmt/format.h>
#include <system_error>

namespace mmc::qualify {

namespace {

// A document as the tool prints it: "tool" and "version" first.
json tool_doc(std::string_view tool, const json& body)
{
    json doc;
    doc["tool"] = tool;
    doc["version"] = mmc::version;
    doc.update(body);
    return doc;
}

StepResult failed(int status, std::string message)
{
    StepResult r;
    r.exit_status = status;
    r.message = std::move(message);
    return r;
}

// The first paragraph of a text view: what fits a summary.
std::string first_paragraph(const std::string& text)
{
    const auto end = text.find("\n\n");
    return end == std::string::npos ? text : text.substr(0, end + 1);
}

StepResult run_info(StepContext& c)
{
    const Settings& s = c.settings;
    try {
        const auto target = dev::resolve(s.device, s.roots);
        if (!target.card) return failed(cli::failure, fmt::format("{}: no card", s.device));
        const auto& id = c.identified.emplace(dev::identify(*target.card, s.roots, {s.use_ioctl}));
        StepResult r;
        r.doc = tool_doc("mmc-info", out::device_json(id));
        c.card = dev::identity_json(id.identity);
        r.summary = first_paragraph(out::device_text(id.card, s.roots, id.gathered, id.registers, {false, false}));
        return r;
    } catch (const dev::ResolveError& e) {
        return failed(cli::failure, e.what()); // it names the device already
    } catch (const std::exception& e) {
        return failed(cli::failure, fmt::format("{}: {}", s.device, e.what()));
    }
}

// What cannot be read through the USB reader the device is in, and what
// would read it; "" when the device is in no reader.
std::function<std::string(const Settings&)> needs_mmc_host(std::string what)
{
    return [what](const Settings& s) {
        if (!s.reader) return std::string();
        return fmt::format("{}: not readable through {}; an SD slot on an MMC host reads them", what, dev::reader_words(*s.reader));
    };
}

// A card in a USB reader: the reader doctor (the USB link's ceiling) in
// place of the MMC bus's, as mmc-bus gives it for a reader's slot.
StepResult run_reader_bus(const Settings& s)
{
    const auto d = dev::resolve_device(s.device, dev::Purpose::read, {s.roots});
    const auto report = out::reader_bus_report(*s.reader, d.path, s.bus_measure_s);
    StepResult r;
    json body;
    body["hosts"] = json::array();
    body["readers"] = json::array({out::reader_bus_json(report)});
    r.doc = tool_doc("mmc-bus", body);
    r.summary = out::reader_bus_text(report);
    return r;
}

StepResult run_bus(StepContext& c)
{
    const Settings& s = c.settings;
    try {
        if (s.reader) return run_reader_bus(s);
        const auto target = dev::resolve(s.device, s.roots);
        const dev::Card* card = target.card ? &*target.card : nullptr;
        // The info step's registers when it identified this card; else read them now.
        const regs::CardRegisters* registers = nullptr;
        std::optional<dev::Identified> own;
        if (c.identified && card && c.identified->card.name == card->name)
            registers = &c.identified->registers;
        else if (card)
            registers = &own.emplace(dev::identify(*card, s.roots, {s.use_ioctl})).registers;
        auto evidence = dev::gather_bus_evidence(target.host, card, registers, s.roots);
        out::BusReport report{bus::diagnose(evidence), target.host.controller.describe(), evidence.kernel_message,
                              std::nullopt, {}, evidence.dt, {}};
        if (evidence.log) report.log_events = evidence.log->events;
        if (s.bus_measure_s > 0) {
            if (!card || !card->is_storage())
                report.measure_error = "no storage card on this host";
            else
                try {
                    report.measured_mb_s = bench::quick_read(card->device_path(s.roots), s.bus_measure_s).mb_s;
                } catch (const std::system_error& e) {
                    report.measure_error = e.what();
                }
        }
        StepResult r;
        json body;
        body["hosts"] = json::array({out::bus_json(report)});
        r.doc = tool_doc("mmc-bus", body);
        r.summary = out::bus_text(report, false);
        return r;
    } catch (const dev::ResolveError& e) {
        return failed(cli::failure, e.what()); // it names the device already
    } catch (const std::exception& e) {
        return failed(cli::failure, fmt::format("{}: {}", s.device, e.what()));
    }
}

erase::Range erase_range(const Settings& s)
{
    erase::Range range;
    if (s.erase_scope == EraseScope::region) range.length = s.region_bytes;
    return range;
}

erase::Options erase_options(const Settings& s)
{
    erase::Options o;
    o.any_device = s.any_device;
    o.use_ioctl = s.use_ioctl;
    o.verify = erase::VerifyMode::sampled;
    o.roots = s.roots;
    o.safety.sysfs = s.roots.sysfs;
    return o;
}

std::string describe_erase(const Settings& s)
{
    try {
        const auto p = erase::prepare(s.device, erase_range(s), erase::Method::automatic, erase_options(s));
        return fmt::format("ERASES {} of {} ({}), verified (sampled)",
                           s.erase_scope == EraseScope::card ? "every byte" : "offset 0 length " + cli::format_bytes(s.region_bytes),
                           p.target.path, p.command);
    } catch (const std::exception& e) {
        return fmt::format("erases {} of {}; cannot plan it now: {}",
                           s.erase_scope == EraseScope::card ? "the whole card" : "the benchmark region", s.device, e.what());
    }
}

std::optional<uint64_t> size_at(const json& doc, const char* key)
{
    if (!doc.is_object() || !doc.contains(key) || !doc[key].is_number_unsigned()) return std::nullopt;
    const auto v = doc[key].get<uint64_t>();
    return v ? std::optional<uint64_t>(v) : std::nullopt;
}

// The AU the erase and state steps align to: the geometry step's, when it found one
// and the card's registers give none (SSR AU_SIZE; a device that is not a
// card has none); else nothing, and mmc-bench takes the registers' (or
// assumes one and says so; mmc-erase aligns to the method's own unit).
std::optional<uint64_t> measured_au(const json& geometry)
{
    const auto au = size_at(geometry, "au_size");
    if (!au) return std::nullopt;
    const json& regs = geometry.contains("registers") ? geometry["registers"] : json();
    const json& ssr = regs.is_object() && regs.contains("ssr_au_size") ? regs["ssr_au_size"] : json();
    const bool registers_give_one = ssr.is_object() && ssr.contains("bytes") && ssr["bytes"].is_number() && ssr["bytes"].get<double>() > 0;
    return registers_give_one ? std::nullopt : au;
}

StepResult run_erase(StepContext& c)
{
    const Settings& s = c.settings;
    erase::Prepared prepared;
    try {
        erase::Options options = erase_options(s);
        if (const auto au = measured_au(c.geometry)) {
            options.au_bytes = au;
            options.au_source = "the geometry step (mmc-probe geometry)";
        }
        prepared = erase::prepare(s.device, erase_range(s), erase::Method::automatic, options);
    } catch (const erase::PlanError& e) {
        return failed(cli::usage, fmt::format("{}: {}", s.device, e.what()));
    } catch (const cli::Error& e) { // a refusal: its remedy too
        return failed(cli::failure, fmt::format("{}: {}", s.device, cli::error_text(e)));
    } catch (const std::exception& e) {
        return failed(cli::failure, fmt::format("{}: {}", s.device, e.what()));
    }
    erase::Report report;
    try {
        report = erase::execute(
            prepared,
            [&](const erase::Progress& p) {
                if (c.progress) c.progress(out::erase_progress_line(p), p.done_bytes == p.total_bytes);
            },
            c.stop);
    } catch (const std::exception& e) {
        return failed(cli::failure, fmt::format("{}: {}", s.device, e.what()));
    }
    StepResult r;
    r.doc = tool_doc("mmc-erase", out::erase_json(prepared, &report));
    r.summary = out::erase_report_text(report);
    // The same order of causes as mmc-erase's exit status.
    if (report.interrupted) {
        r.exit_status = cli::interrupted;
        r.message = fmt::format("interrupted: erased offset {} length {}", report.erased.offset, report.erased.length);
    } else if (!report.error.empty()) {
        r.exit_status = cli::failure;
        r.message = report.error;
    } else if (report.verify && report.verify->result == erase::VerifyResult::fail) {
        r.exit_status = cli::failure;
        r.message = "verification failed: the range does not read back as erased";
    }
    return r;
}

bench::SessionOptions session_options(const Settings& s, bench::Suite suite, std::optional<uint64_t> au_bytes)
{
    bench::SessionOptions o;
    o.device = s.device;
    o.suite = suite;
    o.suite_options.runtime_s = s.runtime_s;
    // The sustained suite writes the whole card: an SLC cache of several GiB
    // shows only past its knee, far beyond the other suites' region.
    if (suite != bench::Suite::sustained) o.suite_options.length = s.region_bytes;
    o.destructive = s.destructive;
    o.any_device = s.any_device;
    o.use_ioctl = s.use_ioctl;
    o.au_bytes = au_bytes;
    o.roots = s.roots;
    return o;
}

StepResult run_bench(StepContext& c, bench::Suite suite, std::optional<uint64_t> au_bytes = std::nullopt)
{
    const Settings& s = c.settings;
    bench::SessionHooks hooks;
    hooks.stop = &c.stop;
    // mmc-qualify asked once, for the whole plan, before the first step.
    hooks.confirm = [](const std::string&) { return cli::Confirmation::yes; };
    hooks.note = [&](const std::string& note) {
        if (c.note) c.note(note);
    };
    hooks.phase = [&](const std::string& what) {
        if (c.progress) c.progress(what + "...", true);
    };
    hooks.progress = [&](std::size_t i, std::size_t n, const bench::Progress& p) {
        if (!c.progress) return;
        if (n == 0 || !p.job) {
            c.progress(fmt::format("preparing: {:.0f}%", p.elapsed_s * 100), false);
            return;
        }
        c.progress(fmt::format("[{}/{}] {} {}{:.1f}/{:.0f} s", i, n, p.job->name, p.warming ? "warm-up " : "", p.elapsed_s,
                               p.budget_s),
                   false);
    };
    bench::RunReport report;
    try {
        report = bench::run_session(session_options(s, suite, au_bytes), hooks);
    } catch (const bench::SessionUsage& e) {
        return failed(cli::usage, e.what());
    } catch (const bench::SessionRefused& e) {
        return failed(cli::failure, cli::error_text(e));
    } catch (const std::exception& e) {
        return failed(cli::failure, e.what());
    }
    report.interrupted = report.partial && c.stop.load();
    StepResult r;
    r.doc = report_json(report);
    if (report.partial) {
        r.exit_status = report.interrupted ? cli::interrupted : cli::failure;
        r.message = report.partial_why;
    }
    return r;
}

// A child tool's arguments (mmc-probe, mmc-health): `fixed`, the register
// sources this run reads (--no-ioctl, --sysfs-root), --any-device when the
// run has it and the subcommand takes it (a write), then DEVICE.
ArgsFn child_args(std::vector<std::string> fixed, bool writes)
{
    return [fixed, writes](const Settings& s) {
        auto args = fixed;
        if (!s.use_ioctl) args.push_back("--no-ioctl");
        if (s.roots.sysfs != dev::SysRoots{}.sysfs) {
            args.push_back("--sysfs-root");
            args.push_back(s.roots.sysfs.string());
        }
        if (writes && s.any_device) args.push_back("--any-device");
        args.push_back(s.device);
        return args;
    };
}

// The plan's line for a child step: its command line and what it does.
std::function<std::string(const Settings&)> describe_child(std::string tool, ArgsFn args, std::string what)
{
    return [tool, args, what](const Settings& s) {
        std::string line = tool;
        for (const auto& a : args(s)) line += " " + a;
        return line + ": " + what;
    };
}



// mmc-probe geometry, read-only, in this process: the ladder and the
// registers' claims; the document is mmc-probe geometry -J's.
StepResult run_geometry(StepContext& c)
{
    const Settings& s = c.settings;
    StepResult r;
    probe::GeometryReport report;
    try {
        dev::ResolveOptions ro;
        ro.roots = s.roots;
        const auto d = probe::probed_device(dev::resolve_device(s.device, dev::Purpose::read, ro), s.roots, s.use_ioctl);
        probe::GeometryRunOptions o;
        o.stop = &c.stop;
        o.progress = [&](const std::string& what) {
            if (c.progress) c.progress(what, false);
        };
        report = probe::probe_geometry(d, o);
        r.doc = probe::geometry_json(&d, report);
    } catch (const cli::Error& e) { // the resolver's refusal, a partition
        return failed(cli::exit_status(e.kind), cli::error_text(e));
    } catch (const std::exception& e) {
        return failed(cli::failure, e.what());
    }
    if (report.interrupted) {
        r.exit_status = cli::interrupted;
        r.message = probe::interrupted_text(report);
    } else {
        c.geometry = r.doc;
    }
    return r;
}

// mmc-probe capacity's exit statuses that name a fake (10-13): an answer.
bool names_a_fake(int status)
{
    using probe::Verdict;
    for (const auto v : {Verdict::limbo, Verdict::wraparound, Verdict::chain, Verdict::bad})
        if (status == probe::exit_status(v)) return true;
    return false;
}

// While the capacity probe holds copies of the blocks it stamps, a second
// Ctrl-C must not end mmc-qualify before they are written back (mmc-qualify's
// own second signal kills: a step stuck in a command). The child mmc-probe
// this step once was ran on in its own process group; in this process the
// second signal is ignored for the step's length.
class SecondSignalIgnored {
public:
    SecondSignalIgnored() { cli::install_stop_signals(cli::SecondSignal::ignored); }
    ~SecondSignalIgnored() { cli::install_stop_signals(cli::SecondSignal::kills); }
    SecondSignalIgnored(const SecondSignalIgnored&) = delete;
    SecondSignalIgnored& operator=(const SecondSignalIgnored&) = delete;
};

// mmc-probe capacity --yes (asked once, for the whole plan) in this process:
// its document, its exit status, and a fake's verdict as the step's answer.
StepResult run_capacity(StepContext& c)
{
    const Settings& s = c.settings;
    dev::Device d;
    try {
        dev::ResolveOptions ro;
        ro.roots = s.roots;
        ro.any_device = s.any_device;
        d = dev::resolve_device(s.device, dev::Purpose::probe, ro);
        if (d.is_partition)
            return failed(cli::usage, probe::partition_refusal(d.path, d.disk_path));
        d.require_allowed();
    } catch (const dev::DeviceError& e) {
        return failed(cli::failure, cli::error_text(e));
    }
    StepResult r;
    probe::CapacityResult result;
    try {
        const auto target = probe::capacity_target(d, s.roots, s.use_ioctl);
        probe::DeviceBlocks io(target.path);
        probe::CapacityOptions o;
        probe::plan_capacity(io.block_count(), io.block_size(), o); // throws for a device too small to probe
        const SecondSignalIgnored restore_first;
        probe::CapacityProgressText progress_text;
        o.stop = &c.stop;
        o.progress = [&](const probe::CapacityProgress& p) {
            if (c.progress) c.progress(progress_text(p), false);
        };
        try {
            result = probe::run_capacity_probe(target, io, o);
        } catch (const std::exception& e) {
            return failed(cli::failure, fmt::format("{}: {}", target.path, e.what()));
        }
        r.doc = probe::capacity_document(probe::result_json(target, result, io.block_size(), o.destructive));
        if (result.interrupted) {
            r.exit_status = cli::interrupted;
            r.message = probe::interrupted_text(target, result);
            return r;
        }
    } catch (const std::exception& e) {
        return failed(cli::failure, e.what());
    }
    r.exit_status = probe::exit_status(*result.verdict);
    if (names_a_fake(r.exit_status)) {
        r.status_is_answer = true;
        r.message = fmt::format("the card is fake ({}): {} of {} usable", probe::verdict_name(*result.verdict),
                                result.usable_bytes ? cli::format_bytes(result.usable_bytes) : "none",
                                cli::format_bytes(result.announced_bytes));
    }
    return r;
}

StepResult run_state(StepContext& c)
{
    const auto au = measured_au(c.geometry);
    StepResult r = run_bench(c, bench::Suite::state, au);
    // Say where the AU came from: the benchmark's own document cannot.
    if (au && r.doc.is_object())
        r.doc["notes"].push_back(
            fmt::format("AU {} from the geometry step (mmc-probe geometry): the registers give none", cli::format_bytes(*au)));
    return r;
}

} // namespace

StepSpec info_step()
{
    StepSpec spec{"info", "mmc-info", BundlePart::info, Needs::always,
                  [](const Settings& s) { return fmt::format("reads the card's registers ({})", s.use_ioctl ? "sysfs, debugfs, ioctl" : "sysfs, debugfs"); },
                  run_info};
    spec.skip_when = needs_mmc_host("registers");
    return spec;
}

StepSpec bus_step()
{
    return {"bus", "mmc-bus", BundlePart::bus, Needs::always,
            [](const Settings& s) {
                if (s.reader)
                    return fmt::format("diagnoses the reader's USB link and its ceiling (the bus between reader and card is "
                                       "out of sight); reads the card for {:g} s", s.bus_measure_s);
                return fmt::format("diagnoses the bus; reads the card for {:g} s", s.bus_measure_s);
            },
            run_bus};
}

StepSpec erase_step()
{
    return {"erase", "mmc-erase", BundlePart::erase, Needs::destructive, describe_erase, run_erase};
}

StepSpec bench_step(bench::Suite suite, Needs needs)
{
    return {fmt::format("bench-{}", bench::to_string(suite)), "mmc-bench", BundlePart::bench, needs,
            [suite](const Settings& s) {
                return fmt::format("mmc-bench suite {}: {} the first {}, {:g} s a job", bench::to_string(suite),
                                   s.destructive ? "READS AND WRITES" : "reads", cli::format_bytes(s.region_bytes), s.runtime_s);
            },
            [suite](StepContext& c) { return run_bench(c, suite); }};
}

// The plan names the mmc-probe command that does what the step does.
StepSpec geometry_step()
{
    return {"geometry", "mmc-probe", BundlePart::probe, Needs::always,
            describe_child("mmc-probe", child_args({"geometry", "-J"}, false),
                           "reads across aligned boundaries for the page and AU (read-only)"),
            run_geometry};
}

StepSpec health_step()
{
    const auto args = child_args({"-J"}, false);
    StepSpec spec = child_step("health", "mmc-health", args, Needs::always, WhenMissing::skip);
    spec.part = BundlePart::health;
    spec.describe = describe_child("mmc-health", args,
                                   "reads wear and writability: registers and the vendor CMD56 block the CID names");
    spec.skip_when = needs_mmc_host("wear and writability (registers, CMD56)");
    auto child = spec.run;
    spec.run = [child](StepContext& c) {
        StepResult r = child(c);
        // worn, end_of_life, read_only and unknown exit 3-6: the verdict, not a failure.
        if (r.exit_status != cli::ok && health::verdict_of_exit_status(r.exit_status) && r.doc.is_object())
            r.status_is_answer = true;
        return r;
    };
    return spec;
}

StepSpec capacity_step()
{
    return {"capacity", "mmc-probe", BundlePart::probe, Needs::destructive,
            describe_child("mmc-probe", child_args({"capacity", "-J", "--yes"}, true),
                           "WRITES stamps to test the capacity is real (the blocks it overwrites are put back)"),
            run_capacity};
}

StepSpec sustained_step()
{
    return {"bench-sustained", "mmc-bench", BundlePart::bench, Needs::destructive,
            [](const Settings&) {
                return std::string("mmc-bench suite sustained: WRITES the whole card once in 512 KiB recording units: the SLC "
                                   "cache's knee, the speed after it, the longest stall and the speed-class verdicts by the "
                                   "SD spec's per-AU method");
            },
            [](StepContext& c) { return run_bench(c, bench::Suite::sustained); }};
}

StepSpec state_step()
{
    return {"bench-state", "mmc-bench", BundlePart::bench, Needs::destructive,
            [](const Settings& s) {
                return fmt::format("mmc-bench suite state: WRITES the first {} used (fragmented), erases it, writes it again, {:g} s a "
                                   "job; AU from the registers, else from the geometry step",
                                   cli::format_bytes(s.region_bytes), s.runtime_s);
            },
            run_state};
}

std::vector<StepSpec> step_table(const Settings& s)
{
    std::vector<StepSpec> table;
    table.push_back(info_step());
    table.push_back(bus_step());
    table.push_back(health_step());   // read-only: always (skipped when mmc-health is not installed)
    table.push_back(geometry_step()); // read-only: always
    table.push_back(erase_step());
    table.push_back(capacity_step()); // --destructive: after the erase, before the benchmarks write
    // The state and sustained suites are steps of their own, below.
    for (const bench::Suite suite : s.suites)
        if (suite != bench::Suite::state && suite != bench::Suite::sustained) table.push_back(bench_step(suite));
    if (s.sustained) table.push_back(sustained_step()); // --destructive --sustained: the whole card, before the state suite
    table.push_back(state_step()); // --destructive: what erasing buys, last
    return table;
}

} // namespace mmc::qualify
