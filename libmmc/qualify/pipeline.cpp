#include "qualify/pipeline.h"

#include "cli/cli.h"

#include <chrono>
#include <exception>

namespace mmc::qualify {

std::string_view to_string(StepState s)
{
    switch (s) {
    case StepState::ok: return "ok";
    case StepState::failed: return "failed";
    case StepState::skipped: return "skipped";
    case StepState::not_started: return "not started";
    }
    return "?";
}

bool Outcome::all_ok() const
{
    if (interrupted) return false;
    for (const auto& s : steps)
        if (s.state == StepState::failed || s.state == StepState::not_started) return false;
    return true;
}

namespace {

StepResult run_guarded(const StepSpec& spec, StepContext& context)
{
    try {
        return spec.run(context);
    } catch (const std::exception& e) {
        StepResult r;
        r.exit_status = cli::failure;
        r.message = e.what();
        return r;
    }
}

} // namespace

Outcome run_plan(const Plan& plan, StepContext& context, const RunHooks& hooks)
{
    Outcome out;
    for (const auto& planned : plan.steps) {
        StepRecord rec;
        rec.name = planned.spec.name;
        rec.tool = planned.spec.tool;
        rec.part = planned.spec.part;
        if (out.interrupted || context.stop.load()) {
            out.interrupted = true;
            rec.message = "not started: interrupted";
            out.steps.push_back(std::move(rec));
            continue;
        }
        if (hooks.started) hooks.started(planned);
        if (!planned.skip.empty()) { // the plan said so: it cannot run on this device
            rec.state = StepState::skipped;
            rec.message = planned.skip;
            if (hooks.finished) hooks.finished(rec);
            out.steps.push_back(std::move(rec));
            continue;
        }
        const auto t0 = std::chrono::steady_clock::now();
        StepResult r = run_guarded(planned.spec, context);
        rec.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        rec.doc = std::move(r.doc);
        rec.summary = std::move(r.summary);
        rec.message = std::move(r.message);
        if (r.skipped) {
            rec.state = StepState::skipped;
        } else {
            rec.exit_status = r.exit_status;
            rec.state = r.exit_status == cli::ok || r.status_is_answer ? StepState::ok : StepState::failed;
        }
        // A step that saw Ctrl-C may still end "ok" (it was on its last
        // chunk); the run is interrupted all the same.
        if (r.exit_status == cli::interrupted || context.stop.load()) {
            out.interrupted = true;
            out.interrupted_during = rec.name;
        }
        if (hooks.finished) hooks.finished(rec);
        out.steps.push_back(std::move(rec));
    }
    return out;
}

} // namespace mmc::qualify
