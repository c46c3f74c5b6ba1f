// The probe steps: mmc-probe geometry (read-only) and capacity (writes and
// puts back) in this process; the plan names the mmc-probe commands.
#include "qualify/steps.h"
#include "qualify/steps_common.h"


#include "cli/cli.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/resolver.h"
#include "probe/capacity_run.h"
#include "probe/geometry_run.h"
#include "probe/words_view.h"

#include <fmt/format.h>

namespace mmc::qualify {

namespace {

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

} // namespace

// The plan names the mmc-probe command that does what the step does.
StepSpec geometry_step()
{
    return {"geometry", "mmc-probe", BundlePart::probe, Needs::always,
            describe_child("mmc-probe", child_args({"geometry", "-J"}, false),
                           "reads across aligned boundaries for the page and AU (read-only)"),
            run_geometry};
}

StepSpec capacity_step()
{
    return {"capacity", "mmc-probe", BundlePart::probe, Needs::destructive,
            describe_child("mmc-probe", child_args({"capacity", "-J", "--yes"}, true),
                           "WRITES stamps to test the capacity is real (the blocks it overwrites are put back)"),
            run_capacity};
}

} // namespace mmc::qualify
