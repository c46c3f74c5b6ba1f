#include "tune/bus_view.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

using json = nlohmann::ordered_json;

std::string hz(uint64_t v) { return cli::format_hz(static_cast<double>(v)); }
std::string hex(uint32_t v) { return fmt::format("0x{:08x}", v); }

std::string step_label(bus::Mode m, std::optional<uint64_t> clock)
{
    return clock ? fmt::format("{} at {}", bus::to_string(m), hz(*clock)) : std::string(bus::to_string(m));
}

json errors_json(const ErrorCounts& e)
{
    json j = json::object();
    for (const auto& [name, n] : e) {
        std::string key = name;
        for (auto& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        j[key] = n;
    }
    return j;
}

} // namespace

json bus_report_json(const BusReport& r)
{
    const auto& p = r.plan;
    json j;
    j["device"] = r.device.empty() ? json() : json(r.device);
    j["host"] = p.host;
    j["kernel"] = p.kernel;
    j["live_trials"] = p.live_trials;
    if (!p.live_trials) j["live_trials_reason"] = p.live_trials_reason;
    json start;
    start["mode"] = p.start_mode ? json(bus::to_string(*p.start_mode)) : json();
    start["clock_hz"] = p.start_clock_hz ? json(*p.start_clock_hz) : json();
    start["caps"] = p.start_caps ? json(hex(p.start_caps->caps)) : json();
    start["caps2"] = p.start_caps ? json(hex(p.start_caps->caps2)) : json();
    j["start"] = start;
    j["signal_errors"] = p.signal_errors;
    auto& plan = j["plan"] = json::array();
    for (const auto& s : p.steps) {
        json e;
        e["mode"] = bus::to_string(s.mode);
        e["clock_hz"] = s.clock_hz ? json(*s.clock_hz) : json();
        e["in_use"] = s.in_use;
        e["limited_by"] = s.limited_by;
        e["trial"] = s.trial;
        e["trialled"] = s.trialled && p.live_trials;
        e["caps"] = s.caps ? json(hex(s.caps->caps)) : json();
        e["caps2"] = s.caps ? json(hex(s.caps->caps2)) : json();
        plan.push_back(e);
    }
    auto& ruled = j["ruled_out"] = json::array();
    for (const auto& r : p.ruled_out) {
        json by = json::array();
        for (const auto b : r.by) by.push_back(bus::to_string(b));
        ruled.push_back(json{{"mode", bus::to_string(r.mode)}, {"by", by}, {"reason", r.reason}});
    }
    j["notes"] = p.notes;
    auto& trials = j["trials"] = json::array();
    j["chosen"] = json();
    j["before_mb_s"] = json();
    j["restored"] = json();
    if (r.run) {
        const auto& run = *r.run;
        for (const auto& t : run.trials) {
            json e;
            e["mode"] = bus::to_string(t.mode);
            e["clock_hz"] = t.clock_hz;
            e["clock_asked_hz"] = t.clock_asked ? json(*t.clock_asked) : json();
            e["ios_confirmed"] = t.ios_confirmed;
            e["ios_mode"] = t.ios_mode;
            e["errors"] = errors_json(t.errors);
            e["log_lines"] = t.log_lines;
            e["data_ok"] = t.data_ok;
            e["mb_s"] = t.mb_s ? json(*t.mb_s) : json();
            e["verdict"] = t.clean ? "clean" : "rejected";
            if (!t.clean) e["reason"] = t.reason;
            e["seconds"] = t.seconds;
            trials.push_back(e);
        }
        if (run.chosen) {
            const auto& c = run.trials[*run.chosen];
            j["chosen"] = json{{"mode", bus::to_string(c.mode)}, {"clock_hz", c.clock_hz}, {"mb_s", c.mb_s ? json(*c.mb_s) : json()}};
        }
        j["before_mb_s"] = run.before_mb_s ? json(*run.before_mb_s) : json();
        if (run.restored) {
            const auto& x = *run.restored;
            j["restored"] = json{{"done", x.done}, {"kept", x.kept}, {"ios_mode", x.ios_mode}, {"ios_clock_hz", x.ios_clock_hz},
                                 {"errors", x.errors}};
        }
        j["interrupted"] = run.interrupted;
        j["failure"] = run.failure.empty() ? json() : json(run.failure);
    }
    j["persistent_for"] = r.persistent_for.empty() ? json() : json(r.persistent_for);
    j["persistent_tested"] = r.persistent_tested;
    auto& pers = j["persistent"] = json::array();
    for (const auto& f : r.persistent)
        pers.push_back(json{{"kind", f.kind}, {"text", f.text}, {"scope", f.scope}, {"cannot_express", f.cannot_express}});
    j["persistent_none"] = r.persistent_none.empty() ? json() : json(r.persistent_none);
    if (r.persistent_not_written) j["persistent_not_written"] = json{{"reason", *r.persistent_not_written}};
    j["overlay_check"] = r.overlay_check;
    return j;
}

