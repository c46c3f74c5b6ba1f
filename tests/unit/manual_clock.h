// A clock that moves only when told: the benchmark tests' time source, which
// the simulated engine advances, so rates and percentiles come out exact.
#pragma once

#include "bench/clock.h"

namespace mmc::bench {

class ManualClock final : public Clock {
public:
    uint64_t now_ns() const override { return now_; }
    void advance(uint64_t ns) { now_ += ns; }
    void set(uint64_t ns) { now_ = ns; }

private:
    uint64_t now_ = 1'000'000'000;
};

} // namespace mmc::bench
