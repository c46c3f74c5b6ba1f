#include "bench/sustained.h"

#include "bench/histogram.h"
#include "cli/size.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::bench {

namespace sustained_fit {

constexpr double bytes_per_mib = 1024.0 * 1024.0;

double seconds(uint64_t ns) { return static_cast<double>(ns) / 1e9; }
double mb_s(uint64_t bytes, uint64_t ns) { return ns ? static_cast<double>(bytes) / seconds(ns) / 1e6 : 0; }

// Running sums of one straight-line fit of time (s) against bytes written
// (bytes_per_mib), kept in long double: a whole card is millions of points.
struct LineSums {
    long double n = 0, x = 0, y = 0, xx = 0, xy = 0, yy = 0;
    void add(double px, double py, int sign = 1)
    {
        n += sign;
        x += sign * px;
        y += sign * py;
        xx += sign * static_cast<long double>(px) * px;
        xy += sign * static_cast<long double>(px) * py;
        yy += sign * static_cast<long double>(py) * py;
    }
    long double sxx() const { return xx - x * x / n; }
    long double sxy() const { return xy - x * y / n; }
    // Squared error left by the best line.
    long double sse() const
    {
        const long double s = sxx();
        const long double e = (yy - y * y / n) - (s > 0 ? sxy() * sxy() / s : 0);
        return std::max<long double>(e, 0);
    }
    // Seconds per bytes_per_mib.
    long double slope() const { return sxx() > 0 ? sxy() / sxx() : 0; }
};

struct Split {
    std::size_t index = 0; // first write after the knee
    double knee_mib = 0;   // where the two lines meet
    bool found = false;
};

// The two straight lines that fit time against bytes best, each with its
// own intercept (so a lone stall, a step, fits as two parallel lines: no
// knee), and whether the second is a sustained drop from the first.
Split best_split(std::span<const WriteSample> t, const SustainedOptions& o)
{
    const std::size_t n = t.size();
    std::vector<double> x(n), y(n);
    uint64_t written = 0;
    for (std::size_t i = 0; i < n; ++i) {
        written += t[i].bytes;
        x[i] = static_cast<double>(written) / bytes_per_mib;
        y[i] = seconds(t[i].done_ns - t[0].start_ns);
    }
    const uint64_t total = written;
    const uint64_t min_side = std::max<uint64_t>(o.min_side_bytes, static_cast<uint64_t>(o.min_side_share * static_cast<double>(total)));
    LineSums left, right, best_left, best_right;
    for (std::size_t i = 0; i < n; ++i) right.add(x[i], y[i]);
    Split best;
    long double best_sse = 0;
    uint64_t before = 0;
    for (std::size_t k = 1; k < n; ++k) {
        left.add(x[k - 1], y[k - 1]);
        right.add(x[k - 1], y[k - 1], -1);
        before += t[k - 1].bytes;
        if (before < min_side || total - before < min_side || left.n < 2 || right.n < 2) continue;
        const long double sse = left.sse() + right.sse();
        if (!best.found || sse < best_sse) {
            best = {k, 0, true};
            best_sse = sse;
            best_left = left;
            best_right = right;
        }
    }
    if (!best.found) return best;
    // Seconds per bytes_per_mib on each side: the drop must be in the slope.
    const long double s1 = best_left.slope(), s2 = best_right.slope();
    if (s1 <= 0 || s2 <= 0 || 1 / s2 >= o.knee_drop / s1) return {best.index, 0, false};
    // The knee where the lines meet (a write straddling it belongs to either
    // side equally well), kept inside the data and away from its ends.
    const long double a1 = (best_left.y - s1 * best_left.x) / best_left.n, a2 = (best_right.y - s2 * best_right.x) / best_right.n;
    const double meet = static_cast<double>((a2 - a1) / (s1 - s2));
    const double lo = static_cast<double>(min_side) / bytes_per_mib, hi = static_cast<double>(total - min_side) / bytes_per_mib;
    best.knee_mib = meet;
    best.found = meet >= lo && meet <= hi;
    // The sides for the speeds: the writes that ended by the knee (within
    // half a write) are before it.
    std::size_t k = 0;
    while (k < n && x[k] <= meet + static_cast<double>(t[k].bytes) / 2 / bytes_per_mib) ++k;
    best.index = std::clamp<std::size_t>(k, 1, n - 1);
    return best;
}

uint64_t bytes_of(std::span<const WriteSample> t)
{
    uint64_t b = 0;
    for (const auto& s : t) b += s.bytes;
    return b;
}

uint64_t median_latency(std::span<const WriteSample> t)
{
    if (t.empty()) return 0;
    std::vector<uint64_t> l;
    l.reserve(t.size());
    for (const auto& s : t) l.push_back(s.latency_ns());
    auto mid = l.begin() + static_cast<std::ptrdiff_t>(l.size() / 2);
    std::nth_element(l.begin(), mid, l.end());
    return *mid;
}

std::vector<TracePoint> summarise(std::span<const WriteSample> t, uint64_t total, std::size_t points)
{
    std::vector<TracePoint> out;
    const uint64_t stretch = std::max<uint64_t>(1, (total + points - 1) / std::max<std::size_t>(points, 1));
    uint64_t written = 0, bytes = 0, worst = 0, from = t.front().start_ns;
    for (std::size_t i = 0; i < t.size(); ++i) {
        written += t[i].bytes;
        bytes += t[i].bytes;
        worst = std::max(worst, t[i].latency_ns());
        if (bytes >= stretch || i + 1 == t.size()) {
            out.push_back({written, seconds(t[i].done_ns - t.front().start_ns), mb_s(bytes, t[i].done_ns - from),
                           static_cast<double>(worst) / 1e6});
            from = t[i].done_ns;
            bytes = 0;
            worst = 0;
        }
    }
    return out;
}

// "30 MB/s" for a round rate (a claim), "11.7 MB/s" for a measured one.
std::string rate_text(double bytes_per_s)
{
    const double mb = bytes_per_s / 1e6;
    return fmt::format("{:.{}f} MB/s", mb, std::abs(mb - std::round(mb)) < 1e-9 ? 0 : 1);
}

} // namespace sustained_fit

