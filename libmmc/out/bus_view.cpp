#include "out/bus_view.h"

#include "regs/units.h"

#include <fmt/format.h>

namespace mmc::out {

namespace {

template <typename T>
nlohmann::ordered_json opt(const std::optional<T>& v)
{
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
}

std::string mb(const std::optional<double>& v) { return v ? fmt::format("{:.4g} MB/s", *v) : "unknown"; }

std::string or_unknown(const std::string& s) { return s.empty() ? "unknown" : s; }

} // namespace

std::string_view card_kind_name(bus::CardKind kind)
{
    switch (kind) {
    case bus::CardKind::sd: return "SD";
    case bus::CardKind::mmc: return "MMC";
    case bus::CardKind::sdio: return "SDIO";
    case bus::CardKind::unknown: break;
    }
    return "unknown";
}

std::string bus_text(const BusReport& r, bool verbose)
{
    const auto& d = r.diagnosis;
    const auto& i = d.ios;
    std::string out = fmt::format("{}  {} card{}\n", d.host.empty() ? "(pasted ios)" : d.host, card_kind_name(d.card),
                                  r.controller.empty() ? "" : ", " + r.controller);
    std::string running = d.mode;
    if (!i.timing.empty()) running += fmt::format(" ({})", i.timing);
    if (i.bus_width_bits) running += fmt::format(", {} bits", *i.bus_width_bits);
    if (i.actual_clock_hz)
        running += fmt::format(", {} actual ({} asked)", regs::hertz_text(static_cast<double>(*i.actual_clock_hz)),
                               i.clock_hz ? regs::hertz_text(static_cast<double>(*i.clock_hz)) : "?");
    else if (i.clock_hz)
        running += fmt::format(", {}", regs::hertz_text(static_cast<double>(*i.clock_hz)));
    if (i.signal_voltage_v) running += fmt::format(", {:.2f} V signalling", *i.signal_voltage_v);
    out += fmt::format("  {:<12} {}\n", "Running:", running);
    out += fmt::format("  {:<12} {} (mode {}, clock {})\n", "Ceiling:", mb(d.ceiling_mb_s), mb(d.mode_ceiling_mb_s),
                       mb(d.clock_ceiling_mb_s));
    out += fmt::format("  {:<12} card {}, host {}\n", "Best modes:", or_unknown(d.card_best_mode), or_unknown(d.host_best_mode));
    out += fmt::format("  {:<12} {}\n", "Limit:", d.limit);
    for (const auto& f : d.findings)
        if (verbose || f.severity != "info") out += fmt::format("  {:<12} {}\n", f.severity == "limit" ? "Because:" : "Note:", f.text);
    for (const auto& s : d.suggestions) out += fmt::format("  {:<12} {}\n", "Try:", s);
    if (r.measured_mb_s) {
        const std::string share =
            d.ceiling_mb_s && *d.ceiling_mb_s > 0 ? fmt::format(" ({:.0f}% of the ceiling)", 100.0 * *r.measured_mb_s / *d.ceiling_mb_s) : "";
        out += fmt::format("  {:<12} {:.4g} MB/s sequential read{}\n", "Measured:", *r.measured_mb_s, share);
    } else if (!r.measure_error.empty()) {
        out += fmt::format("  {:<12} no figure: {}\n", "Measured:", r.measure_error);
    }
    if (verbose) {
        if (!r.kernel_message.empty()) out += fmt::format("  {:<12} {}\n", "Kernel:", r.kernel_message);
        if (!d.caps_names.empty()) {
            std::string caps;
            for (const auto& c : d.caps_names) caps += (caps.empty() ? "" : " ") + c;
            out += fmt::format("  {:<12} {}\n", "Host caps:", caps);
        }
    }
    return out;
}

nlohmann::ordered_json bus_json(const BusReport& r)
{
    const auto& d = r.diagnosis;
    const auto& i = d.ios;
    nlohmann::ordered_json j;
    j["host"] = d.host;
    j["card_type"] = card_kind_name(d.card);
    j["controller"] = r.controller;
    j["ios"] = {{"clock_hz", opt(i.clock_hz)},
                {"actual_clock_hz", opt(i.actual_clock_hz)},
                {"vdd", opt(i.vdd)},
                {"power", i.power_text},
                {"bus_width_bits", opt(i.bus_width_bits)},
                {"timing", i.timing},
                {"mode", d.mode},
                {"signal_voltage_v", opt(i.signal_voltage_v)},
                {"driver_type", i.driver_type}};
    j["mode_ceiling_mb_s"] = opt(d.mode_ceiling_mb_s);
    j["clock_ceiling_mb_s"] = opt(d.clock_ceiling_mb_s);
    j["ceiling_mb_s"] = opt(d.ceiling_mb_s);
    j["card_best_mode"] = d.card_best_mode;
    j["host_best_mode"] = d.host_best_mode;
    j["limit"] = d.limit;
    auto& findings = j["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : d.findings) findings.push_back({{"severity", f.severity}, {"text", f.text}});
    j["suggestions"] = d.suggestions;
    j["caps"] = d.caps_names;
    j["kernel_message"] = r.kernel_message;
    j["measured_mb_s"] = opt(r.measured_mb_s);
    if (!r.measure_error.empty()) j["measure_error"] = r.measure_error;
    return j;
}

} // namespace mmc::out
