#include "bench/report.h"

#include "bench/stats.h"
#include "bench/suites.h"
#include "cli/figure.h"
#include "cli/printable.h"
#include "cli/size.h"
#include "version.h"

#include <cmath>
#include <fmt/format.h>

namespace mmc::bench {

namespace {

using json = nlohmann::ordered_json;

template <class T>
json opt(const std::optional<T>& v)
{
    return v ? json(*v) : json(nullptr);
}

json opt_round(const std::optional<double>& v, int digits) { return v ? json(round_to(*v, digits)) : json(nullptr); }

// A job's figure (IOPS, MB/s) to the digits its 95% interval supports.
std::string job_figure(double value, const JobResult& j)
{
    return cli::figure_text(value, j.ci95_pct ? std::optional<double>(value * *j.ci95_pct / 100) : std::nullopt);
}

json latency_json(const Histogram& h)
{
    auto us = [](double ns) { return round_to(ns / 1000, 2); };
    return {{"min", us(static_cast<double>(h.min()))}, {"mean", us(h.mean())},      {"p50", us(h.percentile(50))},
            {"p90", us(h.percentile(90))},             {"p99", us(h.percentile(99))}, {"p999", us(h.percentile(99.9))},
            {"max", us(static_cast<double>(h.max()))}};
}

json job_json(const JobResult& r)
{
    json j;
    j["name"] = r.job.name;
    j["rw"] = std::string(to_string(r.job.rw));
    j["block_size"] = r.job.block_size;
    j["iodepth"] = r.job.iodepth;
    j["runner"] = r.runner;
    j["region"] = {{"offset", r.region.offset}, {"length", r.region.length}};
    j["ios"] = r.ios;
    j["bytes"] = r.bytes;
    j["seconds"] = round_to(r.seconds, 6);
    j["iops"] = round_to(r.iops, 1);
    j["mb_s"] = round_to(r.mb_s, 3);
    j["ci95_pct"] = opt_round(r.ci95_pct, 2);
    j["rounds"] = r.round_mb_s.size();
    j["converged"] = r.converged;
    j["stop_reason"] = to_string(r.stop_reason);
    j["warmup"] = {{"seconds", round_to(r.warmup_s, 3)}, {"ios", r.warmup_ios}};
    j["lat_us"] = latency_json(r.latency);
    j["stalls_over_250ms"] = r.stalls_over_250ms;
    json stalls = json::array();
    for (const auto& s : r.stalls)
        stalls.push_back({{"offset", s.offset}, {"latency_ms", round_to(s.latency_ms, 1)}, {"at_s", round_to(s.at_s, 3)}});
    j["stalls"] = stalls;
    if (r.unit_bytes) {
        json au;
        au["bytes"] = r.unit_bytes;
        au["count"] = r.unit_mb_s.size();
        double lo = 0, sum = 0;
        json each = json::array();
        for (std::size_t i = 0; i < r.unit_mb_s.size(); ++i) {
            lo = i == 0 ? r.unit_mb_s[i] : std::min(lo, r.unit_mb_s[i]);
            sum += r.unit_mb_s[i];
            each.push_back(round_to(r.unit_mb_s[i], 3));
        }
        au["min_mb_s"] = r.unit_mb_s.empty() ? json(nullptr) : json(round_to(lo, 3));
        au["mean_mb_s"] = r.unit_mb_s.empty() ? json(nullptr) : json(round_to(sum / static_cast<double>(r.unit_mb_s.size()), 3));
        au["mb_s"] = each;
        j["au"] = au;
    }
    j["partial"] = r.partial;
    if (!r.error.empty()) j["error"] = r.error;
    return j;
}

json claims_json(const CardInfo& c)
{
    if (!c.claims.known) return json(nullptr);
    const auto& k = c.claims;
    return {{"source", k.source},
            {"speed_class_mb_s", opt(k.speed_class_mb_s)},
            {"uhs_speed_grade", opt(k.uhs_grade)},
            {"video_speed_class", opt(k.video_class)},
            {"app_perf_class", opt(k.app_perf_class)},
            {"au_size_bytes", k.au_bytes},
            {"cache_support", k.cache_support},
            {"cq_depth", k.cq_depth}};
}

json precondition_json(const PreconditionResult& p)
{
    json j = {{"method", std::string(to_string(p.method))},
              {"how", p.how},
              {"region", {{"offset", p.region.offset}, {"length", p.region.length}}},
              {"seconds", round_to(p.seconds, 3)},
              {"mb_s", p.method == PreconditionMethod::fill ? json(round_to(p.mb_s, 3)) : json(nullptr)},
              {"partial", p.partial}};
    if (p.method == PreconditionMethod::fragment) j["fragment"] = {{"writes", p.writes}, {"aus", p.aus}, {"passes", p.passes}};
    if (p.partial) j["error"] = p.error;
    return j;
}

Outcomes outcomes_of(const RunReport& r)
{
    Outcomes oc;
    for (const auto& j : r.jobs) oc.ran[j.job.name] = &j;
    for (const auto& s : r.skipped) oc.skipped[s.job] = s.why;
    return oc;
}

// Both states of the state suite and what erasing bought.
json state_json(const RunReport& r)
{
    const auto f = state_figures(outcomes_of(r));
    auto fig = [](const Measured& m, int digits) { return m.value ? json(round_to(*m.value, digits)) : json(nullptr); };
    return {{"used", {{"precondition", precondition_json(r.precondition)},
                      {"seq_write_mb_s", fig(f.seq_used_mb_s, 3)},
                      {"rand_write_iops", fig(f.rand_used_iops, 1)}}},
            {"erased", {{"erase", r.state_erase ? precondition_json(*r.state_erase) : json(nullptr)},
                        {"seq_write_mb_s", fig(f.seq_erased_mb_s, 3)},
                        {"rand_write_iops", fig(f.rand_erased_iops, 1)}}},
            {"gain", {{"seq_write", opt_round(f.seq_gain(), 3)}, {"rand_write", opt_round(f.rand_gain(), 3)}}},
            {"summary", state_line(f)}};
}

} // namespace

std::string latency_text(double ns)
{
    if (ns >= 1e9) return fmt::format("{:.2f} s", ns / 1e9);
    if (ns >= 1e6) return fmt::format("{:.{}f} ms", ns / 1e6, ns >= 1e8 ? 0 : ns >= 1e7 ? 1 : 2);
    return fmt::format("{:.{}f} us", ns / 1e3, ns >= 1e5 ? 0 : ns >= 1e4 ? 1 : 2);
}

std::string_view suite_word(const RunReport& r) { return r.suite ? to_string(*r.suite) : "custom"; }

json report_json(const RunReport& r)
{
    json doc;
    doc["tool"] = "mmc-bench";
    doc["version"] = mmc::version;
    doc["suite"] = suite_word(r);
    doc["target"] = {{"path", r.target.path},
                     {"kind", std::string(to_string(r.target.kind))},
                     {"device", r.target.device.empty() ? json(nullptr) : json(r.target.device)},
                     {"size_bytes", r.target.size_bytes},
                     {"logical_block_size", r.target.logical_block},
                     {"direct", r.target.direct},
                     {"writable", r.target.writable}};
    if (const auto& c = r.context.card) {
        doc["card"] = dev::identity_json(c->identity);
        doc["card"].update(json{{"block", c->block},
                       {"partition", c->partition.empty() ? json(nullptr) : json(c->partition)},
                       {"claims", claims_json(*c)},
                       {"claims_missing", c->claims.known ? json(nullptr) : json(c->claims_missing_why)},
                       {"notes", c->notes}});
    } else {
        doc["card"] = nullptr;
    }
    if (const auto& b = r.context.bus) {
        const auto& q = r.context.queueing;
        doc["bus"] = {{"host", b->host},
                      {"controller", b->controller},
                      {"mode", b->mode.empty() ? json(nullptr) : json(b->mode)},
                      {"timing", b->timing},
                      {"clock_hz", opt(b->clock_hz)},
                      {"actual_clock_hz", opt(b->actual_clock_hz)},
                      {"bus_width", opt(b->bus_width_bits)},
                      {"ceiling_mb_s", opt_round(b->ceiling_mb_s, 1)},
                      {"limit", b->limit},
                      {"cache_enabled", opt(q.cache_enabled)},
                      {"cache_evidence", q.cache_evidence},
                      {"command_queue_enabled", opt(q.cq_enabled)},
                      {"command_queue_evidence", q.cq_evidence}};
        if (!b->ceiling_why.empty()) doc["bus"]["ceiling_missing"] = b->ceiling_why;
    } else {
        doc["bus"] = nullptr;
    }
    if (!r.context.card && !r.context.not_card_why.empty()) doc["not_a_card"] = r.context.not_card_why;
    doc["host"] = {{"hostname", r.hostname},
                   {"cpu_model", r.cpu.cpu_model},
                   {"cpus_online", r.cpu.cpus_online},
                   {"pinned_cpu", opt(r.cpu.cpu)},
                   {"governor", opt(r.cpu.governor)}};
    doc["kernel"] = r.kernel;
    doc["precondition"] = precondition_json(r.precondition);
    json nulls = json::array();
    for (const auto& n : r.null_target)
        nulls.push_back({{"runner", to_string(n.runner)},
                         {"iodepth", n.iodepth},
                         {"block_size", n.block_size},
                         {"ios", n.ios},
                         {"iops", round_to(n.iops, 0)},
                         {"per_io_us", round_to(n.per_io_us, 3)},
                         {"p50_us", round_to(n.p50_us, 3)}});
    doc["calibration"] = {{"clock", {{"source", r.clock.source}, {"cost_ns", round_to(r.clock.cost_ns, 1)}, {"resolution_ns", r.clock.resolution_ns}}},
                          {"null_target", nulls},
                          {"ci_target_pct", r.ci_target_pct},
                          {"min_rounds", min_rounds},
                          {"histogram_max_error_pct", round_to(Histogram::max_relative_error * 100, 2)},
                          {"pinned_cpu", opt(r.cpu.cpu)},
                          {"pin_error", r.cpu.pin_error.empty() ? json(nullptr) : json(r.cpu.pin_error)},
                          {"governor", opt(r.cpu.governor)}};
    json jobs = json::array();
    for (const auto& j : r.jobs) jobs.push_back(job_json(j));
    doc["jobs"] = jobs;
    json skipped = json::array();
    for (const auto& s : r.skipped) skipped.push_back({{"name", s.job}, {"why", s.why}});
    doc["skipped"] = skipped;
    json verdicts = json::array();
    for (const auto& v : r.verdicts)
        verdicts.push_back({{"claim", v.claim},
                            {"required", opt_round(v.required, 2)},
                            {"measured", opt_round(v.measured, 2)},
                            {"unit", to_string(v.unit)},
                            {"result", to_string(v.result)},
                            {"why", v.why},
                            {"bus_ceiling_mb_s", opt_round(v.bus_ceiling_mb_s, 1)}});
    doc["verdicts"] = verdicts;
    if (r.suite == Suite::state) doc["state"] = state_json(r);
    if (r.suite == Suite::sustained) {
        doc["sustained"] = r.sustained ? sustained_json(*r.sustained) : json(nullptr);
        if (r.sustained) doc["sustained"]["verdicts"] = verdicts;
    }
    doc["notes"] = r.notes;
    doc["partial"] = r.partial;
    if (r.partial) doc["partial_why"] = r.partial_why;
    doc["interrupted"] = r.interrupted;
    return doc;
}

namespace {

std::string paint(bool color, const char* code, const std::string& s)
{
    return color ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
}

std::string claims_text(const CardClaims& k)
{
    std::string s;
    auto add = [&](const std::string& t) { s += (s.empty() ? "" : " ") + t; };
    if (k.speed_class_mb_s) add(fmt::format("C{}", *k.speed_class_mb_s));
    if (k.uhs_grade) add(fmt::format("U{}", *k.uhs_grade));
    if (k.video_class) add(fmt::format("V{}", *k.video_class));
    if (k.app_perf_class) add(fmt::format("A{}", *k.app_perf_class));
    if (s.empty()) s = "no speed claims";
    if (k.au_bytes) s += ", AU " + cli::format_bytes(k.au_bytes);
    return s;
}

} // namespace

std::string report_text(const RunReport& r, bool color)
{
    std::string out;
    const auto& t = r.target;
    out += fmt::format("Target:       {} ({}, {}, {}-byte blocks{})\n", t.path, to_string(t.kind), cli::format_bytes(t.size_bytes),
                       t.logical_block, t.direct ? ", O_DIRECT" : ", page cache NOT bypassed");
    if (const auto& c = r.context.card) {
        out += fmt::format("Card:         {} {} \"{}\", {}; {}\n", c->identity.name, c->identity.type, cli::printable(c->identity.product), cli::format_bytes(c->identity.capacity_bytes),
                           c->claims.known ? "claims " + claims_text(c->claims) + " (SSR by " + c->claims.source + ")"
                                           : "claims unknown: " + c->claims_missing_why);
    } else if (!r.context.not_card_why.empty()) {
        out += fmt::format("Card:         none ({})\n", r.context.not_card_why);
    }
    if (const auto& b = r.context.bus) {
        // The clock the data moves at, as mmc-bus shows it: ios "actual clock".
        auto mhz = [](uint64_t hz) { return fmt::format("{:g} MHz", static_cast<double>(hz) / 1e6); };
        std::string clock;
        if (b->actual_clock_hz && b->clock_hz && *b->actual_clock_hz != *b->clock_hz)
            clock = fmt::format(" at {} ({} asked)", mhz(*b->actual_clock_hz), mhz(*b->clock_hz));
        else if (b->actual_clock_hz) clock = " at " + mhz(*b->actual_clock_hz);
        else if (b->clock_hz) clock = fmt::format(" at {} (asked; no actual clock reported)", mhz(*b->clock_hz));
        std::string width = b->bus_width_bits ? fmt::format(", {}-bit", *b->bus_width_bits) : "";
        out += fmt::format("Bus:          {} {}{}{}; ceiling {}\n", b->host, b->mode.empty() ? "mode unknown" : b->mode, width, clock,
                           b->ceiling_mb_s ? fmt::format("{:.0f} MB/s", *b->ceiling_mb_s) : "unknown (" + b->ceiling_why + ")");
        const auto& q = r.context.queueing;
        auto state = [](std::optional<bool> v) { return v ? (*v ? "on" : "off") : "unknown"; };
        out += fmt::format("Queueing:     cache {}, command queue {}\n", state(q.cache_enabled), state(q.cq_enabled));
    }
    out += fmt::format("Host:         Linux {}, {}{}\n", r.kernel,
                       r.cpu.cpu ? fmt::format("pinned to CPU {}", *r.cpu.cpu) : "not pinned (" + r.cpu.pin_error + ")",
                       r.cpu.governor ? ", governor " + *r.cpu.governor : ", no cpufreq governor");
    const auto& p = r.precondition;
    out += fmt::format("State:        precondition {}{}\n", to_string(p.method),
                       p.method == PreconditionMethod::none ? " (as found)"
                       : p.method == PreconditionMethod::fill
                           ? fmt::format(" ({} in {:.1f} s, {:.1f} MB/s)", cli::format_bytes(p.region.length), p.seconds, p.mb_s)
                       : p.method == PreconditionMethod::fragment
                           ? fmt::format(" ({} in {:.1f} s)", p.how, p.seconds)
                           : fmt::format(" ({} of {} in {:.1f} s)", p.how, cli::format_bytes(p.region.length), p.seconds));
    if (const auto& e = r.state_erase)
        out += fmt::format("              then erased between the states ({} of {} in {:.1f} s{})\n", e->how,
                           cli::format_bytes(e->region.length), e->seconds, e->partial ? ", stopped: " + e->error : "");
    std::string nulls;
    for (const auto& n : r.null_target)
        nulls += fmt::format("; {} QD{} {:.2f} us/IO", to_string(n.runner), n.iodepth, n.per_io_us);
    out += fmt::format("Calibration:  clock {:.0f} ns/reading{}; target CI95 +-{:g}%\n\n", r.clock.cost_ns, nulls, r.ci_target_pct);

    out += fmt::format("{:<24} {:>6} {:>3} {:>8} {:>10} {:>9} {:>7} {:>9} {:>9} {:>9} {:>9} {:>6}\n", "JOB", "BS", "QD", "RUNNER",
                       "IOPS", "MB/s", "CI95", "P50", "P99", "P99.9", "MAX", "STALLS");
    for (const auto& j : r.jobs) {
        const auto& h = j.latency;
        out += fmt::format("{:<24} {:>6} {:>3} {:>8} {:>10} {:>9} {:>7} {:>9} {:>9} {:>9} {:>9} {:>6}{}\n", j.job.name,
                           size_label(j.job.block_size), j.job.iodepth, j.runner, job_figure(j.iops, j), job_figure(j.mb_s, j),
                           j.ci95_pct ? fmt::format("{:.1f}%", *j.ci95_pct) : "-", latency_text(h.percentile(50)),
                           latency_text(h.percentile(99)), latency_text(h.percentile(99.9)),
                           latency_text(static_cast<double>(h.max())), j.stalls_over_250ms,
                           j.partial ? paint(color, "31", "  partial: " + (j.error.empty() ? std::string(to_string(j.stop_reason)) : j.error)) : "");
        if (j.unit_bytes && !j.unit_mb_s.empty()) {
            double lo = j.unit_mb_s[0], sum = 0;
            for (double v : j.unit_mb_s) lo = std::min(lo, v), sum += v;
            out += fmt::format("{:<24} per {} AU over {} AUs: min {:.2f} MB/s, mean {:.2f} MB/s\n", "", cli::format_bytes(j.unit_bytes),
                               j.unit_mb_s.size(), lo, sum / static_cast<double>(j.unit_mb_s.size()));
        }
        for (const auto& s : j.stalls)
            out += fmt::format("{:<24} stall: {:.0f} ms at offset {} ({:.1f} s in)\n", "", s.latency_ms, s.offset, s.at_s);
    }
    for (const auto& s : r.skipped) out += fmt::format("{:<24} skipped: {}\n", s.job, s.why);
    // Where there is no interval, the table's digits are a convention, not a
    // measurement: say so.
    std::string no_interval;
    for (const auto& j : r.jobs)
        if (!j.ci95_pct && j.ios)
            no_interval += fmt::format("{}{} ({} I/O{})", no_interval.empty() ? "" : ", ", j.job.name, j.ios, j.ios == 1 ? "" : "s");
    if (!no_interval.empty())
        out += fmt::format("No CI95 for {}: too few rounds for an interval; IOPS and MB/s shown to 3 significant digits.\n",
                           no_interval);
    if (r.suite == Suite::iozone) out += "\n" + iozone_table(r);
    if (r.suite == Suite::state) out += "\nErasing bought: " + state_line(state_figures(outcomes_of(r))) + "\n";
    if (r.sustained) out += sustained_text(*r.sustained);
    if (const auto& b = r.context.bus; b && b->ceiling_mb_s) {
        double best = 0;
        const JobResult* best_job = nullptr;
        for (const auto& j : r.jobs)
            if (j.mb_s > best) best = j.mb_s, best_job = &j;
        BusCeiling bus{b->mode, b->ceiling_mb_s, b->actual_clock_hz ? b->actual_clock_hz : b->clock_hz, b->controller};
        if (best > 0 && above_ceiling(best, bus))
            out += fmt::format("\nBest throughput {}.\n", above_ceiling_why(best, bus));
        else if (best > 0)
            out += fmt::format("\nBest throughput {} MB/s is {:.0f}% of the {} bus ceiling ({:.0f} MB/s){}.\n", job_figure(best, *best_job),
                               best / *b->ceiling_mb_s * 100, b->mode, *b->ceiling_mb_s,
                               best >= bus_limited_share * *b->ceiling_mb_s ? ": the bus is the limit" : "");
    }
    if (!r.verdicts.empty()) {
        out += "\nVerdicts:\n";
        for (const auto& v : r.verdicts) {
            const char* code = v.result == VerdictResult::pass ? "32" : v.result == VerdictResult::fail ? "31" : "33";
            const std::string tag = v.result == VerdictResult::not_applicable ? "n/a" : to_string(v.result);
            out += fmt::format("  {} {}: {}\n", paint(color, code, fmt::format("{:<4}", tag)), v.claim, v.why);
        }
    }
    for (const auto& n : r.notes) out += fmt::format("\nNote: {}\n", n);
    if (r.partial) out += paint(color, "31", fmt::format("\nPARTIAL RESULTS: {}\n", r.partial_why));
    return out;
}

std::string iozone_table(const RunReport& r)
{
    auto find = [&](const std::string& name) -> const JobResult* {
        for (const auto& j : r.jobs)
            if (j.job.name == name && !j.partial && j.ios) return &j;
        return nullptr;
    };
    auto iops = [&](const std::string& name) {
        const auto* j = find(name);
        return j ? fmt::format("{:.0f}", j->iops) : std::string("-");
    };
    auto mbs = [&](const std::string& name) {
        const auto* j = find(name);
        return j ? fmt::format("{:.2f}", j->mb_s) : std::string("-");
    };
    std::string card = r.target.path;
    if (const auto& c = r.context.card) card = fmt::format("{} {}", c->identity.product, cli::format_bytes(c->identity.capacity_bytes));
    std::string out = "iozone-style summary (random: IOPS at QD1; sequential 16M records: MB/s)\n";
    out += fmt::format("{:<22} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}\n", "CARD", "1K w", "1K r", "4K w", "4K r",
                       "16K w", "16K r", "seq w", "seq r");
    out += fmt::format("{:<22} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8}\n", card, iops("randwrite-1k"), iops("randread-1k"),
                       iops("randwrite-4k"), iops("randread-4k"), iops("randwrite-16k"), iops("randread-16k"),
                       mbs("seqwrite-16M"), mbs("seqread-16M"));
    return out;
}

} // namespace mmc::bench
