// The info step: mmc-info -J, identifying the card in this process.
#include "qualify/steps.h"
#include "qualify/steps_common.h"


#include "cli/cli.h"
#include "dev/discovery.h"
#include "dev/identify.h"
#include "dev/resolver.h"
#include "views/device_view.h"

#include <fmt/format.h>

namespace mmc::qualify {

namespace {

StepResult run_info(StepContext& c)
{
    const Settings& s = c.settings;
    try {
        const auto target = dev::resolve(s.device, s.roots);
        if (!target.card) return failed(cli::failure, fmt::format("{}: no card", s.device));
        const auto& id = c.identify(*target.card);
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

} // namespace

StepSpec info_step()
{
    StepSpec spec{"info", "mmc-info", BundlePart::info, Needs::always,
                  [](const Settings& s) { return fmt::format("reads the card's registers ({})", s.use_ioctl ? "sysfs, debugfs, ioctl" : "sysfs, debugfs"); },
                  run_info};
    spec.skip_when = needs_mmc_host("registers");
    return spec;
}

} // namespace mmc::qualify
