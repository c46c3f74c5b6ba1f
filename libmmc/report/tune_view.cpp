#include "report/tune_view.h"
#include "report/json_or_null.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::report {

namespace {

// "SDR104 at 150 MHz", "SDR104", or "–".
std::string tune_mode_text(const std::string& mode, std::optional<uint64_t> clock_hz)
{
    if (mode.empty()) return missing_text;
    return clock_hz ? fmt::format("{} at {}", mode, cli::format_hz(static_cast<double>(*clock_hz))) : mode;
}

std::string tune_queue_setting(const std::string& scheduler, std::optional<uint64_t> read_ahead_kb)
{
    const std::string ra = read_ahead_kb ? "read-ahead " + bytes_text(*read_ahead_kb * 1024) : "";
    if (scheduler.empty()) return ra.empty() ? std::string(missing_text) : ra;
    return ra.empty() ? scheduler : scheduler + ", " + ra;
}

json tune_word_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

} // namespace

TuneCells tune_cells(const Bundle& b)
{
    TuneCells c{missing_text, missing_text, missing_text, missing_text, missing_text, missing_text, missing_text, "", ""};
    if (const auto& t = b.tune_bus) {
        c.bus_before = tune_mode_text(t->before_mode, t->before_clock_hz);
        c.before_mb_s = mb_s_text(t->before_mb_s);
        c.bus_after = tune_mode_text(t->chosen_mode, t->chosen_clock_hz);
        c.after_mb_s = mb_s_text(t->chosen_mb_s);
        if (t->trials == 0) c.trials = t->live_trials ? "none" : "none (plan only)";
        else c.trials = t->rejected ? fmt::format("{}, {} rejected", t->trials, t->rejected) : std::to_string(t->trials);
        if (t->restored) c.restored = *t->restored ? "yes" : "no: the chosen mode kept";
        if (!t->live_trials) c.plan_only = t->live_trials_reason.empty() ? "no live trials" : t->live_trials_reason;
    }
    if (const auto& q = b.tune_queue) {
        c.queue = fmt::format("{} -> {}", tune_queue_setting(q->before_scheduler, q->before_read_ahead_kb),
                              tune_queue_setting(q->scheduler, q->read_ahead_kb));
        if (!q->verdict.empty()) c.queue += ": " + q->verdict;
        c.queue_reason = q->reason;
    }
    return c;
}

json tune_json(const Bundle& b)
{
    if (!b.tune_bus && !b.tune_queue) return nullptr;
    json j;
    if (const auto& t = b.tune_bus)
        j["bus"] = {{"live_trials", t->live_trials},
                    {"live_trials_reason", tune_word_or_null(t->live_trials_reason)},
                    {"before", {{"mode", tune_word_or_null(t->before_mode)}, {"clock_hz", json_or_null(t->before_clock_hz)}, {"mb_s", json_or_null(t->before_mb_s)}}},
                    {"chosen", t->chosen_mode.empty() ? json(nullptr)
                                                      : json{{"mode", t->chosen_mode}, {"clock_hz", json_or_null(t->chosen_clock_hz)}, {"mb_s", json_or_null(t->chosen_mb_s)}}},
                    {"trials", t->trials},
                    {"rejected", t->rejected},
                    {"restored", json_or_null(t->restored)},
                    {"persistent", t->persistent}};
    else
        j["bus"] = nullptr;
    if (const auto& q = b.tune_queue)
        j["queue"] = {{"before", {{"scheduler", tune_word_or_null(q->before_scheduler)}, {"read_ahead_kb", json_or_null(q->before_read_ahead_kb)}}},
                      {"result", {{"scheduler", tune_word_or_null(q->scheduler)}, {"read_ahead_kb", json_or_null(q->read_ahead_kb)}}},
                      {"verdict", tune_word_or_null(q->verdict)},
                      {"reason", tune_word_or_null(q->reason)},
                      {"measured", q->measured},
                      {"discard_advice", tune_word_or_null(q->discard_advice)}};
    else
        j["queue"] = nullptr;
    return j;
}

} // namespace mmc::report
