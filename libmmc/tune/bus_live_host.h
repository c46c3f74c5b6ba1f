// The live host of mmc-tune bus's trials: dev/host_debugfs's files, the
// kernel log (dev/system) and err_stats (dev/uevent_card's parser) behind
// the engine's BusHost interface. Failures become HostError, which reject
// the trial they happen in.
#pragma once

#include "dev/host_debugfs.h"
#include "tune/bus_trial.h"

#include <atomic>
#include <string>

namespace mmc::tune {

class LiveBusHost : public BusHost {
public:
    // `live_log`: read the kernel's own log (false in a fixture tree).
    LiveBusHost(dev::DebugfsHost host, bool live_log, const std::atomic<bool>* stop)
        : h_(std::move(host)), live_log_(live_log), stop_(stop)
    {
    }
    HostSnapshot snapshot() override;
    void set_caps(uint32_t caps) override;
    void set_caps2(uint32_t caps2) override;
    void set_clock(uint64_t hz) override;
    void reinit(double timeout_s, bool may_stop) override;
    void put_back_power(const HostSnapshot& start) override;
    bus::Ios ios() override;
    ErrorCounts err_stats() override;
    void mark_log() override;
    std::string log_since_mark() override;
    uint64_t card_bytes() override;
    void read(uint64_t offset, std::span<uint8_t> into) override;
    void write(uint64_t offset, std::span<const uint8_t> from) override;
    double now() override;

private:
    template <class F> auto guarded(F&& f) -> decltype(f());
    dev::DebugfsHost h_;
    bool live_log_;
    const std::atomic<bool>* stop_;
    std::string mark_line_; // the log's last line at the mark
};

} // namespace mmc::tune
