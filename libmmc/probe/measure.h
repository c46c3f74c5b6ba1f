// What the probe's timing code shares: the clock its samples read, the
// median it summarises them with, how a time reads in its tables, and the
// mebibyte its sizes are counted in. One copy each for the sampler, the
// ladder, the open-AU trials, the capacity probe and their views.
#pragma once

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <time.h>
#include <vector>

namespace mmc::probe {

inline constexpr uint64_t MiB = uint64_t{1} << 20;

// CLOCK_MONOTONIC in nanoseconds: never steps back when the wall clock is set.
inline double monotonic_now_ns()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// The median of v (the mean of the middle two for an even count); 0 when empty.
inline double median(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// 12345 ns -> "12.3 us".
inline std::string microseconds_text(double ns) { return fmt::format("{:.1f} us", ns / 1000); }

} // namespace mmc::probe
