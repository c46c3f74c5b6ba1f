// A modelled MMC host for mmc-tune bus's trial engine: caps, caps2 and the
// clock as the kernel keeps them, a re-initialisation that picks the best
// mode caps and card share (SDR104, DDR50, SDR50, SDR25, then high speed)
// only when AGGRESSIVE_PM lets runtime PM power the card off, a card whose
// data reads back, and the failures a test sets: CRC errors per mode (and
// above a clock), a switch that fails (the kernel falls back a mode), reads
// that return wrong data, a host operation that fails, a stop signal at
// the Nth operation. Virtual time: a read takes bytes / the bus rate.
#pragma once

#include "bus/mode_caps.h"
#include "tune/bus_trial.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

namespace bus_model {

using mmc::bus::Mode;
using mmc::tune::HostError;

inline std::string timing_text(Mode m)
{
    switch (m) {
    case Mode::legacy: return "legacy";
    case Mode::hs: return "sd high-speed";
    case Mode::sdr12: return "sd uhs SDR12";
    case Mode::sdr25: return "sd uhs SDR25";
    case Mode::sdr50: return "sd uhs SDR50";
    case Mode::sdr104: return "sd uhs SDR104";
    case Mode::ddr50: return "sd uhs DDR50";
    default: return "invalid";
    }
}

struct Faults {
    std::map<Mode, uint64_t> crc_per_read;      // CRC errors counted per region read in this mode
    std::map<Mode, uint64_t> clean_below_hz;    // above this clock, one CRC error per region read
    std::set<Mode> switch_fails;                 // the kernel cannot switch to it and falls back
    std::set<Mode> corrupt_reads;                // reads in this mode return a flipped byte
    std::set<Mode> corrupt_writes;               // writes in this mode land wrong
    int fail_at_op = 0;                          // this operation (1-based) throws std::runtime_error once
    bool fail_is_host_error = false;             // ... as a HostError instead
    int stop_at_op = 0;                          // this operation sets the stop flag
    std::set<Mode> log_crc_lines;                // the kernel log gets a CRC line per read pass in this mode
};

class ModelHost : public mmc::tune::BusHost {
public:
    ModelHost(uint32_t caps, uint32_t caps2, std::set<Mode> card_modes, Faults f, uint64_t card_bytes = 16 << 20)
        : caps_(caps), caps2_(caps2), card_modes_(std::move(card_modes)), f_(std::move(f)), data_(card_bytes)
    {
        for (std::size_t i = 0; i < data_.size(); ++i) data_[i] = static_cast<uint8_t>(i * 7 + (i >> 12));
        pick_mode();
        start_power_ = power_control;
    }

    std::atomic<bool> stop{false};
    std::string power_control = "auto";
    long autosuspend_ms = 3000;
    std::function<void()> on_first_change;       // called at the first set_caps, before it lands
    std::vector<std::string> ops;                 // every operation, in order
    int reinit_count = 0;

    Mode mode() const { return mode_; }
    uint64_t clock() const { return clock_; }
    uint32_t caps() const { return caps_; }
    uint32_t caps2() const { return caps2_; }
    const std::vector<uint8_t>& data() const { return data_; }

