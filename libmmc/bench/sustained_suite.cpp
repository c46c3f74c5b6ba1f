#include "bench/sustained_suite.h"

#include "bench/report.h"
#include "bench/stats.h"
#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::bench {

namespace sustained_view {

using json = nlohmann::ordered_json;

const JobResult* find(std::span<const JobResult> jobs, std::string_view name)
{
    for (const auto& j : jobs)
        if (j.job.name == name) return &j;
    return nullptr;
}

std::string state_of(const PreconditionResult& p)
{
    switch (p.method) {
    case PreconditionMethod::erase: return "erased before the run (free AUs, as the spec measures)";
    case PreconditionMethod::fill: return "filled before the run (used: every block mapped)";
    case PreconditionMethod::fragment: return "fragmented before the run (used: data scattered over every AU)";
    case PreconditionMethod::none: break;
    }
    return "as found (not erased first: the AUs may not be free)";
}

json stall_json(const WriteStall& s)
{
    return {{"latency_ms", round_to(s.latency_ms, 3)},
            {"excess_ms", round_to(s.excess_ms, 3)},
            {"written_before", s.written_before},
            {"offset", s.offset},
            {"at_s", round_to(s.at_s, 3)}};
}

std::string stall_text(const WriteStall& s)
{
    return fmt::format("{} ({} beyond an ordinary write) after {} written (offset {}, {:.1f} s in)",
                       latency_text(s.latency_ms * 1e6), latency_text(s.excess_ms * 1e6), cli::format_bytes(s.written_before),
                       s.offset, s.at_s);
}

} // namespace sustained_view

using namespace sustained_view;

std::pair<double, std::string> recorder_rate(const SuiteFacts& f)
{
    double best = 0;
    std::string name;
    if (f.claims.known)
        for (const auto& [claim, mb_s] : f.claims.speed_claims())
            if (mb_s > best) best = mb_s, name = claim;
    if (best > 0) return {best * 1e6, "the card's claim: " + name};
    return {30e6, "no speed claim known: 30 MB/s, what V30 and U3 promise"};
}

std::optional<SustainedResult> sustained_result(std::span<const JobResult> jobs, const SuiteFacts& facts,
                                                const PreconditionResult& pre, uint64_t au_bytes, bool whole_card)
{
    const JobResult* region = find(jobs, sustained_region_job);
    if (!region || region->trace.empty()) return std::nullopt;
    SustainedResult r;
    r.ru_bytes = region->job.block_size;
    r.au_bytes = au_bytes;
    r.state_before = state_of(pre);
    r.aus_free = pre.method == PreconditionMethod::erase && !pre.partial;
    SustainedOptions o;
    std::tie(o.recorder_bytes_per_s, r.recorder_rate_why) = recorder_rate(facts);
    r.figures = analyse_sustained(region->trace, o);
    r.aus = au_speeds(region->trace, au_bytes);
    if (const JobResult* rec = find(jobs, sustained_recovery_job); rec && !rec->trace.empty())
        r.recovery = analyse_recovery(rec->trace, rec->job.idle_before_s, r.figures.burst_mb_s, o);

    const std::string written = cli::format_bytes(r.figures.bytes);
    if (region->partial || region->stop_reason == StopReason::runtime)
        r.warnings.push_back(fmt::format("the pass stopped after {} of {} ({}): the figures rest on what was written",
                                         written, cli::format_bytes(region->region.length),
                                         region->error.empty() ? std::string(to_string(region->stop_reason)) : region->error));
    if (!r.figures.knee_bytes && (!whole_card || region->partial || region->stop_reason == StopReason::runtime))
        r.warnings.push_back(fmt::format("no knee in the {} written: the card has no SLC cache, or one larger than that; "
                                         "write the whole card to tell",
                                         written));
    return r;
}

