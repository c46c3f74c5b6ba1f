#include "bench/session_phases.h"

#include "bench/calibration.h"
#include "cli/size.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <set>

namespace mmc::bench {

std::optional<Suite> suite_of(const SessionOptions& o)
{
    if (o.custom) return std::nullopt;
    return o.suite;
}

PreconditionMethod precondition_of(const SessionOptions& o)
{
    const bool state_suite = suite_of(o) == Suite::state;
    return o.precondition.value_or(state_suite ? PreconditionMethod::fragment : PreconditionMethod::none);
}

void check_usage(const SessionOptions& o)
{
    const bool on_file = o.file.has_value();
    if (on_file && suite_of(o) == Suite::state)
        throw SessionUsage("the state suite erases its region: it needs a raw device, not a test file");
    if (on_file && precondition_of(o) != PreconditionMethod::none)
        throw SessionUsage("preconditioning applies to a raw device; a test file is written once when it is created");
}

JobPlan plan_jobs(const SessionOptions& o, const Context& context, bool on_file, RunReport& rep)
{
    JobPlan plan;
    plan.precondition = precondition_of(o);
    const std::optional<Suite> suite = suite_of(o);
    const auto& card = context.card;
    SuiteOptions& so = plan.suite_options;
    so = o.suite_options;
    if (o.au_bytes) so.au_bytes = *o.au_bytes;
    else if (card && card->claims.au_bytes) so.au_bytes = card->claims.au_bytes;
    else if (!on_file && (suite == Suite::speed_class || suite == Suite::sustained || suite == Suite::state ||
                          plan.precondition == PreconditionMethod::fragment))
        rep.notes.push_back(fmt::format("the card's AU is unknown; {} assumed (an AU given overrides it)", cli::format_bytes(so.au_bytes)));
    if (context.queueing.cq_enabled == true)
        so.queue_depth = card && card->claims.cq_depth > 0 ? std::min(32, card->claims.cq_depth) : 32;
    try {
        if (o.custom) {
            Job j = *o.custom;
            if (o.suite_options.offset) j.offset = o.suite_options.offset;
            if (o.suite_options.length) j.length = o.suite_options.length;
            plan.jobs.push_back(j);
        } else {
            plan.jobs = suite_jobs(*suite, so);
        }
        for (const auto& j : plan.jobs) validate(j);
    } catch (const std::invalid_argument& e) {
        throw SessionUsage(e.what());
    }
    plan.writes = plan.precondition != PreconditionMethod::none;
    for (const auto& j : plan.jobs) plan.writes = plan.writes || j.writes();
    rep.ci_target_pct = o.custom ? o.custom->ci_target_pct : o.suite_options.ci_target_pct.value_or(2);
    return plan;
}

void keep_reads_unless_destructive(JobPlan& plan, const SessionOptions& o, const std::string& path, bool on_file,
                                   RunReport& rep)
{
    if (on_file || !plan.writes || o.destructive) return;
    const bool precondition_writes = plan.precondition != PreconditionMethod::none;
    const std::optional<Suite> suite = suite_of(o);
    if (suite == Suite::state)
        throw SessionRefused(fmt::format("{}: the state suite writes to and erases its region, destroying the data there", path),
                             cli::Remedy::destructive);
    if (suite == Suite::sustained)
        throw SessionRefused(fmt::format("{}: the sustained suite writes its whole region ({}), destroying the data there", path,
                                         o.suite_options.length ? "the length asked for" : "the whole card"),
                             cli::Remedy::destructive);
    if (o.custom || precondition_writes)
        throw SessionRefused(fmt::format("{}: {} destroys the data on it", path,
                                         precondition_writes ? fmt::format("preconditioning ({})", to_string(plan.precondition))
                                                             : std::string("a write test")),
                             cli::Remedy::destructive);
    std::vector<Job> kept;
    for (auto& j : plan.jobs) {
        if (j.writes()) rep.skipped.push_back({j.name, "write test skipped: read-only run (destructive runs only)"});
        else kept.push_back(j);
    }
    plan.jobs = kept;
    plan.writes = false;
}

std::string write_question(const std::string& path, const std::optional<CardInfo>& card, const std::string& holds)
{
    const std::string what = card ? fmt::format("{} ({} \"{}\", {:.1f} GB)", path, card->identity.type, card->identity.product,
                                                static_cast<double>(card->identity.capacity_bytes) / 1e9)
                                  : path;
    return fmt::format("mmc-bench will write to {} and destroy data on it.\nIt holds: {}.", what, holds);
}

void require_confirmation(cli::Confirmation answer, const std::string& path)
{
    if (answer == cli::Confirmation::no_terminal)
        throw SessionRefused(fmt::format("{}: refusing to write without confirmation: no terminal to ask on", path),
                             cli::Remedy::confirm);
    if (answer == cli::Confirmation::declined) throw SessionRefused(fmt::format("{}: not confirmed; nothing written", path));
}

Placement place_jobs(const std::vector<Job>& jobs, uint64_t size, uint32_t logical_block, uint64_t align, RunReport& rep)
{
    Placement pl;
    for (Job j : jobs) {
        if (j.block_size < logical_block || j.block_size % logical_block) {
            rep.skipped.push_back({j.name, fmt::format("block size {} is not a multiple of the device's {}-byte logical block",
                                                       j.block_size, logical_block)});
            continue;
        }
        try {
            pl.regions.push_back(plan_region(j, size, align));
        } catch (const std::invalid_argument& e) {
            throw SessionUsage(fmt::format("{}: {}", j.name, e.what()));
        }
        if (j.one_pass) j.ios = pl.regions.back().length / j.block_size;
        pl.jobs.push_back(j);
    }
    if (!pl.regions.empty()) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (const auto& r : pl.regions) lo = std::min(lo, r.offset), hi = std::max(hi, r.offset + r.length);
        pl.all = {lo, hi - lo};
    }
    return pl;
}

