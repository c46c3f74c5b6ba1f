#include "bench/verdicts.h"

#include <fmt/format.h>

namespace mmc::bench {

const char* to_string(VerdictResult r)
{
    switch (r) {
    case VerdictResult::pass: return "pass";
    case VerdictResult::fail: return "fail";
    case VerdictResult::not_applicable: return "not-applicable";
    }
    return "?";
}

const char* to_string(VerdictUnit u)
{
    switch (u) {
    case VerdictUnit::iops: return "IOPS";
    case VerdictUnit::mb_s: return "MB/s";
    }
    return "?";
}

namespace {

std::string number(double v, VerdictUnit unit)
{
    if (unit == VerdictUnit::iops) return fmt::format("{:.0f} {}", v, to_string(unit));
    return fmt::format("{:.{}f} {}", v, v < 10 ? 2 : 1, to_string(unit));
}

// A figure just below the requirement must not print as equal to it
// ("measured 10.00 MB/s is below the required 10.0 MB/s"): then it gets
// the decimals that show the shortfall.
std::string below(double got, double required, VerdictUnit unit)
{
    std::string text = number(got, unit);
    for (int decimals = 2; text == number(required, unit) || std::stod(text) >= required; ++decimals) {
        text = fmt::format("{:.{}f} {}", got, decimals, to_string(unit));
        if (decimals == 6) break;
    }
    return text;
}

std::string ceiling_text(const BusCeiling& bus)
{
    return fmt::format("{} bus ceiling {:.0f} MB/s", bus.mode.empty() ? "the" : "the " + bus.mode, *bus.ceiling_mb_s);
}

// QEMU's PCI vendor (Red Hat, 1b36) or its name: an emulated controller.
bool emulated(const std::string& controller)
{
    return controller.find("1b36:") != std::string::npos || controller.find("QEMU") != std::string::npos ||
           controller.find("qemu") != std::string::npos;
}

Verdict judge(const std::string& claim, double required, const Measured& m, VerdictUnit unit,
              double mb_per_unit, const BusCeiling& bus)
{
    Verdict v;
    v.claim = claim;
    v.required = required;
    v.measured = m.value;
    v.unit = unit;
    v.bus_ceiling_mb_s = bus.ceiling_mb_s;
    if (!m.value) {
        v.result = VerdictResult::not_applicable;
        v.why = m.missing_why.empty() ? "not measured" : m.missing_why;
        return v;
    }
    const double got = *m.value;
    if (above_ceiling(got * mb_per_unit, bus)) {
        v.result = VerdictResult::not_applicable;
        v.why = fmt::format("measured {}: {}; no verdict", number(got, unit), above_ceiling_why(got * mb_per_unit, bus));
        return v;
    }
    if (got >= required) {
        v.result = VerdictResult::pass;
        v.why = fmt::format("measured {} meets the required {}", number(got, unit), number(required, unit));
        return v;
    }
    if (bus.ceiling_mb_s) {
        const double need_mb_s = required * mb_per_unit, got_mb_s = got * mb_per_unit;
        if (need_mb_s > *bus.ceiling_mb_s) {
            v.result = VerdictResult::not_applicable;
            v.why = fmt::format("bus-limited: {} needs {:.1f} MB/s, above {}; the card cannot show it on this bus "
                                "(measured {})",
                                claim, need_mb_s, ceiling_text(bus), number(got, unit));
            return v;
        }
        if (got_mb_s >= bus_limited_share * *bus.ceiling_mb_s) {
            v.result = VerdictResult::not_applicable;
            v.why = fmt::format("bus-limited: measured {} is {:.0f}% of {}; the bus, not the card, is the limit",
                                number(got, unit), got_mb_s / *bus.ceiling_mb_s * 100, ceiling_text(bus));
            return v;
        }
    }
    v.result = VerdictResult::fail;
    v.why = fmt::format("measured {} is below the required {}", below(got, required, unit), number(required, unit));
    if (bus.ceiling_mb_s)
        v.why += fmt::format(" ({} is not the limit)", ceiling_text(bus));
    return v;
}

} // namespace

bool above_ceiling(double mb_s, const BusCeiling& bus) { return bus.ceiling_mb_s && mb_s > *bus.ceiling_mb_s; }

std::string above_ceiling_why(double mb_s, const BusCeiling& bus)
{
    const std::string clock = bus.clock_hz ? fmt::format(" at {:g} MHz", static_cast<double>(*bus.clock_hz) / 1e6) : "";
    std::string s = fmt::format("{:.2f} MB/s is {:.0f}% of {} ({:.0f} MB/s{}), more than the bus can carry, so the figure is "
                                "not the card's: ",
                                mb_s, mb_s / *bus.ceiling_mb_s * 100, bus.mode.empty() ? "the bus ceiling" : "the " + bus.mode + " bus ceiling",
                                *bus.ceiling_mb_s, clock);
    if (emulated(bus.controller))
        return s + fmt::format("the controller is emulated ({}), and an emulator moves the data at the host's speed whatever "
                               "clock it reports",
                               bus.controller);
    return s + "likely the reported clock is not the one the data moves at (a driver that misreports it), or the "
               "measurement is wrong (a cache between the benchmark and the card)";
}

std::vector<std::pair<std::string, double>> CardClaims::speed_claims() const
{
    std::vector<std::pair<std::string, double>> out;
    if (speed_class_mb_s) out.emplace_back(fmt::format("speed class C{}", *speed_class_mb_s), *speed_class_mb_s);
    if (uhs_grade) out.emplace_back(fmt::format("UHS speed grade U{}", *uhs_grade), *uhs_grade * 10.0);
    if (video_class) out.emplace_back(fmt::format("video speed class V{}", *video_class), *video_class);
    return out;
}

std::string CardClaims::app_class_text() const
{
    if (!known) return "unknown (SD status not read)";
    if (!app_perf_class) return "no A1/A2 claim";
    return fmt::format("A{}", *app_perf_class);
}

Verdict judge_mb_s(const std::string& claim, double required_mb_s, const Measured& measured, const BusCeiling& bus)
{
    return judge(claim, required_mb_s, measured, VerdictUnit::mb_s, 1.0, bus);
}

Verdict judge_iops(const std::string& claim, double required_iops, uint32_t block_size, const Measured& measured,
                   const BusCeiling& bus)
{
    return judge(claim, required_iops, measured, VerdictUnit::iops, block_size / 1e6, bus);
}

Verdict not_applicable(const std::string& claim, std::optional<double> required, VerdictUnit unit,
                       const Measured& measured, const std::string& why)
{
    Verdict v;
    v.claim = claim;
    v.required = required;
    v.measured = measured.value;
    v.unit = unit;
    v.result = VerdictResult::not_applicable;
    v.why = why;
    return v;
}

std::optional<std::string> a2_blocker(const HostQueueing& host)
{
    std::vector<std::string> off, unknown;
    const auto sort = [&](std::optional<bool> on, const char* what, const std::string& evidence) {
        if (on == true) return;
        (on ? off : unknown).push_back(fmt::format("{} ({})", what, evidence));
    };
    sort(host.cq_enabled, "command queueing", host.cq_evidence);
    sort(host.cache_enabled, "the card's cache", host.cache_evidence);
    if (off.empty() && unknown.empty()) return std::nullopt;
    std::string why;
    if (!off.empty()) {
        why = "the host runs the card without " + off[0];
        if (off.size() > 1) why += " and without " + off[1];
        why += ": an A2 card cannot show A2 speed here";
    }
    if (!unknown.empty()) {
        if (!why.empty()) why += "; ";
        why += "cannot tell whether the host enables " + unknown[0];
        if (unknown.size() > 1) why += " and " + unknown[1];
        if (off.empty()) why += ", which A2 speed needs";
    }
    return why;
}

} // namespace mmc::bench
