#include "bench/suites.h"

#include <array>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::bench {

namespace {

constexpr std::array suites{Suite::quick, Suite::iozone, Suite::a1, Suite::a2, Suite::speed_class, Suite::state, Suite::sustained};
constexpr uint32_t KiB = 1024, MiB = 1024 * 1024;

Job make(Rw rw, uint32_t bs, double runtime, double warmup, std::string suffix = {})
{
    Job j;
    j.rw = rw;
    j.block_size = bs;
    j.runtime_s = runtime;
    j.warmup_s = warmup;
    j.name = default_name(j) + suffix;
    return j;
}

constexpr Rw seqread{Pattern::sequential, Direction::read}, seqwrite{Pattern::sequential, Direction::write},
    randread{Pattern::random, Direction::read}, randwrite{Pattern::random, Direction::write};

} // namespace

std::span<const Suite> all_suites() { return suites; }

std::string_view to_string(Suite suite)
{
    switch (suite) {
    case Suite::quick: return "quick";
    case Suite::iozone: return "iozone";
    case Suite::a1: return "a1";
    case Suite::a2: return "a2";
    case Suite::speed_class: return "class";
    case Suite::state: return "state";
    case Suite::sustained: return "sustained";
    }
    return "quick";
}

std::optional<Suite> suite_from_text(std::string_view word)
{
    for (Suite s : suites)
        if (to_string(s) == word) return s;
    return std::nullopt;
}

std::string suite_list()
{
    std::string list;
    for (Suite s : suites) list += (list.empty() ? "" : ", ") + std::string(to_string(s));
    return list;
}

std::vector<Job> suite_jobs(Suite suite, const SuiteOptions& o)
{
    std::vector<Job> jobs;
    if (suite == Suite::quick) {
        jobs = {make(seqread, 4 * MiB, 12, 1), make(seqwrite, 4 * MiB, 12, 1), make(randread, 4 * KiB, 12, 1),
                make(randwrite, 4 * KiB, 12, 1)};
    } else if (suite == Suite::iozone) {
        for (uint32_t bs : {4 * KiB, 512 * KiB, 16 * MiB}) {
            jobs.push_back(make(seqwrite, bs, 5, 0.5));
            jobs.push_back(make(seqread, bs, 5, 0.5));
        }
        for (uint32_t bs : {1 * KiB, 4 * KiB, 16 * KiB}) {
            jobs.push_back(make(randwrite, bs, 5, 0.5));
            jobs.push_back(make(randread, bs, 5, 0.5));
        }
    } else if (suite == Suite::a1 || suite == Suite::a2) {
        jobs = {make(randread, 4 * KiB, 10, 1), make(randwrite, 4 * KiB, 10, 1)};
        if (suite == Suite::a2 && o.queue_depth > 1) {
            for (Rw rw : {randread, randwrite}) {
                Job j = make(rw, 4 * KiB, 10, 1);
                j.iodepth = o.queue_depth;
                j.runner = EngineKind::io_uring;
                j.name = default_name(j);
                jobs.push_back(j);
            }
        }
        // Sustained: the whole budget, no early stop, nothing discarded.
        Job seq = make(seqwrite, 512 * KiB, 10, 0, "-sustained");
        seq.ci_target_pct = 0;
        jobs.push_back(seq);
    } else if (suite == Suite::speed_class) {
        // 512 KiB recording units across whole AUs, each AU written once.
        Job j = make(seqwrite, 512 * KiB, 120, 0, "-au");
        j.ci_target_pct = 0;
        j.unit_bytes = o.au_bytes;
        j.one_pass = true;
        if (!o.length) j.length = uint64_t{o.class_aus} * o.au_bytes;
        jobs.push_back(j);
    } else if (suite == Suite::state) {
        // Two halves of whole AUs: the sequential write covers its half once
        // (a second pass would meet the state it made itself), the random
        // writes stay in theirs. No warm-up: it would change the state
        // being measured. The erase between the states covers both halves.
        const uint64_t au = std::max<uint64_t>(o.au_bytes, 1);
        const uint64_t base = (o.offset.value_or(0) + au - 1) / au * au;
        const uint64_t total = o.length ? *o.length / au * au : 2 * uint64_t{o.state_aus} * au;
        const uint64_t half = total / 2 / au * au;
        if (half == 0)
            throw std::invalid_argument(fmt::format("the state suite needs a region of at least two whole AUs ({} bytes each)", au));
        for (const bool erased : {false, true}) {
            const char* state = erased ? "-erased" : "-used";
            Job seq = make(seqwrite, 512 * KiB, 120, 0, state);
            seq.ci_target_pct = 0;
            seq.one_pass = true;
            seq.offset = base;
            seq.length = half;
            seq.erase_first = erased;
            Job rnd = make(randwrite, 4 * KiB, 10, 0, state);
            rnd.ci_target_pct = 0;
            rnd.offset = base + half;
            rnd.length = half;
            jobs.push_back(seq);
            jobs.push_back(rnd);
        }
        for (auto& j : jobs)
            if (o.runtime_s && !j.one_pass) j.runtime_s = *o.runtime_s;
        return jobs;
    } else if (suite == Suite::sustained) {
        // The region (the whole card unless --offset/--size say otherwise)
        // written once in recording units, every write timed. No warm-up, no
        // early stop: the knee is in the first bytes as much as the last.
        Job j = make(seqwrite, sustained_ru_bytes, sustained_budget_s, 0, "-region");
        j.ci_target_pct = 0;
        j.one_pass = true;
        j.trace = true;
        j.unit_bytes = o.au_bytes;
        j.offset = o.offset;
        j.length = o.length;
        if (o.runtime_s) j.runtime_s = *o.runtime_s;
        jobs.push_back(j);
        if (o.idle_s) {
            // After the idle time, the start of the region again: what of
            // the cache came back.
            Job r = make(seqwrite, sustained_ru_bytes, sustained_budget_s, 0, "-recovery");
            r.ci_target_pct = 0;
            r.one_pass = true;
            r.trace = true;
            r.idle_before_s = *o.idle_s;
            r.offset = o.offset;
            r.length = std::min(o.length.value_or(recovery_pass_max_bytes), recovery_pass_max_bytes);
            jobs.push_back(r);
        }
        return jobs;
    }
    for (auto& j : jobs) {
        if (o.runtime_s) j.runtime_s = *o.runtime_s;
        if (o.warmup_s && j.warmup_s > 0) j.warmup_s = *o.warmup_s;
        if (o.ci_target_pct && j.ci_target_pct > 0) j.ci_target_pct = *o.ci_target_pct;
        if (o.offset) j.offset = o.offset;
        if (o.length) j.length = o.length;
    }
    return jobs;
}

