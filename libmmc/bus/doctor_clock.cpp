// The clock and the width: what the bus delivers below the mode's rating,
// and who holds it there.
#include "bus/doctor_parts.h"

#include <fmt/format.h>

namespace mmc::bus::doctor_parts {

// The clock the bus really runs: the actual clock where the driver reports a
// plausible one. Dividers give 1/2 or 5/6 of a request, never 1/16 or twice.
std::optional<double> bus_clock(const Ios& ios, std::vector<Finding>& findings)
{
    const auto requested = ios.clock_hz;
    const auto actual = ios.actual_clock_hz;
    if (actual && requested && *requested > 0 && (*actual * 16 < *requested || *actual > *requested * 2)) {
        findings.push_back({Severity::warning, fmt::format("actual clock {} is impossible for a {} request (a driver reporting bug); "
                                                   "the requested clock is used",
                                                   hz_text(static_cast<double>(*actual)), hz_text(static_cast<double>(*requested)))});
        return static_cast<double>(*requested);
    }
    if (actual && *actual > 0) return static_cast<double>(*actual);
    if (requested && *requested > 0) {
        findings.push_back({Severity::info, "the driver reports no actual clock; the requested clock is used"});
        return static_cast<double>(*requested);
    }
    if (requested)
        findings.push_back({Severity::warning, "clock 0 Hz with the card powered: the clock is gated between requests; "
                                       "read ios while the card is busy, e.g. during dd"});
    return std::nullopt;
}

// The first log event of these kinds, if the log was read and has one.
const LogEvent* first_event(const Evidence& e, std::initializer_list<LogEventKind> kinds)
{
    if (!e.log) return nullptr;
    for (const auto& ev : e.log->events)
        for (auto k : kinds)
            if (ev.kind == k) return &ev;
    return nullptr;
}

std::string log_line(const LogEvent& ev) { return fmt::format("kernel log line {}: {}", ev.line, ev.text); }

// A clock property raised to `hz`; max-sd-hs-hz at 50 MHz is its binding's
// default (mmc-controller-common.yaml), so the change deletes it.
DtChange clock_change(DtProperty property, uint64_t hz, std::string why)
{
    if (property == DtProperty::max_sd_hs_hz && hz >= 50'000'000) return {property, std::nullopt, "<50000000>", std::move(why)};
    return {property, hz, "", std::move(why)};
}

// Who set a device-tree clock cap below the mode's rate: the SoC (its .dtsi
// value, from the table), the board (a value other than the SoC's: lower
// than what the controller does, or above the .dtsi's), or unknown when the
// table does not know the controller.
void own_clock_cap(Shortfall& s, const Evidence& e, DtProperty which, uint32_t cap, const ModeSpec& spec, double hz)
{
    const std::string_view property = to_string(which);
    const DeviceTree& dt = *e.dt;
    const SocLimit* soc = soc_limit(dt);
    const std::string prop = fmt::format("{} = <{}>", property, cap);
    s.evidence.push_back(fmt::format("device tree {}: {}", dt.node.empty() ? std::string("node") : dt.node, prop));
    s.text = fmt::format("{} ({}) caps the clock at {}; {} runs up to {}", property, hz_text(cap), hz_text(hz), to_string(spec.mode),
                         hz_text(spec.clock_hz));
    if (soc && soc->clock_hz > 0 && cap < soc->clock_hz / negligible_gain) {
        s.owner = Limit::board;
        s.evidence.push_back(fmt::format("{} runs {} {} ({})", soc->controller, soc->clock_is_limit ? "up to" : "at least",
                                         hz_text(soc->clock_hz), soc->source));
        s.text += fmt::format(": the board's device tree sets it below the {} {} runs", hz_text(soc->clock_hz), soc->controller);
        s.tries.push_back(fmt::format("a device-tree overlay raising it ({} {{ {} = <{}>; }};) - the board may have lowered it for "
                                      "signal integrity: afterwards watch the kernel log for CRC errors and tuning failures, "
                                      "and go back if they appear",
                                      dt.overlay_target(), property,
                                      static_cast<uint64_t>(std::min(soc->clock_hz, spec.clock_hz))));
        s.dt_changes.push_back(clock_change(which, static_cast<uint64_t>(std::min(soc->clock_hz, spec.clock_hz)),
                                            fmt::format("{} caps the clock below the {} {} runs", prop, hz_text(soc->clock_hz),
                                                        soc->controller)));
    } else if (soc && soc->clock_hz > 0 && soc->clock_is_limit && cap > soc->clock_hz * negligible_gain) {
        // A board's .dts may raise the SoC's max-frequency as well as lower
        // it (the board file's property overrides the .dtsi's, dtc's merge):
        // a live value that differs from the SoC's is the board's setting.
        s.owner = Limit::board;
        s.evidence.push_back(fmt::format("{} is given {} by its SoC's .dtsi ({})", soc->controller, hz_text(soc->clock_hz), soc->source));
        s.text += fmt::format(": the board's device tree sets it, above the {} of the SoC's .dtsi", hz_text(soc->clock_hz));
        s.tries.push_back(fmt::format("the board raised max-frequency already; a higher value ({} {{ {} = <{}>; }};) is beyond "
                                      "what the SoC's .dtsi gives this controller: only with the kernel log watched for CRC "
                                      "errors and tuning failures",
                                      dt.overlay_target(), property, static_cast<uint64_t>(spec.clock_hz)));
    } else if (soc && soc->clock_hz > 0 && soc->clock_is_limit) {
        s.owner = Limit::host;
        s.evidence.push_back(fmt::format("{} is limited to {} by its SoC ({})", soc->controller, hz_text(soc->clock_hz), soc->source));
        s.text += fmt::format(": the SoC's own limit for {}", soc->controller);
        s.tries.push_back("the SoC limits this controller: no card or board setting raises it; a reader on another bus (a USB 3 "
                          "UHS-I reader) can");
    } else {
        s.owner = Limit::unknown;
        s.would_decide = fmt::format("the max-frequency the SoC's .dtsi gives this controller ({}): the same value means the SoC "
                                     "limits it, a higher one means the board lowered it (a row in libmmc/bus/soc_limits.cpp "
                                     "records it)",
                                     dt.compatible.empty() ? std::string("compatible unknown") : dt.compatible.front());
        s.tries.push_back("find out whether the SoC or the board set it: " + s.would_decide);
    }
}

// Width and clock below what the mode is rated for.
void delivery_shortfalls(const Evidence& e, const ModeSpec& spec, double hz, const std::vector<std::string>& caps,
                         std::vector<Shortfall>& out, std::vector<Finding>& notes)
{
    const auto& ios = e.ios;
    const auto& dt = e.dt;
    if (ios.bus_width_bits && *ios.bus_width_bits < spec.width_bits) {
        const int width = *ios.bus_width_bits;
        const std::string need = spec.width_bits == 8 ? "8_BIT_DATA" : "4_BIT_DATA";
        Shortfall s{Limit::unknown, static_cast<double>(spec.width_bits) / width,
                    fmt::format("the bus runs {} bit{} wide; {} is rated for {}", width, width == 1 ? "" : "s", to_string(spec.mode),
                                spec.width_bits),
                    {}, Mechanism::bus_width, {}, {}, false, {}};
        const SocLimit* soc = dt ? soc_limit(*dt) : nullptr;
        if (soc && soc->max_bus_width && soc->max_bus_width <= width) {
            s.owner = Limit::host;
            s.text += fmt::format(" ({} has {} data lines)", soc->controller, soc->max_bus_width);
            s.evidence.push_back(fmt::format("{}: {} data lines ({})", soc->controller, soc->max_bus_width, soc->source));
        } else if (dt && dt->bus_width && static_cast<int>(*dt->bus_width) < spec.width_bits) {
            s.owner = Limit::board;
            s.text += fmt::format(" (device tree bus-width = <{}>)", *dt->bus_width);
            s.evidence.push_back(fmt::format("device tree: bus-width = <{}>", *dt->bus_width));
            s.tries.push_back(fmt::format("set bus-width = <{}> in the device-tree node if all the data lines are wired", spec.width_bits));
        } else if (e.caps) {
            if (!contains(caps, need)) {
                s.owner = e.dt_absent || dt ? Limit::host : Limit::unknown;
                s.text += fmt::format(" (the host has no {}-bit bus: caps has no {})", spec.width_bits, need);
                s.evidence.push_back(fmt::format("caps: no {}", need));
                if (s.owner == Limit::unknown)
                    s.would_decide = "the host's device tree: a bus-width there below the mode's means the board";
                s.tries.push_back(fmt::format("a host with {} {}-bit bus would raise the ceiling {}x", spec.width_bits == 8 ? "an" : "a",
                                              spec.width_bits, spec.width_bits / width));
            } else {
                s.owner = Limit::board;
                s.text += fmt::format(" although caps has {}: the wiring or the bus test kept it narrower", need);
                s.evidence.push_back(fmt::format("caps: {}, bus width {} in ios", need, width));
            }
        } else {
            s.would_decide = "the host's caps (debugfs) or its device tree's bus-width";
        }
        out.push_back(s);
    }
    if (hz >= spec.clock_hz * divider_granularity) {
        if (hz < spec.clock_hz / negligible_gain)
            notes.push_back({Severity::info, fmt::format("clock {} for {}'s {}: full speed within the divider's granularity, not a limit",
                                                 hz_text(hz), to_string(spec.mode), hz_text(spec.clock_hz))});
        return;
    }
    Shortfall s{Limit::unknown, spec.clock_hz / hz, {}, {}, Mechanism::clock, {}, {}, false, {}};
    const double requested = ios.clock_hz ? static_cast<double>(*ios.clock_hz) : hz;
    // The cap the device tree puts on this mode's clock: max-frequency, or
    // max-sd-hs-hz for SD high speed.
    std::optional<std::pair<DtProperty, uint32_t>> cap;
    if (dt && spec.mode == Mode::hs && dt->max_sd_hs_hz) cap = {{DtProperty::max_sd_hs_hz, *dt->max_sd_hs_hz}};
    if (dt && dt->max_frequency && (!cap || *dt->max_frequency < cap->second)) cap = {{DtProperty::max_frequency, *dt->max_frequency}};
    const auto* step_down = first_event(e, {LogEventKind::step_down});
    // max-frequency is f_max, and the core asks for the mode's rate or f_max,
    // whichever is lower (mmc_set_clock clamps to f_max): it explains a
    // clock only when the request is at it, within a divider's step. A
    // request clearly below it came from somewhere else.
    const bool at_cap = cap && requested <= cap->second * negligible_gain && requested >= cap->second * divider_granularity;
    // A fast timing still at 52 MHz or less, with no "new ... card" line for
    // this host: the snapshot caught the switch before its clock was raised
    // (mmc_sd_init_uhs_card, mmc_select_hs200 set the timing first).
    const bool switch_pending = spec.clock_hz > 52e6 && requested <= 52e6 && e.kernel_message.empty();
    // Driver-specific clock properties set the bus clock itself: a board
    // that writes one chose the clock (mmc-controller-common.yaml
    // max-sd-hs-hz: the SD high-speed clock, read by mmc_sd_get_max_clock;
    // brcm,bcm2835-sdhost.txt brcm,overclock-50: the clock in MHz that
    // bcm2835_sdhost_set_clock uses for a 50 MHz request). Equal to the
    // clock that runs, it is the board's setting, not a divider's limit.
    struct DriverClock {
        std::string_view name;
        uint32_t value;
        double hz;
        std::optional<DtProperty> property; // the change the doctor names (none for brcm,overclock-50: config.txt's)
    };
    std::optional<DriverClock> driver_clock;
    if (dt && dt->max_sd_hs_hz && spec.mode == Mode::hs)
        driver_clock = DriverClock{"max-sd-hs-hz", *dt->max_sd_hs_hz, double(*dt->max_sd_hs_hz), DtProperty::max_sd_hs_hz};
    if (dt && dt->overclock_50_mhz && *dt->overclock_50_mhz > 0 && spec.clock_hz <= 52e6 && spec.clock_hz >= 50e6)
        driver_clock = DriverClock{"brcm,overclock-50", *dt->overclock_50_mhz, *dt->overclock_50_mhz * 1e6, std::nullopt};
    if (driver_clock && hz < driver_clock->hz * negligible_gain && hz > driver_clock->hz / negligible_gain) {
        s.owner = Limit::board;
        s.text = fmt::format("{} ({}) caps the clock at {}; {} runs up to {}: the board's device tree sets the clock itself", driver_clock->name,
                             hz_text(driver_clock->hz), hz_text(hz), to_string(spec.mode), hz_text(spec.clock_hz));
        s.evidence.push_back(fmt::format("device tree {}: {} = <{}>, the clock that runs", dt->node.empty() ? std::string("node") : dt->node,
                                         driver_clock->name, driver_clock->value));
        s.tries.push_back(fmt::format("a device-tree overlay changing it ({} {{ {} = <...>; }};) - the board may have chosen it "
                                      "for signal integrity: afterwards watch the kernel log for CRC errors",
                                      dt->overlay_target(), driver_clock->name));
        if (driver_clock->property)
            s.dt_changes.push_back(clock_change(*driver_clock->property, 50'000'000,
                                                fmt::format("max-sd-hs-hz = <{}> holds SD high speed below its 50 MHz", driver_clock->value)));
    } else if (cap && cap->second < spec.clock_hz * divider_granularity && at_cap) {
        own_clock_cap(s, e, cap->first, cap->second, spec, hz);
    } else if (spec.mode == Mode::mmc_hs && e.device_type && !(*e.device_type & 0x02) && requested <= 26e6) {
        s.owner = Limit::card;
        s.text = fmt::format("the card does high-speed timing only at 26 MHz (DEVICE_TYPE 0x{:02x}), so the clock is {}",
                             *e.device_type, hz_text(hz));
        s.evidence.push_back(fmt::format("EXT_CSD DEVICE_TYPE 0x{:02x}", *e.device_type));
    } else if (step_down) {
        s.owner = Limit::tuning;
        s.text = fmt::format("clock {}, below {}'s {}: the driver lowered it after errors", hz_text(hz), to_string(spec.mode), hz_text(spec.clock_hz));
        s.evidence.push_back(log_line(*step_down));
        s.tries.push_back("read the kernel log around the errors; try another card - if several cards do it, the board's signal "
                          "integrity is marginal at this clock");
    } else if (hz < requested / negligible_gain) {
        s.owner = Limit::host;
        s.text = fmt::format("clock {} actual for {} requested, below {}'s {}: the controller's divider cannot make the rate",
                             hz_text(hz), hz_text(requested), to_string(spec.mode), hz_text(spec.clock_hz));
        s.evidence.push_back(fmt::format("ios: actual clock {} for {} requested", hz_text(hz), hz_text(requested)));
        s.tries.push_back(dt ? "the clock comes from the controller's source clock and divider; a different source clock rate "
                               "(assigned-clock-rates in the device tree) may divide closer to the mode's clock"
                             : "the clock is the controller's own: neither the card nor the mode changes it; another host "
                               "controller or reader may clock closer to the mode's rate");
    } else if (cap && !at_cap && requested < cap->second) {
        // Below both the mode's rate and the device tree's cap: the host's
        // own doing - its source clock, or a mode switch not yet complete.
        s.owner = Limit::host;
        s.text = fmt::format("clock {} requested, below both {}'s {} and {} ({}): {} does not explain it; {}", hz_text(requested),
                             to_string(spec.mode), hz_text(spec.clock_hz), to_string(cap->first), hz_text(cap->second), to_string(cap->first),
                             switch_pending ? fmt::format("the switch to {} had not completed (the clock is still at most 52 MHz and "
                                                          "the log has no \"new ... card\" line for this host), or the controller's "
                                                          "source clock holds it there",
                                                          to_string(spec.mode))
                                            : std::string("the controller's source clock and divider make it"));
        s.evidence.push_back(fmt::format("ios: clock {} requested", hz_text(requested)));
        s.evidence.push_back(fmt::format("device tree: {} = <{}>, above the clock asked for", to_string(cap->first), cap->second));
        s.tries.push_back(switch_pending ? "read ios again while the card is busy (dd), and the kernel log for this host's \"new ... card\" line"
                                         : "the clock comes from the controller's source clock (assigned-clock-rates in the device tree, "
                                           "or the clock driver): a faster source lets the divider reach the mode's rate");
    } else if (dt || e.dt_absent) {
        s.owner = Limit::host;
        s.text = fmt::format("clock {}, below {}'s {}: the controller's maximum clock (f_max){}", hz_text(hz), to_string(spec.mode),
                             hz_text(spec.clock_hz), dt ? ", with no max-frequency as low in its device tree" : "");
        if (switch_pending)
            s.text += fmt::format(", or a switch to {} not yet complete (no \"new ... card\" line for this host)", to_string(spec.mode));
        s.evidence.push_back(fmt::format("ios: clock {} requested", hz_text(requested)));
        s.evidence.push_back(dt ? fmt::format("device tree: no max-frequency at or below {}", hz_text(requested))
                                : "no device-tree node (PCI or ACPI host)");
        s.tries.push_back("the controller's clock limits it: another host controller or reader may clock closer to the mode's rate");
    } else {
        s.text = fmt::format("clock {}, below {}'s {} (the host's maximum clock f_max, which a device-tree max-frequency also sets)",
                             hz_text(hz), to_string(spec.mode), hz_text(spec.clock_hz));
        s.would_decide = "the host's device tree (from a file, or read live): a max-frequency there is the board's or the SoC's setting; "
                         "none means the controller's own maximum";
        s.tries.push_back("give the host's device tree to tell whether the controller or a device-tree setting caps "
                          "the clock");
    }
    out.push_back(s);
}

} // namespace mmc::bus::doctor_parts
