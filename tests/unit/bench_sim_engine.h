// A simulated device of known speed on a manual clock: each I/O takes a fixed
// access time plus its bytes at a set rate, served one at a time in order.
// It lets tests check the runner's arithmetic (rates, percentiles, rounds,
// stalls, per-AU speeds, error handling) exactly, with no real device and
// no timing noise. A test double: it lives with the tests, not in libmmc.
#pragma once

#include "bench/engines/engine.h"
#include "manual_clock.h"

#include <deque>
#include <optional>

namespace mmc::bench {

struct SimDevice {
    double read_bytes_per_s = 20e6;
    double write_bytes_per_s = 10e6;
    uint64_t access_ns = 100'000;          // per I/O, before the transfer
    uint64_t stall_every_writes = 0;       // every Nth write also takes stall_ns
    uint64_t stall_ns = 0;
    std::optional<uint64_t> fail_after_ios; // the I/O after this many fails
    int fail_errno = 5;                    // EIO
};

class SimEngine final : public Engine {
public:
    SimEngine(ManualClock& clock, SimDevice device, unsigned depth, std::size_t buffer_bytes);

    std::string_view name() const override { return "sim"; }
    unsigned depth() const override { return depth_; }
    std::byte* buffer(uint32_t slot) override { return buffers_[slot]; }
    void queue(const IoRequest& io) override;
    std::size_t reap(std::span<IoResult> out, std::size_t min) override;

    uint64_t ios() const { return ios_; }
    uint64_t bytes_written() const { return written_; }
    uint64_t last_offset() const { return last_offset_; }

private:
    struct Pending {
        uint64_t done_at;
        IoResult result;
    };
    ManualClock& clock_;
    SimDevice dev_;
    unsigned depth_;
    SlotBuffers buffers_;
    std::deque<Pending> pending_;
    uint64_t busy_until_ = 0;
    uint64_t ios_ = 0, writes_ = 0, written_ = 0, last_offset_ = 0;
};

} // namespace mmc::bench
