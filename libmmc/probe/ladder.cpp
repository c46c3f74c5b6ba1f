#include "probe/ladder.h"

#include "cli/size.h"
#include "probe/measure.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace mmc::probe {

namespace {

bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

std::string bytes(uint64_t b) { return cli::format_bytes(b); }


} // namespace

bool is_au_shaped(uint64_t b)
{
    return is_pow2(b) || (b % 3 == 0 && is_pow2(b / 3));
}

Geometry analyze(const Ladder& ladder)
{
    Geometry g;
    std::vector<LadderRow> rows = ladder.rows;
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.align < b.align; });
    rows.erase(std::unique(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.align == b.align; }),
               rows.end());
    if (rows.size() < 3) {
        g.confidence = Confidence::none;
        g.evidence.push_back(fmt::format("{} ladder rows: too few to read", rows.size()));
        return g;
    }
    std::vector<double> pre;
    for (const auto& r : rows) pre.push_back(r.pre_ns);
    const double read_ns = median(pre);
    // Only rows with no spread at all (a noiseless simulation) leave nothing
    // to measure a step against; then 1% of a read's time stands in.
    const double quiet_floor = 0.01 * read_ns;

    // The page: pow2 rows up to max_page_bytes, walked upwards. The rows
    // below a candidate (3*2^n ones too) are the baseline: their |diff| is
    // what "no boundary" looks like on this device. The largest of them is
    // its measure, or the second largest from four rows on, so that one row
    // a busy machine delayed does not hide the step (a step must still
    // clear that row).
    std::vector<std::size_t> small; // indices of pow2 rows, ascending
    for (std::size_t i = 0; i < rows.size(); ++i)
        if (is_pow2(rows[i].align)) small.push_back(i);
    // The least diff of up to 3 pow2 rows from small[k] up: a page step
    // stays up at every multiple, a noisy row does not take two others with it.
    auto level_from = [&](std::size_t k) {
        std::vector<double> v;
        for (std::size_t j = k; j < small.size() && j < k + 3; ++j) v.push_back(rows[small[j]].diff_ns());
        return *std::min_element(v.begin(), v.end());
    };
    double base_max = 0;
    auto baseline_below = [&](uint64_t align, std::size_t& count) {
        std::vector<double> v;
        for (const auto& r : rows)
            if (r.align < align) v.push_back(std::abs(r.diff_ns()));
        count = v.size();
        if (v.empty()) return 0.0;
        std::sort(v.rbegin(), v.rend());
        base_max = v[0];
        return v.size() >= 4 ? v[1] : v[0];
    };
    double base_ref = 0;
    std::size_t base_rows = 0;
    std::optional<std::size_t> page_at; // index into `small`
    // A boundary is a step far outside the noise of its neighbours: three
    // times the baseline, the spread of the rows below it. Not a share of
    // the read time (a ~200 us step over ~550 us reads, or over
    // 55 ms ones, is a boundary when the rows around it vary by 12 us); that
    // stands in only where the rows show no spread at all (quiet_floor).
    // The spread of single repeated reads is larger than a
    // row's (medians over places): evidence only.
    // When the ladder was measured here, a step must also stand clear of
    // how much single reads vary: a row is a difference of minima, and on a
    // busy machine (or through the simulator's FUSE chain) rows with no
    // boundary were seen up to about that spread apart, while five rows
    // below the page can all happen to be quiet (one run read a 16 KiB
    // page as 8 KiB from a 17 us row over a 3.7 us baseline, with single
    // reads varying by 27 us).
    const double spread = 1.5 * ladder.noise_ns.value_or(0);
    auto threshold = [&] { return std::max({3 * base_ref, base_ref > 0 ? 0.0 : quiet_floor, spread}); };
    for (std::size_t k = 0; k + 1 < small.size() && rows[small[k]].align <= max_page_bytes; ++k) {
        base_ref = baseline_below(rows[small[k]].align, base_rows);
        if (base_rows == 0) continue;
        const double d = rows[small[k]].diff_ns();
        // One row below is too thin a baseline to know the noise by: then
        // the spread of repeated reads, when measured, stands in for it.
        const double thin = base_rows < 2 ? 3 * ladder.noise_ns.value_or(0) : 0;
        const double bar = std::max({threshold(), base_max, thin});
        if (d > bar && level_from(k) > bar) {
            page_at = k;
            break;
        }
    }
    if (!page_at) base_ref = baseline_below(max_page_bytes + 1, base_rows);
    if (base_rows == 0 || (!page_at && base_rows < 2)) {
        // No rows below a page: the only "no boundary" measure left is how
        // much two reads that cross nothing (pre, post) disagree.
        std::vector<double> spread;
        for (const auto& r : rows) spread.push_back(std::abs(r.pre_ns - r.post_ns));
        base_ref = std::max(base_ref, median(spread));
    }
    g.noise_floor_ns = base_ref;
    g.threshold_ns = threshold();
    const double t = g.threshold_ns;

    if (page_at) {
        const auto& r = rows[small[*page_at]];
        g.page_bytes = r.align;
        g.page_step_ns = level_from(*page_at);
        g.evidence.push_back(fmt::format("page {}: reads across {} boundaries and the next two cost at least {} more (diff {} here, {} at the "
                                         "{} rows below; threshold {})",
                                         bytes(r.align), bytes(r.align), microseconds_text(*g.page_step_ns), microseconds_text(r.diff_ns()),
                                         microseconds_text(base_ref), base_rows, microseconds_text(t)));
        // Two pages read at once: a second step at twice the page.
        const std::size_t k = *page_at + 1;
        if (k < small.size() && rows[small[k]].align == 2 * r.align && rows[small[k]].align <= max_page_bytes) {
            const double rise = level_from(k) - r.diff_ns();
            if (rows[small[k]].diff_ns() - r.diff_ns() > t && rise > t) {
                g.multi_plane_bytes = rows[small[k]].align;
                g.evidence.push_back(fmt::format("a second step of {} at {}: two {} pages read at once (multi-plane)",
                                                 microseconds_text(rise), bytes(*g.multi_plane_bytes), bytes(r.align)));
            }
        }
    } else {
        g.evidence.push_back(fmt::format("no page step: no row up to {} rises above {}", bytes(max_page_bytes), microseconds_text(t)));
    }

    // The AU: for each candidate A, the rows at A and its next multiples
    // (the reads there cross A's boundaries) against the rows just below A.
    // The least of the first against the most of the second must clear the
    // threshold; the clearest such A wins. 3*2^n candidates are told from
    // powers of two because the sampler reads at odd multiples of A.
    const uint64_t au_min = std::max(min_au_bytes, g.page_bytes ? 4 * *g.page_bytes : 0);
    double best = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const uint64_t a = rows[i].align;
        if (a < au_min || !is_au_shaped(a)) continue;
        std::vector<double> high, low;
        for (std::size_t j = i; j < rows.size() && high.size() < 3; ++j)
            if (rows[j].align % a == 0) high.push_back(rows[j].diff_ns());
        for (std::size_t j = i; j-- > 0 && low.size() < 3;)
            if (!g.page_bytes || rows[j].align >= *g.page_bytes) low.push_back(rows[j].diff_ns());
        if (high.size() < 2 || low.empty()) continue;
        const double step = *std::min_element(high.begin(), high.end()) - *std::max_element(low.begin(), low.end());
        if (step > t && step > best) {
            best = step;
            g.au_bytes = a;
        }
    }
    if (g.au_bytes) {
        g.au_step_ns = best;
        g.evidence.push_back(fmt::format("AU {}: reads across {} boundaries and their multiples cost at least {} more "
                                         "than across the boundaries just below (threshold {})",
                                         bytes(*g.au_bytes), bytes(*g.au_bytes), microseconds_text(best), microseconds_text(t)));
    } else {
        g.evidence.push_back(fmt::format("no AU step: no boundary from {} up stands {} above the ones below it",
                                         bytes(au_min), microseconds_text(t)));
    }

    if (!g.page_bytes && !g.au_bytes) g.confidence = Confidence::none;
    else if (g.page_bytes && g.au_bytes && best >= 3 * t) g.confidence = Confidence::high;
    else if (g.au_bytes) g.confidence = Confidence::medium;
    else g.confidence = Confidence::low;
    g.evidence.push_back(fmt::format("{} rows from {} to {}; a read takes {}{}{}", rows.size(), bytes(rows.front().align),
                                     bytes(rows.back().align), microseconds_text(read_ns),
                                     ladder.repeats ? fmt::format("; {} repeats per position, the fastest kept", ladder.repeats) : "",
                                     ladder.noise_ns ? fmt::format("; single reads vary by {}", microseconds_text(*ladder.noise_ns)) : ""));
    return g;
}

} // namespace mmc::probe
