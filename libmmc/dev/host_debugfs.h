// One MMC host's bus settings through debugfs, and its card's runtime PM
// through sysfs: what mmc-tune bus reads, writes and puts back. debugfs
// mmcN/caps and caps2 (writable from Linux 6.4 for the mode bits), clock,
// ios, err_stats (5.19+); sysfs mmcN:RCA/power/control,
// autosuspend_delay_ms and runtime_status. Every path is under the roots
// given, so a fixture tree with plain files stands in for the kernel (the
// writes land in those files). The card's data is read (and, for a scratch
// region, written) through the block device the caller names.
#pragma once

#include "bus/ios.h"
#include "dev/card.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace mmc::dev {

class DebugfsHost {
public:
    // `card_data`: the block device (or, in a fixture tree, a file) the
    // card's data is read from.
    DebugfsHost(const Card& card, const SysRoots& roots, fs::path card_data);

    const std::string& host() const { return host_; }
    fs::path dir() const { return dir_; }

    // Why the caps cannot be written, "" when they can: a missing file, or
    // one without its owner's write bit (before 6.4 the kernel makes it
    // 0400, and root could open it but not write it).
    std::string caps_not_writable() const;

    // Each throws std::runtime_error naming the file and the reason.
    uint32_t caps() const;
    uint32_t caps2() const;
    uint64_t clock() const;
    bus::Ios ios() const;
    std::string err_stats() const;            // "" when there is none (before 5.19)
    std::string power_control() const;        // "on" or "auto"
    std::optional<long> autosuspend_delay_ms() const;
    std::string runtime_status() const;       // "active", "suspended", ...

    void set_caps(uint32_t caps) const;
    void set_caps2(uint32_t caps2) const;
    void set_clock(uint64_t hz) const;
    void set_power_control(const std::string& value) const;
    void set_autosuspend_delay_ms(long ms) const;

    // The kernel's re-initialisation: autosuspend_delay_ms 0 and
    // power/control "auto", wait (polling) until runtime_status says
    // "suspended", then power/control "on", whose write returns once the card
    // is resumed and re-initialised with the current caps. The caller sets
    // AGGRESSIVE_PM first and puts the power settings back after. Throws
    // when the card does not suspend within `timeout_s`, or when `stop` is
    // set while waiting.
    void power_cycle(double timeout_s, const std::atomic<bool>* stop) const;

    uint64_t card_bytes() const;
    void read(uint64_t offset, std::span<uint8_t> into) const;
    void write(uint64_t offset, std::span<const uint8_t> from) const;

private:
    std::string host_;
    fs::path dir_;       // <debugfs>/mmcN
    fs::path power_;     // <card's sysfs dir>/power
    fs::path card_data_;
    uint64_t capacity_ = 0;
};

} // namespace mmc::dev