    mmc::tune::HostSnapshot snapshot() override
    {
        op("snapshot");
        return {"mmc0", caps_, caps2_, clock_, mode_, power_control, autosuspend_ms};
    }
    void set_caps(uint32_t v) override
    {
        if (on_first_change && !changed_) on_first_change();
        changed_ = true;
        op("caps");
        const auto w = mmc::bus::writable_caps_bits();
        if ((v ^ caps_) & ~w.caps) throw HostError("caps: Invalid argument"); // mmc_caps_set's -EINVAL
        caps_ = v;
    }
    void set_caps2(uint32_t v) override
    {
        op("caps2");
        const auto w = mmc::bus::writable_caps_bits();
        if ((v ^ caps2_) & ~w.caps2) throw HostError("caps2: Invalid argument");
        caps2_ = v;
    }
    void set_clock(uint64_t hz) override
    {
        op("clock");
        clock_ = hz;
    }
    void reinit(double, bool) override
    {
        op("reinit");
        ++reinit_count;
        now_ += 0.2;
        // Without AGGRESSIVE_PM the runtime suspend returns early: nothing
        // is re-initialised.
        if (!(caps_ & mmc::bus::caps_bit("AGGRESSIVE_PM"))) return;
        power_control = "on";
        autosuspend_ms = 0;
        pick_mode();
    }
    void put_back_power(const mmc::tune::HostSnapshot& s) override
    {
        op("power");
        power_control = s.power_control;
        autosuspend_ms = s.autosuspend_delay_ms.value_or(autosuspend_ms);
    }
    mmc::bus::Ios ios() override
    {
        op("ios");
        mmc::bus::Ios i;
        i.clock_hz = clock_;
        i.power_mode = 2;
        i.bus_width_bits = 4;
        i.timing = timing_text(mode_);
        return i;
    }
    mmc::tune::ErrorCounts err_stats() override { return {{"DATA_CRC", crc_}, {"CMD_TIMEOUT", 0}}; }
    void mark_log() override { mark_ = log_.size(); }
    std::string log_since_mark() override
    {
        std::string out;
        for (std::size_t i = mark_; i < log_.size(); ++i) out += log_[i] + "\n";
        return out;
    }
    uint64_t card_bytes() override { return data_.size(); }
    void read(uint64_t offset, std::span<uint8_t> into) override
    {
        op("read");
        std::copy_n(data_.begin() + static_cast<long>(offset), into.size(), into.begin());
        if (f_.corrupt_reads.count(mode_)) into[into.size() / 2] ^= 0x40;
        crc_ += f_.crc_per_read.count(mode_) ? f_.crc_per_read.at(mode_) : 0;
        if (f_.clean_below_hz.count(mode_) && clock_ > f_.clean_below_hz.at(mode_)) ++crc_;
        if (f_.log_crc_lines.count(mode_)) log_.push_back("mmc0: Data CRC error");
        now_ += static_cast<double>(into.size()) / rate();
    }
    void write(uint64_t offset, std::span<const uint8_t> from) override
    {
        op("write");
        std::copy(from.begin(), from.end(), data_.begin() + static_cast<long>(offset));
        if (f_.corrupt_writes.count(mode_)) data_[offset] ^= 1;
        now_ += static_cast<double>(from.size()) / rate();
    }
    double now() override { return now_; }

    // Bytes per second: clock x 4 bits (x2 DDR) / 8, at 80 %.
    double rate() const { return static_cast<double>(clock_) * 4 * (mode_ == Mode::ddr50 ? 2 : 1) / 8 * 0.8; }

private:
    void op(const char* name)
    {
        ops.push_back(name);
        const int n = static_cast<int>(ops.size());
        if (n == f_.stop_at_op) stop = true;
        if (n == f_.fail_at_op) {
            if (f_.fail_is_host_error) throw HostError(std::string("modelled failure at ") + name);
            throw std::runtime_error(std::string("modelled failure at ") + name);
        }
    }
    void pick_mode()
    {
        using mmc::bus::caps_bit;
        const std::pair<Mode, const char*> order[] = {{Mode::sdr104, "UHS_SDR104"}, {Mode::ddr50, "UHS_DDR50"}, {Mode::sdr50, "UHS_SDR50"},
                                                      {Mode::sdr25, "UHS_SDR25"}, {Mode::sdr12, "UHS_SDR12"}};
        Mode m = (caps_ & caps_bit("SD_HIGHSPEED")) && card_modes_.count(Mode::hs) ? Mode::hs : Mode::legacy;
        for (const auto& [mode, cap] : order)
            if ((caps_ & caps_bit(cap)) && card_modes_.count(mode) && !f_.switch_fails.count(mode)) {
                m = mode;
                break;
            }
        mode_ = m;
        clock_ = static_cast<uint64_t>(mmc::bus::mode_spec(m)->clock_hz);
    }

    uint32_t caps_, caps2_;
    std::set<Mode> card_modes_;
    Faults f_;
    std::vector<uint8_t> data_;
    Mode mode_ = Mode::legacy;
    uint64_t clock_ = 0;
    uint64_t crc_ = 0;
    double now_ = 0;
    bool changed_ = false;
    std::string start_power_;
    std::vector<std::string> log_;
    std::size_t mark_ = 0;
};

} // namespace bus_model
