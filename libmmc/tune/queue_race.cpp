#include "tune/queue_race.h"

#include "bench/stats.h"
#include "cli/size.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::tune {

std::string to_string(const QueueSetting& s)
{
    return fmt::format("{}, read-ahead {}", s.scheduler.empty() ? "(no scheduler)" : s.scheduler,
                       cli::format_bytes(s.read_ahead_kb * 1024));
}

std::string_view to_string(Workload w)
{
    switch (w) {
    case Workload::seq_read: return "seq-read";
    case Workload::rand_read: return "rand-read";
    case Workload::seq_write: return "seq-write";
    case Workload::rand_write: return "rand-write";
    }
    return "?";
}

bool writes(Workload w) { return w == Workload::seq_write || w == Workload::rand_write; }

std::string_view to_string(RaceVerdict v) { return v == RaceVerdict::better ? "better" : "no measurable difference"; }

std::string_view to_string(RaceEnd e)
{
    switch (e) {
    case RaceEnd::one_left: return "one left";
    case RaceEnd::equal: return "equal";
    case RaceEnd::budget: return "budget";
    case RaceEnd::max_rounds: return "max rounds";
    case RaceEnd::interrupted: return "interrupted";
    }
    return "?";
}

std::vector<uint64_t> default_read_aheads_kb() { return {128, 512, 2048}; }

std::vector<QueueSetting> queue_candidates(const QueueSetting& start, const std::vector<std::string>& schedulers,
                                           const std::vector<uint64_t>& read_aheads_kb)
{
    std::vector<QueueSetting> out{start};
    std::vector<uint64_t> ras{start.read_ahead_kb};
    ras.insert(ras.end(), read_aheads_kb.begin(), read_aheads_kb.end());
    std::vector<std::string> scheds{start.scheduler};
    scheds.insert(scheds.end(), schedulers.begin(), schedulers.end());
    for (const auto& s : scheds)
        for (const uint64_t ra : ras) {
            const QueueSetting c{s, ra};
            if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
        }
    return out;
}

