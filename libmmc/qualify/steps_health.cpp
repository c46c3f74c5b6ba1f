// The health step: mmc-health -J as a child process, skipped when it is not
// installed; its verdicts (exits 3-6) are its answer, not a failure.
#include "qualify/steps.h"
#include "qualify/steps_common.h"


#include "cli/cli.h"
#include "health/verdict.h"

namespace mmc::qualify {

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

} // namespace mmc::qualify
