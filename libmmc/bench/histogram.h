// Latency histogram with bounded relative error: log-linear buckets in the
// style of HdrHistogram. Values below 256 ns are kept exactly; above, each
// power of two is split into 128 equal buckets, so a bucket is at most 1/128
// of its lower bound wide and its midpoint is within 1/256 (0.39%) of every
// value in it. Recording is a few instructions and no allocation, so the
// runner can record every I/O.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace mmc::bench {

class Histogram {
public:
    static constexpr int sub_bits = 7;                   // 128 buckets per octave
    static constexpr uint64_t exact_limit = 2u << sub_bits; // 256: below this, one bucket per value
    static constexpr std::size_t bucket_count = exact_limit + (64 - (sub_bits + 1)) * (1u << sub_bits);
    // The worst relative error of a reported value against the value recorded.
    static constexpr double max_relative_error = 1.0 / (2u << sub_bits);

    Histogram();

    void record(uint64_t value)
    {
        ++counts_[index(value)];
        ++count_;
        sum_ += static_cast<double>(value);
        if (value < min_) min_ = value;
        if (value > max_) max_ = value;
    }
    void merge(const Histogram& other);
    void clear();

    uint64_t count() const { return count_; }
    uint64_t min() const { return count_ ? min_ : 0; }
    uint64_t max() const { return max_; }
    double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0; }

    // The value at percentile p (0 < p <= 100) by the nearest-rank rule: the
    // smallest recorded value with at least p% of the values at or below it,
    // as its bucket's midpoint, clamped to the exact min and max (which the
    // first and last ranks report exactly). 0 when empty.
    double percentile(double p) const;

    static std::size_t index(uint64_t value)
    {
        if (value < exact_limit) return static_cast<std::size_t>(value);
        const int e = 63 - __builtin_clzll(value); // >= sub_bits + 1
        const uint64_t sub = (value >> (e - sub_bits)) - (uint64_t{1} << sub_bits);
        return static_cast<std::size_t>(exact_limit + static_cast<uint64_t>(e - sub_bits - 1) * (1u << sub_bits) + sub);
    }
    // The midpoint of a bucket: the value reported for everything in it.
    static double midpoint(std::size_t index);

private:
    std::vector<uint64_t> counts_;
    uint64_t count_ = 0;
    double sum_ = 0;
    uint64_t min_ = UINT64_MAX;
    uint64_t max_ = 0;
};

} // namespace mmc::bench