namespace {

Figure figure_of(const std::vector<double>& values)
{
    Figure f;
    f.runs = static_cast<int>(values.size());
    if (values.empty()) return f;
    double sum = 0;
    for (const double v : values) sum += v;
    f.mean = sum / static_cast<double>(values.size());
    f.low = f.high = f.mean;
    if (const auto ci = bench::ci95(values)) {
        f.low = ci->mean - ci->half_width;
        f.high = ci->mean + ci->half_width;
    }
    return f;
}

double geometric_mean(const std::vector<double>& xs)
{
    double log_sum = 0;
    for (const double x : xs) {
        if (!(x > 0)) return 0;
        log_sum += std::log(x);
    }
    return std::exp(log_sum / static_cast<double>(xs.size()));
}

// The knob a decision is about: its name, its value in a setting as words,
// and whether two settings differ only in it.
struct Knob {
    std::string_view name;
    std::string (*value)(const QueueSetting&);
    bool (*same_otherwise)(const QueueSetting&, const QueueSetting&);
};

std::string scheduler_value(const QueueSetting& s) { return s.scheduler.empty() ? "no scheduler" : s.scheduler; }
std::string read_ahead_value(const QueueSetting& s) { return cli::format_bytes(s.read_ahead_kb * 1024); }
const Knob scheduler_knob{"scheduler", scheduler_value,
                          [](const QueueSetting& a, const QueueSetting& b) { return a.read_ahead_kb == b.read_ahead_kb; }};
const Knob read_ahead_knob{"read-ahead", read_ahead_value,
                           [](const QueueSetting& a, const QueueSetting& b) { return a.scheduler == b.scheduler; }};

// The knob decided between `current` (the value in force, the other knob
// as already decided) and the candidates that differ from it in this knob
// only; `advised` is set to the winner when there is a change.
KnobDecision decide_knob(const RaceResult& r, const RaceOptions& o, const Knob& knob, std::size_t current, std::size_t& advised)
{
    const auto& cs = r.contenders;
    KnobDecision d;
    const std::string kept = fmt::format("kept, the current setting ({})", knob.value(cs[current].setting));
    std::vector<std::size_t> others;
    for (std::size_t i = 0; i < cs.size(); ++i)
        if (i != current && knob.same_otherwise(cs[i].setting, cs[current].setting)) others.push_back(i);
    if (others.empty()) {
        d.in_force_fastest = true; // nothing else to beat
        d.reason = kept + ": no other was measured";
        return d;
    }
    const auto best = *std::max_element(others.begin(), others.end(),
                                        [&](std::size_t a, std::size_t b) { return cs[a].score().mean < cs[b].score().mean; });
    const Figure w = cs[best].score(), c = cs[current].score();
    const bool beats_all = std::all_of(others.begin(), others.end(), [&](std::size_t i) { return cs[i].score().high < c.low; });
    if (beats_all) {
        d.in_force_fastest = true;
        d.reason = kept + ": measurably the fastest";
        return d;
    }
    if (!(w.low > c.high)) {
        d.reason = fmt::format("{}: {} measured within its noise (score {} against {})", kept, knob.value(cs[best].setting),
                               interval_text(w), interval_text(c));
        return d;
    }
    const double gain_pct = c.mean > 0 ? (w.mean / c.mean - 1) * 100 : 0;
    if (gain_pct < o.min_gain_pct) {
        d.reason = fmt::format("{}: {} is faster by only {:.1f}% (under the {}% a change needs)", kept, knob.value(cs[best].setting),
                               gain_pct, o.min_gain_pct);
        return d;
    }
    d.change = true;
    advised = best;
    d.reason = fmt::format("{}: {:.1f}% faster than the current setting ({}), score {} against {}", knob.value(cs[best].setting),
                           gain_pct, knob.value(cs[current].setting), interval_text(w), interval_text(c));
    return d;
}

// The advice from where the race stopped: each knob changed only on its own
// evidence, the read-ahead first (it is what small buffered reads feel),
// then the scheduler at the read-ahead chosen.
void decide(RaceResult& r, const RaceOptions& o)
{
    const auto& cs = r.contenders;
    r.chosen = 0;
    r.verdict = RaceVerdict::no_difference;
    if (r.rounds < o.min_rounds) {
        const std::string why = fmt::format("{} after {} round{}, fewer than the {} an interval needs",
                                            r.end == RaceEnd::interrupted ? "interrupted" : "the budget ran out", r.rounds,
                                            r.rounds == 1 ? "" : "s", o.min_rounds);
        r.read_ahead.reason = fmt::format("kept, the current setting ({}): {}", read_ahead_value(cs[0].setting), why);
        r.scheduler.reason = fmt::format("kept, the current setting ({}): {}", scheduler_value(cs[0].setting), why);
    } else {
        std::size_t advised = 0;
        r.read_ahead = decide_knob(r, o, read_ahead_knob, 0, advised);
        const QueueSetting at{cs[0].setting.scheduler, cs[advised].setting.read_ahead_kb};
        std::size_t current = 0;
        for (std::size_t i = 0; i < cs.size(); ++i)
            if (cs[i].setting == at) current = i;
        advised = current;
        r.scheduler = decide_knob(r, o, scheduler_knob, current, advised);
        r.chosen = advised;
        const bool change = r.read_ahead.change || r.scheduler.change;
        const bool fastest = (r.read_ahead.change || r.read_ahead.in_force_fastest) &&
                             (r.scheduler.change || r.scheduler.in_force_fastest);
        if (change || fastest) r.verdict = RaceVerdict::better;
    }
    r.reason = fmt::format("read-ahead {}; scheduler {}{}", r.read_ahead.reason, r.scheduler.reason,
                           r.end == RaceEnd::equal || r.end == RaceEnd::one_left ? "" : fmt::format(" (the race stopped: {})", to_string(r.end)));
}

} // namespace

