#include "bench/stats.h"

#include <array>
#include <cmath>

namespace mmc::bench {

double t95(int df)
{
    static constexpr std::array<double, 31> table{
        0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
        2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    };
    if (df < 1) return table[1];
    if (df <= 30) return table[static_cast<std::size_t>(df)];
    // Beyond 30, t is nearly linear in 1/df: 2.042 at 30, 1.960 at infinity.
    return 1.960 + (table[30] - 1.960) * 30.0 / df;
}

std::optional<Interval> ci95(std::span<const double> values)
{
    const auto n = values.size();
    if (n < 2) return std::nullopt;
    double sum = 0;
    for (double v : values) sum += v;
    Interval r;
    r.n = static_cast<int>(n);
    r.mean = sum / static_cast<double>(n);
    if (r.mean == 0) return std::nullopt;
    double sq = 0;
    for (double v : values) sq += (v - r.mean) * (v - r.mean);
    r.stddev = std::sqrt(sq / static_cast<double>(n - 1));
    r.half_width = t95(r.n - 1) * r.stddev / std::sqrt(static_cast<double>(n));
    r.pct = r.half_width / std::fabs(r.mean) * 100;
    return r;
}

std::optional<double> cv_pct(std::span<const double> values)
{
    const auto i = ci95(values);
    if (!i) return std::nullopt;
    return i->stddev / std::fabs(i->mean) * 100;
}

double round_to(double v, int digits)
{
    const double m = std::pow(10.0, digits);
    return std::round(v * m) / m;
}

} // namespace mmc::bench