void calibrate(const std::vector<Job>& jobs, const Clock& clock, RunReport& rep,
               const std::function<void(const std::string&)>& note)
{
    rep.clock = calibrate_clock(clock);
    std::set<std::pair<EngineKind, unsigned>> engines{{EngineKind::psync, 1}};
    for (const auto& j : jobs) engines.insert({j.runner, j.iodepth});
    for (const auto& [runner, depth] : engines) {
        try {
            rep.null_target.push_back(calibrate_null_target(runner, depth, clock));
        } catch (const std::exception& e) {
            note(fmt::format("null-target calibration of {} QD{} failed: {}", to_string(runner), depth, e.what()));
        }
    }
}

void apply_precondition(PreconditionMethod method, const Region& all, const std::function<PreconditionResult()>& run,
                        const SessionHooks& hooks, RunReport& rep)
{
    rep.precondition.method = method;
    rep.precondition.region = all;
    if (method == PreconditionMethod::none || !all.length) {
        rep.precondition.how = "as found";
        return;
    }
    if (hooks.phase) hooks.phase(fmt::format("precondition: {} of {}", to_string(method), cli::format_bytes(all.length)));
    rep.precondition = run();
    if (hooks.job_done) hooks.job_done();
    if (rep.precondition.partial) {
        rep.partial = true;
        rep.partial_why = fmt::format("precondition {} stopped: {}", to_string(method), rep.precondition.error);
    }
}

namespace {

// Why a job that ended early ended, for people.
std::string partial_why(const Job& j, const JobResult& r, const std::optional<std::string>& removed)
{
    if (r.stop_reason == StopReason::interrupted) return fmt::format("interrupted during {}", j.name);
    if (r.stop_reason == StopReason::removed || removed)
        return fmt::format("the card was removed during {} ({}{}); results so far are partial", j.name, r.error,
                           removed && *removed != r.error ? "; " + *removed : "");
    return fmt::format("{} failed: {} (the card may be failing); results so far are partial", j.name, r.error);
}

} // namespace