namespace {

Measured figure(const Outcomes& o, const std::string& job, double (*get)(const JobResult&))
{
    if (auto s = o.skipped.find(job); s != o.skipped.end()) return {std::nullopt, s->second};
    const auto r = o.ran.find(job);
    if (r == o.ran.end()) return {std::nullopt, fmt::format("{} did not run (the run stopped early)", job)};
    const JobResult& res = *r->second;
    if (res.partial)
        return {std::nullopt, fmt::format("{} stopped early ({})", job, res.error.empty() ? std::string(to_string(res.stop_reason)) : res.error)};
    if (res.ios == 0) return {std::nullopt, fmt::format("{} completed no I/O", job)};
    return {get(res), {}};
}

} // namespace

Measured Outcomes::iops(const std::string& job) const
{
    return figure(*this, job, [](const JobResult& r) { return r.iops; });
}

Measured Outcomes::mb_s(const std::string& job) const
{
    return figure(*this, job, [](const JobResult& r) { return r.mb_s; });
}

Measured Outcomes::min_unit_mb_s(const std::string& job) const
{
    Measured m = figure(*this, job, [](const JobResult& r) {
        double lo = 0;
        for (std::size_t i = 0; i < r.unit_mb_s.size(); ++i)
            if (i == 0 || r.unit_mb_s[i] < lo) lo = r.unit_mb_s[i];
        return lo;
    });
    if (m.value) {
        const JobResult& r = *ran.at(job);
        if (r.unit_mb_s.empty()) return {std::nullopt, fmt::format("{} completed no whole AU", job)};
    }
    return m;
}

