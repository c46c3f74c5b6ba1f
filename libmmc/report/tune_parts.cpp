#include "report/tune_parts.h"

#include <fmt/format.h>

namespace mmc::report {

namespace {

// The fastest clock a card bus runs at (HS400: 200 MHz), with room.
constexpr double max_clock_hz = 1e9;
// The largest read-ahead the block layer takes is far below this (KiB).
constexpr double max_read_ahead_kb = 1 << 30;

std::optional<uint64_t> count(JsonReader& r, const json& obj, const char* key, const std::string& where, double max, const char* unit)
{
    const auto v = r.figure(obj, key, where, max, unit);
    return v ? std::optional<uint64_t>(static_cast<uint64_t>(*v)) : std::nullopt;
}

TuneBus read_bus(JsonReader& r, const json& doc)
{
    const std::string where = "tune.bus";
    TuneBus t;
    t.host = r.text(doc, "host", where);
    t.kernel = r.text(doc, "kernel", where);
    t.live_trials = doc.contains("live_trials") && doc["live_trials"].is_boolean() && doc["live_trials"].get<bool>();
    t.live_trials_reason = r.text(doc, "live_trials_reason", where);
    if (const json* start = r.object(doc, "start", where)) {
        t.before_mode = r.text(*start, "mode", where + ".start");
        t.before_clock_hz = count(r, *start, "clock_hz", where + ".start", max_clock_hz, "Hz");
    }
    t.before_mb_s = r.figure(doc, "before_mb_s", where, max_mb_s, "MB/s");
    if (const json* chosen = r.object(doc, "chosen", where)) {
        t.chosen_mode = r.text(*chosen, "mode", where + ".chosen");
        t.chosen_clock_hz = count(r, *chosen, "clock_hz", where + ".chosen", max_clock_hz, "Hz");
        t.chosen_mb_s = r.figure(*chosen, "mb_s", where + ".chosen", max_mb_s, "MB/s");
    }
    if (const json* trials = r.array(doc, "trials", where))
        for (const auto& trial : *trials) {
            if (!trial.is_object()) continue;
            ++t.trials;
            // A verdict other than "clean" (rejected, or a word of a newer
            // mmc-tune) is not counted as clean: only clean is.
            if (r.text(trial, "verdict", where + ".trials") != "clean") ++t.rejected;
        }
    if (const json* restored = r.object(doc, "restored", where))
        t.restored = restored->contains("done") && (*restored)["done"].is_boolean() && (*restored)["done"].get<bool>();
    if (const json* persistent = r.array(doc, "persistent", where))
        for (const auto& p : *persistent)
            if (const auto kind = r.text(p, "kind", where + ".persistent"); !kind.empty()) t.persistent.push_back(kind);
    return t;
}

TuneQueue read_queue(JsonReader& r, const json& doc)
{
    const std::string where = "tune.queue";
    TuneQueue t;
    if (const json* start = r.object(doc, "start", where)) {
        t.before_scheduler = r.text(*start, "scheduler", where + ".start");
        t.before_read_ahead_kb = count(r, *start, "read_ahead_kb", where + ".start", max_read_ahead_kb, "KiB");
    }
    if (const json* result = r.object(doc, "result", where)) {
        t.scheduler = r.text(*result, "scheduler", where + ".result");
        t.read_ahead_kb = count(r, *result, "read_ahead_kb", where + ".result", max_read_ahead_kb, "KiB");
        t.verdict = r.text(*result, "verdict", where + ".result");
        t.reason = r.text(*result, "reason", where + ".result");
    }
    if (const json* measured = r.array(doc, "measured", where))
        for (const auto& m : *measured) t.measured += m.is_object() ? 1 : 0;
    if (const json* discard = r.object(doc, "discard", where)) t.discard_advice = r.text(*discard, "advice", where + ".discard");
    return t;
}

} // namespace

std::string tune_subcommand(const json& doc)
{
    if (!doc.is_object() || !doc.contains("subcommand") || !doc["subcommand"].is_string()) return {};
    const auto sub = doc["subcommand"].get<std::string>();
    return sub == "bus" || sub == "queue" ? sub : std::string();
}

void read_tune_parts(JsonReader& r, Bundle& b)
{
    b.tune_bus.reset();
    b.tune_queue.reset();
    if (const json* bus = r.object(b.tune, "bus", "tune")) b.tune_bus = read_bus(r, *bus);
    if (const json* queue = r.object(b.tune, "queue", "tune")) b.tune_queue = read_queue(r, *queue);
}

} // namespace mmc::report