using namespace sustained_fit;

std::optional<uint64_t> find_knee(std::span<const WriteSample> trace, const SustainedOptions& o)
{
    const Split s = best_split(trace, o);
    if (!s.found) return std::nullopt;
    return static_cast<uint64_t>(std::llround(s.knee_mib * bytes_per_mib));
}

RecordingBudget recording_budget(std::span<const WriteSample> t, double rate, std::optional<double> sustained)
{
    RecordingBudget b;
    b.rate_mb_s = rate / 1e6;
    b.keeps_up = !sustained || *sustained >= rate;
    if (!b.keeps_up) {
        b.text = fmt::format("a recorder at {} cannot keep up: the card sustains {}", rate_text(rate), rate_text(*sustained));
        return b;
    }
    double done = 0, worst = 0;   // seconds since recording began; bytes
    uint64_t produced_needed = 0; // bytes the recorder must have made before the write can start
    for (const auto& s : t) {
        const uint64_t written_before = produced_needed;
        produced_needed += s.bytes;
        const double start = std::max(done, static_cast<double>(produced_needed) / rate);
        done = start + seconds(s.latency_ns());
        worst = std::max(worst, rate * done - static_cast<double>(written_before));
    }
    b.buffer_bytes = static_cast<uint64_t>(std::ceil(worst));
    b.buffer_ms = worst / rate * 1e3;
    b.text = fmt::format("a recorder needs {:.0f} ms of buffer at {} ({})", *b.buffer_ms, rate_text(rate),
                         cli::format_bytes(*b.buffer_bytes));
    return b;
}

SustainedFigures analyse_sustained(std::span<const WriteSample> t, const SustainedOptions& o)
{
    if (t.empty()) throw std::invalid_argument("no writes to analyse");
    SustainedFigures f;
    f.writes = t.size();
    f.bytes = bytes_of(t);
    const uint64_t t0 = t.front().start_ns, t_end = t.back().done_ns;
    f.seconds = seconds(t_end - t0);

    const Split split = best_split(t, o);
    std::span<const WriteSample> before = t, after = t;
    if (split.found) {
        before = t.first(split.index);
        after = t.subspan(split.index);
        f.knee_bytes = static_cast<uint64_t>(std::llround(split.knee_mib * bytes_per_mib));
        const uint64_t bytes_before = bytes_of(before);
        f.burst_mb_s = mb_s(bytes_before, before.back().done_ns - t0);
        f.sustained_mb_s = mb_s(f.bytes - bytes_before, t_end - before.back().done_ns);
    } else {
        f.burst_mb_s = f.sustained_mb_s = mb_s(f.bytes, t_end - t0);
    }

    Histogram latency;
    for (const auto& s : t) latency.record(s.latency_ns());
    f.worst_latency_ms = static_cast<double>(latency.max()) / 1e6;
    f.p999_latency_ms = latency.percentile(99.9) / 1e6;
    f.median_latency_ms = latency.percentile(50) / 1e6;

    // Stalls, each side of the knee against its own median.
    const uint64_t median_before = median_latency(before), median_after = median_latency(after);
    const uint64_t limit_before = std::max<uint64_t>(o.stall_min_ns, static_cast<uint64_t>(o.stall_factor * static_cast<double>(median_before)));
    const uint64_t limit_after = std::max<uint64_t>(o.stall_min_ns, static_cast<uint64_t>(o.stall_factor * static_cast<double>(median_after)));
    uint64_t written = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const bool after_knee = split.found && i >= split.index;
        const uint64_t limit = after_knee ? limit_after : limit_before;
        const double ordinary_ms = static_cast<double>(after_knee ? median_after : median_before) / 1e6;
        const double latency_ms = static_cast<double>(t[i].latency_ns()) / 1e6;
        const WriteStall s{written, t[i].offset, latency_ms, latency_ms - ordinary_ms, seconds(t[i].start_ns - t0)};
        if (t[i].latency_ns() >= limit) {
            ++f.stall_count;
            if (f.stalls.size() < max_stalls) f.stalls.push_back(s);
            if (!f.longest_stall || s.latency_ms > f.longest_stall->latency_ms) f.longest_stall = s;
        }
        written += t[i].bytes;
    }

    f.budget = recording_budget(t, o.recorder_bytes_per_s, f.sustained_mb_s * 1e6);
    f.trace = summarise(t, f.bytes, o.summary_points);
    return f;
}

Recovery analyse_recovery(std::span<const WriteSample> pass, double idle_s, double burst_mb_s, const SustainedOptions& o)
{
    Recovery r;
    r.idle_s = idle_s;
    if (pass.empty()) return r;
    r.pass_bytes = bytes_of(pass);
    r.mb_s = mb_s(r.pass_bytes, pass.back().done_ns - pass.front().start_ns);
    if (const auto knee = find_knee(pass, o)) {
        r.recovered_bytes = *knee;
    } else if (r.mb_s >= o.knee_drop * burst_mb_s) {
        r.recovered_bytes = r.pass_bytes;
        r.complete = true;
    }
    return r;
}

} // namespace mmc::bench