std::string bus_report_text(const BusReport& r)
{
    const auto& p = r.plan;
    std::string out;
    out += fmt::format("{}{}: {}{}\n", r.device.empty() ? "" : r.device + " on ", p.host.empty() ? "the host" : p.host,
                       p.start_mode ? std::string(bus::to_string(*p.start_mode)) : std::string("no mode"),
                       p.start_clock_hz ? " at " + hz(*p.start_clock_hz) : "");
    if (p.start_caps) out += fmt::format("  caps {} caps2 {}\n", hex(p.start_caps->caps), hex(p.start_caps->caps2));
    if (!p.live_trials) out += fmt::format("  {}\n", p.live_trials_reason);
    for (const auto& l : p.signal_errors) out += fmt::format("  signal errors in the kernel log: {}\n", l);
    for (const auto& n : p.notes) out += fmt::format("Note: {}\n", n);
    if (!p.steps.empty()) out += "\nPlan, fastest first:\n";
    for (const auto& s : p.steps) {
        out += fmt::format("  {:<18} {}\n", step_label(s.mode, s.clock_hz), s.limited_by);
        out += fmt::format("  {:<18} {}\n", "", s.trial);
    }
    if (!p.ruled_out.empty()) out += "\nRuled out (never trialled nor kept):\n";
    for (const auto& x : p.ruled_out) out += fmt::format("  {:<18} {}\n", bus::to_string(x.mode), x.reason);
    if (r.run) {
        const auto& run = *r.run;
        out += "\nTrials:\n";
        if (run.before_mb_s) out += fmt::format("  before             {} MB/s\n", cli::format_figure(*run.before_mb_s, 3));
        for (const auto& t : run.trials)
            out += fmt::format("  {:<18} {}{}\n", step_label(t.mode, t.clock_asked),
                               t.clean ? "clean" : "rejected: " + t.reason,
                               t.mb_s ? fmt::format(", {} MB/s", cli::format_figure(*t.mb_s, 3)) : "");
        if (run.interrupted) out += "  interrupted by a stop signal\n";
        if (!run.failure.empty()) out += fmt::format("  stopped: {}\n", run.failure);
        if (run.chosen) {
            const auto& c = run.trials[*run.chosen];
            out += fmt::format("Chosen: {} at {}{}{}\n", bus::to_string(c.mode), hz(c.clock_hz),
                               c.mb_s ? fmt::format(", {} MB/s", cli::format_figure(*c.mb_s, 3)) : "",
                               run.before_mb_s ? fmt::format(" (before: {} MB/s)", cli::format_figure(*run.before_mb_s, 3)) : "");
        } else if (!run.trials.empty()) {
            out += "Chosen: none: every mode trialled was rejected\n";
        }
        if (run.restored) {
            const auto& x = *run.restored;
            if (x.kept)
                out += fmt::format("Kept until reboot: ios shows {} at {}\n", x.ios_mode, hz(x.ios_clock_hz));
            else
                out += fmt::format("{}: ios shows {} at {}\n", x.done ? "Put back as it was" : "NOT put back", x.ios_mode, hz(x.ios_clock_hz));
            for (const auto& e : x.errors) out += fmt::format("  {}\n", e);
        }
    }
    if (!r.persistent.empty()) out += fmt::format("\nTo keep {} after a reboot:\n", r.persistent_for);
    else if (!r.persistent_none.empty()) out += fmt::format("\nNo persistent form: {}\n", r.persistent_none);
    for (const auto& f : r.persistent) {
        out += fmt::format("[{}] {}\n", f.kind, f.scope);
        if (!f.text.empty()) out += f.text;
        if (!f.cannot_express.empty()) out += fmt::format("  (cannot express: {})\n", f.cannot_express);
    }
    for (const auto& l : r.overlay_check) out += fmt::format("  {}\n", l);
    if (r.persistent_not_written) out += fmt::format("Nothing written (--emit): {}\n", *r.persistent_not_written);
    return out;
}

} // namespace mmc::tune
