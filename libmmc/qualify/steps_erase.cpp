// The erase step: mmc-erase --yes --verify -J, erase::prepare and execute in
// this process, aligned to the geometry step's AU when the registers give none.
#include "qualify/steps.h"
#include "qualify/steps_common.h"


#include "cli/cli.h"
#include "cli/size.h"
#include "erase/erase.h"
#include "views/erase_view.h"

#include <fmt/format.h>

namespace mmc::qualify {

namespace {

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
        const dev::Device device = erase::device_to_erase(s.device, options);
        const dev::Identified* card = device.card ? &c.identify(*device.card) : nullptr;
        prepared = erase::prepare(device, card, erase_range(s), erase::Method::automatic, options);
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

} // namespace

StepSpec erase_step()
{
    return {"erase", "mmc-erase", BundlePart::erase, Needs::destructive, describe_erase, run_erase};
}

} // namespace mmc::qualify