namespace {

void with_card_note(Verdict& v, const SuiteFacts& f)
{
    if (f.claims.known && v.result != VerdictResult::not_applicable) v.why += fmt::format(" (the card claims: {})", f.claims.app_class_text());
}

void app_class(std::vector<Verdict>& out, int a, const Outcomes& o, const SuiteFacts& f, const std::string& read_job,
               const std::string& write_job, const std::string& seq_job, const std::string& how)
{
    const double rd = a == 1 ? 1500 : 4000, wr = a == 1 ? 500 : 2000;
    const auto blocker = a == 2 ? a2_blocker(f.host) : std::nullopt;
    for (auto [what, job, need] : {std::tuple{"read", read_job, rd}, std::tuple{"write", write_job, wr}}) {
        const std::string claim = fmt::format("A{} random {} 4 KiB{}", a, what, how);
        Verdict v = blocker ? not_applicable(claim, need, VerdictUnit::iops, o.iops(job), *blocker)
                            : judge_iops(claim, need, 4096, o.iops(job), f.bus);
        if (blocker) v.bus_ceiling_mb_s = f.bus.ceiling_mb_s;
        with_card_note(v, f);
        out.push_back(v);
    }
    if (!seq_job.empty()) {
        Verdict v = judge_mb_s(fmt::format("A{} sustained sequential write", a), 10, o.mb_s(seq_job), f.bus);
        with_card_note(v, f);
        out.push_back(v);
    }
}

void speed_claims(std::vector<Verdict>& out, const Outcomes& o, const SuiteFacts& f, const Measured& m,
                  const std::string& how)
{
    if (!f.sd_card) return;
    if (!f.claims.known) {
        out.push_back(not_applicable("speed class" + how, std::nullopt, VerdictUnit::mb_s, m,
                                     "the card's claims are unknown: " + f.claims_missing_why));
        return;
    }
    const auto claims = f.claims.speed_claims();
    if (claims.empty()) {
        out.push_back(not_applicable("speed class" + how, std::nullopt, VerdictUnit::mb_s, m,
                                     "the card makes no speed class, UHS grade or video class claim"));
        return;
    }
    for (const auto& [name, need] : claims) out.push_back(judge_mb_s(name + how, need, m, f.bus));
    (void)o;
}

} // namespace

std::optional<double> StateFigures::seq_gain() const
{
    if (!seq_used_mb_s.value || !seq_erased_mb_s.value || *seq_used_mb_s.value <= 0) return std::nullopt;
    return *seq_erased_mb_s.value / *seq_used_mb_s.value;
}

std::optional<double> StateFigures::rand_gain() const
{
    if (!rand_used_iops.value || !rand_erased_iops.value || *rand_used_iops.value <= 0) return std::nullopt;
    return *rand_erased_iops.value / *rand_used_iops.value;
}

StateFigures state_figures(const Outcomes& o)
{
    return {o.mb_s(std::string(state_seq_used)), o.mb_s(std::string(state_seq_erased)),
            o.iops(std::string(state_rand_used)), o.iops(std::string(state_rand_erased))};
}

namespace {

std::string state_part(const char* what, const Measured& used, const Measured& erased, std::optional<double> gain,
                       const char* unit, int digits)
{
    if (!used.value) return fmt::format("{}: no used-state figure ({})", what, used.missing_why);
    if (!erased.value) return fmt::format("{}: no figure after the erase ({})", what, erased.missing_why);
    return fmt::format("{} {:.{}f} \u2192 {:.{}f} {} after erase ({})", what, *used.value, digits, *erased.value, digits, unit,
                       gain ? fmt::format("\u00d7{:.2f}", *gain) : std::string("no gain: nothing measured in the used state"));
}

} // namespace

std::string state_line(const StateFigures& f)
{
    return state_part("sequential write", f.seq_used_mb_s, f.seq_erased_mb_s, f.seq_gain(), "MB/s", 2) + "; " +
           state_part("4 KiB random write", f.rand_used_iops, f.rand_erased_iops, f.rand_gain(), "IOPS", 1);
}

std::vector<Verdict> suite_verdicts(Suite suite, const Outcomes& o, const SuiteFacts& f)
{
    std::vector<Verdict> out;
    if (suite == Suite::quick) {
        speed_claims(out, o, f, o.mb_s("seqwrite-4M"), " (indicative: 4 MiB sequential write; the class suite measures per AU)");
        if (f.sd_card && f.claims.app_perf_class)
            app_class(out, *f.claims.app_perf_class, o, f, "randread-4k", "randwrite-4k", "", " QD1");
    } else if (suite == Suite::a1) {
        app_class(out, 1, o, f, "randread-4k", "randwrite-4k", "seqwrite-512k-sustained", " QD1");
    } else if (suite == Suite::a2) {
        std::string qd; // the queued jobs' suffix, "-qd32", when the suite ran them
        for (const auto& [name, r] : o.ran)
            if (name.rfind("randread-4k-qd", 0) == 0) qd = name.substr(11);
        for (const auto& [name, why] : o.skipped)
            if (name.rfind("randread-4k-qd", 0) == 0) qd = name.substr(11);
        if (!qd.empty())
            app_class(out, 2, o, f, "randread-4k" + qd, "randwrite-4k" + qd, "seqwrite-512k-sustained",
                      " QD" + qd.substr(3));
        else app_class(out, 2, o, f, "randread-4k", "randwrite-4k", "seqwrite-512k-sustained", " QD1");
    } else if (suite == Suite::speed_class) {
        speed_claims(out, o, f, o.min_unit_mb_s("seqwrite-512k-au"), " (slowest AU)");
    }
    return out;
}

} // namespace mmc::bench