json sustained_json(const SustainedResult& r)
{
    const auto& f = r.figures;
    json trace = json::array();
    for (const auto& p : f.trace)
        trace.push_back({{"written", p.written},
                         {"at_s", round_to(p.at_s, 3)},
                         {"mb_s", round_to(p.mb_s, 3)},
                         {"worst_latency_ms", round_to(p.worst_latency_ms, 3)}});
    json stalls = json::array();
    for (std::size_t i = 0; i < f.stalls.size() && i < max_listed_stalls; ++i) stalls.push_back(stall_json(f.stalls[i]));
    const auto& b = f.budget;
    const auto slow = slowest_au(r.aus);
    json doc = {
        {"ru_bytes", r.ru_bytes},
        {"au_bytes", r.au_bytes},
        {"state_before", r.state_before},
        {"aus_free", r.aus_free},
        {"bytes_written", f.bytes},
        {"writes", f.writes},
        {"seconds", round_to(f.seconds, 3)},
        {"burst_mb_s", round_to(f.burst_mb_s, 3)},
        {"slc_cache_bytes", f.knee_bytes ? json(*f.knee_bytes) : json(nullptr)},
        {"sustained_mb_s", round_to(f.sustained_mb_s, 3)},
        {"worst_latency_ms", round_to(f.worst_latency_ms, 3)},
        {"p999_latency_ms", round_to(f.p999_latency_ms, 3)},
        {"median_latency_ms", round_to(f.median_latency_ms, 3)},
        {"stall_count", f.stall_count},
        {"longest_stall", f.longest_stall ? stall_json(*f.longest_stall) : json(nullptr)},
        {"stalls", stalls},
        {"recording_budget",
         {{"rate_mb_s", round_to(b.rate_mb_s, 3)},
          {"rate_why", r.recorder_rate_why},
          {"keeps_up", b.keeps_up},
          {"buffer_bytes", b.buffer_bytes ? json(*b.buffer_bytes) : json(nullptr)},
          {"buffer_ms", b.buffer_ms ? json(round_to(*b.buffer_ms, 1)) : json(nullptr)},
          {"text", b.text}}},
        {"recovery", r.recovery ? json{{"idle_s", round_to(r.recovery->idle_s, 3)},
                                       {"pass_bytes", r.recovery->pass_bytes},
                                       {"recovered_bytes", r.recovery->recovered_bytes},
                                       {"complete", r.recovery->complete},
                                       {"mb_s", round_to(r.recovery->mb_s, 3)}}
                                : json(nullptr)},
        {"aus", {{"count", r.aus.size()},
                 {"slowest", slow ? json{{"index", slow->index},
                                         {"mb_s", round_to(slow->mb_s, 3)},
                                         {"written_before", slow->written_before},
                                         {"slowest_write_ms", round_to(slow->slowest_write_ms, 3)}}
                                  : json(nullptr)}}},
        {"trace", trace},
        {"warnings", r.warnings},
    };
    return doc;
}

std::string sustained_text(const SustainedResult& r)
{
    const auto& f = r.figures;
    std::string out = fmt::format("\nSustained write ({} in {} writes of {}, {:.1f} s; card {}):\n", cli::format_bytes(f.bytes),
                                  f.writes, cli::format_bytes(r.ru_bytes), f.seconds, r.state_before);
    if (f.knee_bytes)
        out += fmt::format("  burst        {:.1f} MB/s for the first {} (the SLC cache)\n"
                           "  sustained    {:.1f} MB/s after it\n",
                           f.burst_mb_s, cli::format_bytes(*f.knee_bytes), f.sustained_mb_s);
    else
        out += fmt::format("  speed        {:.1f} MB/s throughout: no knee, no SLC cache shown\n", f.sustained_mb_s);
    out += fmt::format("  latency      median {}, p99.9 {}, worst {}\n", latency_text(f.median_latency_ms * 1e6),
                       latency_text(f.p999_latency_ms * 1e6), latency_text(f.worst_latency_ms * 1e6));
    if (f.longest_stall)
        out += fmt::format("  stalls       {}; the longest {}\n", f.stall_count, stall_text(*f.longest_stall));
    else
        out += "  stalls       none\n";
    out += fmt::format("  recording    {} ({})\n", f.budget.text, r.recorder_rate_why);
    if (const auto& rec = r.recovery) {
        if (rec->complete)
            out += fmt::format("  recovery     after {:g} s idle: all {} written again went at burst speed ({:.1f} MB/s): at "
                               "least that much recovered\n",
                               rec->idle_s, cli::format_bytes(rec->pass_bytes), rec->mb_s);
        else
            out += fmt::format("  recovery     after {:g} s idle: {} of the {} written again went at burst speed\n", rec->idle_s,
                               cli::format_bytes(rec->recovered_bytes), cli::format_bytes(rec->pass_bytes));
    }
    if (const auto slow = slowest_au(r.aus))
        out += fmt::format("  AUs          {} whole AUs of {}; slowest AU {} at {:.1f} MB/s\n", r.aus.size(),
                           cli::format_bytes(r.au_bytes), slow->index, slow->mb_s);
    for (const auto& w : r.warnings) out += fmt::format("  warning: {}\n", w);
    return out;
}

} // namespace mmc::bench
