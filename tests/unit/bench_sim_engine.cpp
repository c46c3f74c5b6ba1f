#include "bench_sim_engine.h"

#include <algorithm>

namespace mmc::bench {

SimEngine::SimEngine(ManualClock& clock, SimDevice device, unsigned depth, std::size_t buffer_bytes)
    : clock_(clock), dev_(device), depth_(depth), buffers_(depth, buffer_bytes)
{
}

void SimEngine::queue(const IoRequest& io)
{
    const double rate = io.write ? dev_.write_bytes_per_s : dev_.read_bytes_per_s;
    uint64_t service = dev_.access_ns + static_cast<uint64_t>(static_cast<double>(io.length) * 1e9 / rate + 0.5);
    if (io.write && dev_.stall_every_writes && ++writes_ % dev_.stall_every_writes == 0) service += dev_.stall_ns;
    const uint64_t start = std::max(busy_until_, clock_.now_ns());
    busy_until_ = start + service;
    IoResult r{io.slot, static_cast<int64_t>(io.length)};
    if (dev_.fail_after_ios && ios_ >= *dev_.fail_after_ios) r.result = -dev_.fail_errno;
    ++ios_;
    if (io.write && r.result > 0) written_ += io.length;
    last_offset_ = io.offset;
    pending_.push_back({busy_until_, r});
}

std::size_t SimEngine::reap(std::span<IoResult> out, std::size_t min)
{
    // Time passes until the min-th pending I/O is done.
    if (min > 0 && !pending_.empty()) {
        const std::size_t k = std::min(min, pending_.size()) - 1;
        if (pending_[k].done_at > clock_.now_ns()) clock_.set(pending_[k].done_at);
    }
    std::size_t n = 0;
    while (n < out.size() && !pending_.empty() && pending_.front().done_at <= clock_.now_ns()) {
        out[n++] = pending_.front().result;
        pending_.pop_front();
    }
    return n;
}

} // namespace mmc::bench
