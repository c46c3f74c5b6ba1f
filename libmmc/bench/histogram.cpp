#include "bench/histogram.h"

#include <algorithm>
#include <cmath>

namespace mmc::bench {

Histogram::Histogram() : counts_(bucket_count, 0) {}

void Histogram::merge(const Histogram& other)
{
    for (std::size_t i = 0; i < bucket_count; ++i) counts_[i] += other.counts_[i];
    count_ += other.count_;
    sum_ += other.sum_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
}

void Histogram::clear()
{
    std::fill(counts_.begin(), counts_.end(), 0);
    count_ = 0;
    sum_ = 0;
    min_ = UINT64_MAX;
    max_ = 0;
}

double Histogram::midpoint(std::size_t index)
{
    if (index < exact_limit) return static_cast<double>(index);
    const std::size_t above = index - exact_limit;
    const int e = static_cast<int>(above >> sub_bits) + sub_bits + 1;
    const uint64_t sub = above & ((1u << sub_bits) - 1);
    const double width = std::ldexp(1.0, e - sub_bits);
    const double lower = std::ldexp(1.0, e) + static_cast<double>(sub) * width;
    return lower + (width - 1) / 2; // integer values lower .. lower + width - 1
}

double Histogram::percentile(double p) const
{
    if (count_ == 0) return 0;
    p = std::clamp(p, 0.0, 100.0);
    const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_) - 1e-9)));
    // The ends are known exactly.
    if (rank >= count_) return static_cast<double>(max_);
    if (rank == 1) return static_cast<double>(min());
    uint64_t seen = 0;
    for (std::size_t i = 0; i < bucket_count; ++i) {
        seen += counts_[i];
        if (seen >= rank) return std::clamp(midpoint(i), static_cast<double>(min()), static_cast<double>(max_));
    }
    return static_cast<double>(max_);
}

} // namespace mmc::bench
