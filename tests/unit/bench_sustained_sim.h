// The sustained suite on one simulated card, as the session runs it: its
// planning, placement, job loop (SimCardEngine on a manual clock, idle time
// passing on that clock) and verdicts, for the tests that hold its figures
// to the model's parameters.
#pragma once

#include "bench/session_phases.h"
#include "bench_sim_card_engine.h"
#include "sim/params.h"

#include <atomic>

namespace mmc::test {

using namespace mmc::bench;

struct Claims {
    std::optional<int> video_class{}, uhs_grade{}, speed_class{}; // {}: a claim left out is none, without a warning
};

struct Run {
    RunReport report;
    uint64_t card_bytes = 0;
};

// The sustained suite over the whole of a card built from `p`, claiming
// `claims`; with `idle_s`, the recovery pass after that idle time; with
// `size`, only that much of it; with `stop_after_s`, a Ctrl-C once the
// clock has run that long.
inline Run run_sustained(const sim::Params& p, Claims claims = {}, std::optional<double> idle_s = {},
                         std::optional<uint64_t> size = {}, std::optional<double> stop_after_s = {})
{
    SessionOptions o;
    o.device = "/dev/mmcblk0";
    o.suite = Suite::sustained;
    o.destructive = true;
    o.suite_options.idle_s = idle_s;
    o.suite_options.length = size;
    Context ctx;
    CardInfo card;
    card.identity.type = "SD";
    card.type = mmc::dev::CardType::sd;
    card.identity.product = "SIM";
    card.identity.capacity_bytes = p.size_bytes;
    card.claims.known = true;
    card.claims.au_bytes = p.au_bytes;
    card.claims.video_class = claims.video_class;
    card.claims.uhs_grade = claims.uhs_grade;
    card.claims.speed_class_mb_s = claims.speed_class;
    ctx.card = card;

    Run run;
    RunReport& rep = run.report;
    rep.suite = Suite::sustained;
    rep.context = ctx;
    const JobPlan plan = plan_jobs(o, ctx, false, rep);
    sim::Card sim_card(p);
    run.card_bytes = sim_card.size_bytes();
    const Placement pl = place_jobs(plan.jobs, sim_card.size_bytes(), 512, plan.suite_options.au_bytes, rep);
    ManualClock clock;
    JobDevice d;
    d.engine = [&](const Job& j) { return std::make_unique<SimCardEngine>(clock, sim_card, j.block_size); };
    d.check = [] { return std::nullopt; };
    d.idle = [&](double s) { clock.advance(static_cast<uint64_t>(s * 1e9)); };
    rep.precondition.how = "as found";
    // Ctrl-C as the signal handler would set it, once the clock passes the time.
    std::atomic<bool> stop{false};
    SessionHooks hooks;
    hooks.stop = &stop;
    const uint64_t stop_at = clock.now_ns() + static_cast<uint64_t>(stop_after_s.value_or(1e9) * 1e9);
    hooks.progress = [&](std::size_t, std::size_t, const Progress&) {
        if (clock.now_ns() >= stop_at) stop = true;
    };
    run_jobs(pl, d, clock, hooks, rep);
    draw_verdicts(o, rep);
    return run;
}

// The verdict whose claim starts with `starts`, or null.
inline const Verdict* verdict(const RunReport& r, const std::string& starts)
{
    for (const auto& v : r.verdicts)
        if (v.claim.rfind(starts, 0) == 0) return &v;
    return nullptr;
}

} // namespace mmc::test
