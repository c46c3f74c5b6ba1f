#include "tune/queue_discard.h"

#include "cli/size.h"
#include "erase/erase.h"

#include <fmt/format.h>
#include <stdexcept>

namespace mmc::tune {

std::string_view to_string(DiscardAdvice a)
{
    switch (a) {
    case DiscardAdvice::fstrim_timer: return "fstrim.timer";
    case DiscardAdvice::online_discard: return "discard";
    case DiscardAdvice::none: return "none";
    }
    return "?";
}

DiscardPolicy discard_policy(uint64_t bytes, double seconds, uint64_t device_bytes)
{
    DiscardPolicy p;
    p.measured_bytes = bytes;
    p.measured_s = seconds;
    if (bytes == 0) throw std::invalid_argument("nothing was discarded to time");
    const double gib = static_cast<double>(bytes) / static_cast<double>(uint64_t{1} << 30);
    const double per_gib = seconds / gib;
    p.seconds_per_gib = per_gib;
    const double whole = per_gib * static_cast<double>(device_bytes) / static_cast<double>(uint64_t{1} << 30);
    const std::string whole_text =
        fmt::format("a discard of the whole device ({}) would take about {:.1f} s{}", cli::format_bytes(device_bytes), whole,
                    whole > imager_discard_timeout_s
                        ? fmt::format(", beyond the {:.0f} s rpi-imager waits for one", imager_discard_timeout_s)
                        : "");
    if (per_gib <= online_discard_max_s_per_gib) {
        p.advice = DiscardAdvice::online_discard;
        p.reason = fmt::format("it discards {:.2f} s per GiB, at most {} s: deleting a 1 GiB file under online discard holds "
                               "writes for no more than that; {}",
                               per_gib, online_discard_max_s_per_gib, whole_text);
    } else {
        p.advice = DiscardAdvice::fstrim_timer;
        p.reason = fmt::format("it discards {:.2f} s per GiB, over {} s: under online discard deleting a 1 GiB file would hold "
                               "writes that long; a weekly fstrim.timer pays it at a quiet time; {}",
                               per_gib, online_discard_max_s_per_gib, whole_text);
    }
    return p;
}

DiscardPolicy no_discard_policy()
{
    DiscardPolicy p;
    p.advice = DiscardAdvice::none;
    p.reason = "the device takes no discard (its queue's discard_max_bytes is 0): neither online discard nor fstrim does anything";
    return p;
}

DiscardPolicy measure_discard(const std::string& device, uint64_t offset, uint64_t length, uint64_t device_bytes,
                              bool any_device, const dev::SysRoots& roots, const std::atomic<bool>& stop)
{
    erase::Options o;
    o.any_device = any_device;
    o.roots = roots;
    const auto prepared = erase::prepare(device, erase::Range{offset, length}, erase::Method::discard, o);
    const auto report = erase::execute(prepared, {}, stop);
    if (report.interrupted) throw std::runtime_error("the discard was stopped");
    if (!report.error.empty()) throw std::runtime_error(fmt::format("the discard failed: {}", report.error));
    return discard_policy(report.erased.length, report.seconds, device_bytes);
}

} // namespace mmc::tune
