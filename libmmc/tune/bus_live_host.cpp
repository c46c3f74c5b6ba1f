#include "tune/bus_live_host.h"

#include "bus/kernel_log.h"
#include "dev/system.h"
#include "dev/uevent_card.h"

#include <chrono>

namespace mmc::tune {

template <class F> auto LiveBusHost::guarded(F&& f) -> decltype(f())
{
    try {
        return f();
    } catch (const HostError&) {
        throw;
    } catch (const std::exception& e) {
        throw HostError(e.what());
    }
}

HostSnapshot LiveBusHost::snapshot()
{
    return guarded([&] {
        HostSnapshot s;
        s.host = h_.host();
        s.caps = h_.caps();
        s.caps2 = h_.caps2();
        const bus::Ios ios = h_.ios();
        s.clock_hz = ios.clock_hz.value_or(0);
        s.mode = bus::mode_name(ios);
        s.power_control = h_.power_control();
        s.autosuspend_delay_ms = h_.autosuspend_delay_ms();
        return s;
    });
}

void LiveBusHost::set_caps(uint32_t v) { guarded([&] { h_.set_caps(v); }); }
void LiveBusHost::set_caps2(uint32_t v) { guarded([&] { h_.set_caps2(v); }); }
void LiveBusHost::set_clock(uint64_t hz) { guarded([&] { h_.set_clock(hz); }); }
void LiveBusHost::reinit(double timeout_s, bool may_stop) { guarded([&] { h_.power_cycle(timeout_s, may_stop ? stop_ : nullptr); }); }

void LiveBusHost::put_back_power(const HostSnapshot& start)
{
    guarded([&] {
        if (start.autosuspend_delay_ms) h_.set_autosuspend_delay_ms(*start.autosuspend_delay_ms);
        h_.set_power_control(start.power_control);
    });
}

bus::Ios LiveBusHost::ios() { return guarded([&] { return h_.ios(); }); }
ErrorCounts LiveBusHost::err_stats() { return dev::parse_err_stats(h_.err_stats()); }

namespace {

std::string last_line(const std::string& text)
{
    auto end = text.find_last_not_of('\n');
    if (end == std::string::npos) return {};
    const auto start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1) + 1);
}

} // namespace

void LiveBusHost::mark_log()
{
    mark_line_.clear();
    if (live_log_) mark_line_ = last_line(dev::read_kernel_log().value_or(""));
}

std::string LiveBusHost::log_since_mark()
{
    if (!live_log_) return {};
    const std::string text = dev::read_kernel_log().value_or("");
    if (mark_line_.empty()) return text;
    const auto at = text.rfind(mark_line_);
    if (at == std::string::npos) return text;
    // The line tying mmcblkN to this host was printed when the card was
    // added, before the mark: without it the disk's own error lines
    // ("mmcblk0: error -84 transferring data") would count for no host.
    return bus::disk_host_lines(std::string_view(text).substr(0, at)) + text.substr(at + mark_line_.size());
}

uint64_t LiveBusHost::card_bytes() { return guarded([&] { return h_.card_bytes(); }); }
void LiveBusHost::read(uint64_t offset, std::span<uint8_t> into) { guarded([&] { h_.read(offset, into); }); }
void LiveBusHost::write(uint64_t offset, std::span<const uint8_t> from) { guarded([&] { h_.write(offset, from); }); }

double LiveBusHost::now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace mmc::tune
