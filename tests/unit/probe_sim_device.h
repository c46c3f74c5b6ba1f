// A test double: one simulated card (sim::Card, virtual time) as both of the
// probe's seams see a block device: reads timed (ReadTimer, with optional
// jitter for a busy host) and writes timed (WriteDevice). Shared by the
// probe's tests so that every one of them meets the card the same way.
#pragma once

#include "probe/open_aus.h"
#include "probe/sampler.h"
#include "sim/card.h"
#include "sim/params.h"

#include <algorithm>
#include <random>
#include <span>
#include <vector>

namespace mmc::test {

class SimProbeDevice : public probe::ReadTimer, public probe::WriteDevice {
public:
    explicit SimProbeDevice(const sim::Params& p, double jitter_ns = 0) : card(p), jitter_(0, jitter_ns) {}
    uint64_t size() const override { return card.size_bytes(); }
    uint32_t block() const override { return 512; }
    double read_ns(uint64_t offset, uint32_t length) override
    {
        std::vector<uint8_t> buf(length);
        const uint64_t start = card.idle_at();
        highest = std::max(highest, offset + length);
        ++reads;
        return static_cast<double>(card.read(offset, buf, start) - start) + (jitter_.b() > 0 ? jitter_(rng_) : 0);
    }
    void read(uint64_t offset, std::span<uint8_t> out) override { card.read(offset, out, card.idle_at()); }
    double write_ns(uint64_t offset, std::span<const uint8_t> data) override
    {
        const uint64_t start = card.idle_at();
        return static_cast<double>(card.write(offset, data, start) - start);
    }
    double flush_ns() override
    {
        const uint64_t start = card.idle_at();
        return static_cast<double>(card.flush(start) - start);
    }
    // The card's bytes from 0 to end, read without timing.
    std::vector<uint8_t> contents(uint64_t end)
    {
        constexpr uint64_t step = 1 << 20;
        std::vector<uint8_t> all(end);
        for (uint64_t off = 0; off < end; off += step)
            card.read(off, std::span(all).subspan(off, std::min(step, end - off)), card.idle_at());
        return all;
    }

    sim::Card card;
    uint64_t highest = 0; // the end of the furthest timed read
    uint64_t reads = 0;   // timed reads made

private:
    std::uniform_real_distribution<double> jitter_;
    std::mt19937 rng_{7};
};

} // namespace mmc::test
