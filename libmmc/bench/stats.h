// Summary statistics of repeated rounds: mean, sample standard deviation and
// the 95% confidence interval of the mean by Student's t distribution.
#pragma once

#include <optional>
#include <span>

namespace mmc::bench {

// Two-sided 95% critical value of Student's t with `df` degrees of freedom
// (df >= 1); tabulated to 30, interpolated in 1/df beyond, 1.96 in the limit.
double t95(int df);

struct Interval {
    double mean = 0;
    double stddev = 0;      // sample standard deviation (n - 1)
    double half_width = 0;  // t95(n - 1) * stddev / sqrt(n)
    double pct = 0;         // half_width / mean * 100: the "±x%" of the mean
    int n = 0;
};

// Nothing for fewer than two values or a mean of zero.
std::optional<Interval> ci95(std::span<const double> values);

// Coefficient of variation in percent (stddev / mean * 100); nothing for
// fewer than two values.
std::optional<double> cv_pct(std::span<const double> values);

// v to `digits` decimals, for the figures of a JSON document.
double round_to(double v, int digits);

} // namespace mmc::bench