void run_jobs(const Placement& pl, const JobDevice& device, const Clock& clock, const SessionHooks& hooks, RunReport& rep)
{
    RunControl rc;
    rc.clock = &clock;
    rc.stop = hooks.stop;
    rc.check = device.check;
    const auto& jobs = pl.jobs;
    for (std::size_t i = 0; i < jobs.size() && !rep.partial; ++i) {
        const Job& j = jobs[i];
        if (hooks.stop && hooks.stop->load()) {
            rep.partial = true;
            rep.partial_why = "interrupted";
            break;
        }
        if (j.erase_first && pl.all.length) {
            if (hooks.phase) hooks.phase(fmt::format("erasing {} between the states", cli::format_bytes(pl.all.length)));
            rep.state_erase = device.erase_all();
            if (hooks.job_done) hooks.job_done();
            if (rep.state_erase->partial) {
                rep.partial = true;
                rep.partial_why = fmt::format("the erase between the states stopped: {}", rep.state_erase->error);
                break;
            }
        }
        if (j.idle_before_s > 0 && device.idle) {
            if (hooks.phase) hooks.phase(fmt::format("idle for {:g} s before {}", j.idle_before_s, j.name));
            device.idle(j.idle_before_s);
            if (hooks.job_done) hooks.job_done();
            if (hooks.stop && hooks.stop->load()) {
                rep.partial = true;
                rep.partial_why = fmt::format("interrupted while idle before {}", j.name);
                break;
            }
        }
        if (hooks.progress) rc.on_progress = [&, i](const Progress& p) { hooks.progress(i + 1, jobs.size(), p); };
        std::unique_ptr<Engine> engine;
        try {
            engine = device.engine(j);
        } catch (const std::exception& e) {
            rep.skipped.push_back({j.name, fmt::format("{} unavailable: {}", to_string(j.runner), e.what())});
            continue;
        }
        rep.jobs.push_back(run_job(*engine, j, pl.regions[i], rc));
        if (hooks.job_done) hooks.job_done();
        const JobResult& r = rep.jobs.back();
        if (!r.partial) continue;
        rep.partial = true;
        // An error may be the first sign of a removal.
        const std::optional<std::string> removed =
            r.stop_reason == StopReason::error && device.removed ? device.removed(r) : std::nullopt;
        rep.partial_why = partial_why(j, r, removed);
    }
}

void draw_verdicts(const SessionOptions& o, RunReport& rep)
{
    const std::optional<Suite> suite = suite_of(o);
    if (!suite) return;
    Outcomes oc;
    for (const auto& r : rep.jobs) oc.ran[r.job.name] = &r;
    for (const auto& s : rep.skipped) oc.skipped[s.job] = s.why;
    SuiteFacts f;
    const auto& card = rep.context.card;
    f.sd_card = card && dev::family_of(card->type) == regs::CardFamily::sd; // SD and SD combo cards
    if (card) {
        f.claims = card->claims;
        f.claims_missing_why = card->claims_missing_why;
    }
    if (const auto& b = rep.context.bus) {
        f.bus.mode = b->mode;
        f.bus.ceiling_mb_s = b->ceiling_mb_s;
        f.bus.clock_hz = b->actual_clock_hz ? b->actual_clock_hz : b->clock_hz;
        f.bus.controller = b->controller;
    }
    f.host = rep.context.queueing;
    if (suite == Suite::sustained) {
        const auto& jobs = rep.jobs;
        const uint64_t au = jobs.empty() ? 0 : jobs.front().job.unit_bytes;
        const bool whole_card = !o.suite_options.offset && !o.suite_options.length;
        rep.sustained = sustained_result(jobs, f, rep.precondition, au, whole_card);
        if (rep.sustained)
            rep.verdicts = sustained_class_verdicts(rep.sustained->aus, f, rep.sustained->aus_free);
        return;
    }
    rep.verdicts = suite_verdicts(*suite, oc, f);
}

} // namespace mmc::bench
