// The time source of the benchmark. The runner reads it twice per I/O; tests
// give it a manual clock that a simulated device advances, so the arithmetic
// of rates and percentiles can be checked exactly (tests/unit/manual_clock.h).
#pragma once

#include <cstdint>
#include <string>

namespace mmc::bench {

class Clock {
public:
    virtual ~Clock() = default;
    virtual uint64_t now_ns() const = 0;
};

// CLOCK_MONOTONIC: not stepped by NTP or date, counts through the run.
class MonotonicClock final : public Clock {
public:
    uint64_t now_ns() const override;
};

struct ClockCalibration {
    std::string source = "CLOCK_MONOTONIC";
    double cost_ns = 0;       // mean cost of one reading
    double resolution_ns = 0; // clock_getres
};

// Reads the clock `readings` times and reports the mean cost of one reading.
ClockCalibration calibrate_clock(const Clock& clock, int readings = 200000);

} // namespace mmc::bench
