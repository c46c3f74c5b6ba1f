#include "views/bus_view.h"

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

// An unknown text value is null in JSON, as the man page promises.
nlohmann::ordered_json text_or_null(const std::string& s) { return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s); }

// A mode's word; "" when unknown.
std::string mode_text(const std::optional<bus::Mode>& m) { return m ? std::string(bus::to_string(*m)) : std::string(); }

nlohmann::ordered_json device_tree_json(const bus::DeviceTree& dt)
{
    nlohmann::ordered_json j;
    j["node"] = text_or_null(dt.node);
    j["source"] = text_or_null(dt.source);
    j["compatible"] = dt.compatible;
    j["max_frequency_hz"] = opt(dt.max_frequency);
    j["max_sd_hs_hz"] = opt(dt.max_sd_hs_hz);
    j["bus_width"] = opt(dt.bus_width);
    j["flags"] = dt.flags;
    j["vqmmc_supply"] = dt.has_vqmmc_supply;
    if (dt.vqmmc)
        j["vqmmc_regulator"] = {{"node", dt.vqmmc->node},
                                {"name", text_or_null(dt.vqmmc->name)},
                                {"min_microvolt", opt(dt.vqmmc->min_microvolt)},
                                {"max_microvolt", opt(dt.vqmmc->max_microvolt)}};
    else
        j["vqmmc_regulator"] = nullptr;
    j["status"] = text_or_null(dt.status);
    j["notes"] = dt.notes;
    return j;
}

} // namespace

std::string_view card_type_name(const bus::Diagnosis& d)
{
    if (d.sdio) return "SDIO";
    if (!d.card) return "unknown";
    return *d.card == regs::CardFamily::mmc ? "MMC" : "SD";
}

std::string bus_text(const BusReport& r, bool verbose)
{
    const auto& d = r.diagnosis;
    const auto& i = d.ios;
    std::string out = fmt::format("{}  {} card{}\n", d.host.empty() ? "(pasted ios)" : d.host, card_type_name(d),
                                  r.controller.empty() ? "" : ", " + r.controller);
    std::string running = mode_text(d.mode);
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
    out += fmt::format("  {:<12} card {}, host {}\n", "Best modes:", or_unknown(mode_text(d.card_best_mode)),
                       or_unknown(mode_text(d.host_best_mode)));
    out += fmt::format("  {:<12} {}{}\n", "Cause:", bus::to_string(d.limit),
                       d.mechanism == bus::Mechanism::none ? "" : fmt::format(" (through the {})", bus::to_string(d.mechanism)));
    // For an unknown cause the evidence decided nothing: it is what was weighed.
    for (const auto& e : d.decided_by) out += fmt::format("  {:<12} {}\n", d.limit == bus::Limit::unknown ? "Evidence:" : "Decided by:", e);
    if (!d.would_decide.empty()) out += fmt::format("  {:<12} {}\n", "Would tell:", d.would_decide);
    for (const auto& f : d.findings)
        if (verbose || f.severity != bus::Severity::info)
            out += fmt::format("  {:<12} {}\n", f.severity == bus::Severity::limit ? "Because:" : "Note:", f.text);
    for (const auto& s : d.suggestions) out += fmt::format("  {:<12} {}\n", "Try:", s);
    // Always shown: a log the user gave and the doctor did not read must not pass silently.
    if (!r.log_note.empty()) out += fmt::format("  {:<12} {}\n", "Kernel log:", r.log_note);
    if (r.measured_mb_s) {
        const std::string share =
            d.ceiling_mb_s && *d.ceiling_mb_s > 0 ? fmt::format(" ({:.0f}% of the ceiling)", 100.0 * *r.measured_mb_s / *d.ceiling_mb_s) : "";
        out += fmt::format("  {:<12} {:.4g} MB/s sequential read{}\n", "Measured:", *r.measured_mb_s, share);
    } else if (!r.measure_error.empty()) {
        out += fmt::format("  {:<12} no figure: {}\n", "Measured:", r.measure_error);
    }
    if (verbose) {
        if (!r.kernel_message.empty()) out += fmt::format("  {:<12} {}\n", "Kernel:", r.kernel_message);
        if (r.device_tree) {
            const auto& dt = *r.device_tree;
            std::string facts = dt.node;
            if (!dt.compatible.empty()) facts += fmt::format(" ({})", dt.compatible.front());
            if (dt.max_frequency) facts += fmt::format(", max-frequency {}", regs::hertz_text(*dt.max_frequency));
            if (dt.bus_width) facts += fmt::format(", bus-width {}", *dt.bus_width);
            for (const auto& f : dt.flags) facts += ", " + f;
            if (dt.has_vqmmc_supply) facts += ", vqmmc-supply";
            out += fmt::format("  {:<12} {}\n", "Device tree:", facts);
            for (const auto& n : dt.notes) out += fmt::format("  {:<12} {}\n", "Note:", n);
        }
        for (const auto& ev : r.log_events)
            out += fmt::format("  {:<12} {} (line {}: {})\n", "Log:", bus::log_event_name(ev.kind), ev.line, ev.text);
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
    j["host"] = text_or_null(d.host);
    j["card_type"] = card_type_name(d);
    j["controller"] = text_or_null(r.controller);
    j["ios"] = {{"clock_hz", opt(i.clock_hz)},
                {"actual_clock_hz", opt(i.actual_clock_hz)},
                {"vdd", opt(i.vdd)},
                {"power", text_or_null(i.power_text)},
                {"bus_width_bits", opt(i.bus_width_bits)},
                {"timing", text_or_null(i.timing)},
                {"mode", text_or_null(mode_text(d.mode))},
                {"signal_voltage_v", opt(i.signal_voltage_v)},
                {"driver_type", text_or_null(i.driver_type)}};
    j["mode_ceiling_mb_s"] = opt(d.mode_ceiling_mb_s);
    j["clock_ceiling_mb_s"] = opt(d.clock_ceiling_mb_s);
    j["ceiling_mb_s"] = opt(d.ceiling_mb_s);
    j["card_best_mode"] = text_or_null(mode_text(d.card_best_mode));
    j["host_best_mode"] = text_or_null(mode_text(d.host_best_mode));
    j["limit"] = bus::to_string(d.limit);
    j["mechanism"] = text_or_null(std::string(bus::to_string(d.mechanism)));
    j["decided_by"] = d.decided_by;
    j["would_decide"] = text_or_null(d.would_decide);
    auto& findings = j["findings"] = nlohmann::ordered_json::array();
    for (const auto& f : d.findings) findings.push_back({{"severity", bus::to_string(f.severity)}, {"text", f.text}});
    j["suggestions"] = d.suggestions;
    j["caps"] = d.caps_names;
    j["kernel_message"] = text_or_null(r.kernel_message);
    j["device_tree"] = r.device_tree ? device_tree_json(*r.device_tree) : nlohmann::ordered_json();
    auto& log = j["kernel_log_events"] = nlohmann::ordered_json::array();
    for (const auto& ev : r.log_events) log.push_back({{"event", bus::log_event_name(ev.kind)}, {"line", ev.line}, {"text", ev.text}});
    j["kernel_log_note"] = text_or_null(r.log_note);
    j["measured_mb_s"] = opt(r.measured_mb_s);
    if (!r.measure_error.empty()) j["measure_error"] = r.measure_error;
    return j;
}

} // namespace mmc::out
