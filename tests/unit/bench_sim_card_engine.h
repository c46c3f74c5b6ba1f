// A test double: the benchmark's engine over one simulated card (sim::Card,
// virtual time) on a manual clock. Each I/O arrives at the clock's time and
// completes when the model says; reaping moves the clock there. The same
// runner and session code that drive a real device drive the model, so the
// sustained suite's figures can be held to the model's parameters exactly.
#pragma once

#include "bench/engines/engine.h"
#include "manual_clock.h"
#include "sim/card.h"

#include <deque>
#include <span>

namespace mmc::bench {

class SimCardEngine final : public Engine {
public:
    SimCardEngine(ManualClock& clock, sim::Card& card, std::size_t buffer_bytes)
        : clock_(clock), card_(card), buffers_(1, buffer_bytes)
    {
    }

    std::string_view name() const override { return "sim-card"; }
    unsigned depth() const override { return 1; }
    std::byte* buffer(uint32_t slot) override { return buffers_[slot]; }

    void queue(const IoRequest& io) override
    {
        auto* bytes = reinterpret_cast<uint8_t*>(buffers_[io.slot]);
        const uint64_t at = clock_.now_ns();
        const uint64_t done = io.write ? card_.write(io.offset, std::span<const uint8_t>(bytes, io.length), at)
                                       : card_.read(io.offset, std::span<uint8_t>(bytes, io.length), at);
        pending_.push_back({done, {io.slot, static_cast<int64_t>(io.length)}});
    }

    std::size_t reap(std::span<IoResult> out, std::size_t min) override
    {
        std::size_t n = 0;
        while (n < out.size() && !pending_.empty() && (n < min || pending_.front().done <= clock_.now_ns())) {
            if (pending_.front().done > clock_.now_ns()) clock_.set(pending_.front().done);
            out[n++] = pending_.front().result;
            pending_.pop_front();
        }
        return n;
    }

private:
    struct Pending {
        uint64_t done;
        IoResult result;
    };
    ManualClock& clock_;
    sim::Card& card_;
    SlotBuffers buffers_;
    std::deque<Pending> pending_;
};

} // namespace mmc::bench