std::string interval_text(const Figure& f) { return fmt::format("{:.1f} to {:.1f}", f.low, f.high); }

Figure Contender::score() const { return figure_of(scores); }
Figure Contender::figure(std::size_t workload) const { return figure_of(runs.at(workload)); }

RaceResult race(MeasurementSource& source, const std::vector<QueueSetting>& candidates, const RaceOptions& o)
{
    if (candidates.empty()) throw std::invalid_argument("no setting to measure");
    if (o.workloads.empty()) throw std::invalid_argument("no workload to measure with");
    RaceResult r;
    r.workloads = o.workloads;
    for (const auto& c : candidates) r.contenders.push_back({c, std::vector<std::vector<double>>(o.workloads.size()), {}, {}});
    const double t0 = source.now_s();
    auto& cs = r.contenders;
    const auto stopped = [&] { return o.stop && o.stop->load(std::memory_order_relaxed); };
    std::size_t samples = 0;
    for (;;) {
        std::vector<std::size_t> left;
        for (std::size_t i = 0; i < cs.size(); ++i)
            if (!cs[i].out_after_round) left.push_back(i);
        // One more round fits only if it ends within the budget, at the
        // mean cost of a measurement so far (the first round always runs).
        const double elapsed = source.now_s() - t0;
        const double per_sample = samples ? elapsed / static_cast<double>(samples) : 0;
        const double round_cost = per_sample * static_cast<double>(left.size() * o.workloads.size());
        if (r.rounds >= o.max_rounds) { r.end = RaceEnd::max_rounds; break; }
        if (r.rounds > 0 && elapsed + round_cost > o.budget_s) { r.end = RaceEnd::budget; break; }
        bool interrupted = false;
        for (std::size_t w = 0; w < o.workloads.size() && !interrupted; ++w)
            for (const std::size_t i : left) {
                if (stopped()) { interrupted = true; break; }
                if (o.progress) o.progress({r.rounds + 1, i, o.workloads[w], left.size(), source.now_s() - t0, o.budget_s});
                cs[i].runs[w].push_back(source.measure(cs[i].setting, o.workloads[w]));
                ++samples;
            }
        if (interrupted || stopped()) {
            // A partial round is dropped: its figures would not be paired.
            for (auto& c : cs)
                for (auto& runs : c.runs) runs.resize(std::min(runs.size(), c.scores.size()));
            r.end = RaceEnd::interrupted;
            break;
        }
        ++r.rounds;
        for (const std::size_t i : left) {
            std::vector<double> round;
            for (const auto& runs : cs[i].runs) round.push_back(runs.back());
            cs[i].scores.push_back(geometric_mean(round));
        }
        if (r.rounds < o.min_rounds) continue;
        const auto best = *std::max_element(left.begin(), left.end(),
                                            [&](std::size_t a, std::size_t b) { return cs[a].score().mean < cs[b].score().mean; });
        const Figure b = cs[best].score();
        std::size_t still = 0;
        for (const std::size_t i : left) {
            if (i != best && cs[i].score().high < b.low)
                cs[i].out_after_round = r.rounds;
            else
                ++still;
        }
        if (still == 1) { r.end = RaceEnd::one_left; break; }
        const double lo = b.mean * (1 - o.equal_within_pct / 100), hi = b.mean * (1 + o.equal_within_pct / 100);
        const bool equal = std::all_of(left.begin(), left.end(), [&](std::size_t i) {
            const Figure f = cs[i].score();
            return cs[i].out_after_round || (f.low >= lo && f.high <= hi);
        });
        if (equal) { r.end = RaceEnd::equal; break; }
    }
    r.elapsed_s = source.now_s() - t0;
    decide(r, o);
    return r;
}

} // namespace mmc::tune
