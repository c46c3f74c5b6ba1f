// mmc-tune queue's discard policy: whether a filesystem on this device
// should discard freed blocks as it frees them (the `discard` mount option)
// or in a weekly batch (fstrim.timer), from how long this device takes to
// discard: under online discard a deletion's discards are issued as the
// journal commits, and a device slow to discard holds the writes behind
// them. The time is measured by discarding a scratch region with
// mmc-erase's timed discard (erase/erase.h), only when the caller allows
// the region's data to go.
#pragma once

#include "dev/sysfs.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mmc::tune {

enum class DiscardAdvice { fstrim_timer, online_discard, none };
std::string_view to_string(DiscardAdvice a); // "fstrim.timer", "discard", "none": the JSON's "advice"

// Online discard is advised only below this: deleting a 1 GiB file then
// holds writes for at most half a second.
inline constexpr double online_discard_max_s_per_gib = 0.5;
// rpi-imager's own discard of a whole card gives up after this (issue 1445).
inline constexpr double imager_discard_timeout_s = 30;

struct DiscardPolicy {
    std::optional<double> seconds_per_gib; // nothing: not measured, or the device takes no discard
    uint64_t measured_bytes = 0;
    double measured_s = 0;
    DiscardAdvice advice = DiscardAdvice::fstrim_timer;
    std::string reason;
};

// From a measured discard of `bytes` in `seconds` on a device of
// `device_bytes`. Pure.
DiscardPolicy discard_policy(uint64_t bytes, double seconds, uint64_t device_bytes);
// A device whose queue takes no discard (discard_max_bytes 0).
DiscardPolicy no_discard_policy();

// Discards [offset, offset + length) of `device` with mmc-erase's engine
// (BLKDISCARD, whole erase units, timed) and draws the policy. Throws what
// erase::prepare throws (not a card without any_device, in use, a range
// holding no whole erase unit) and std::runtime_error when the discard
// fails or is stopped.
DiscardPolicy measure_discard(const std::string& device, uint64_t offset, uint64_t length, uint64_t device_bytes,
                              bool any_device, const dev::SysRoots& roots, const std::atomic<bool>& stop);

} // namespace mmc::tune
