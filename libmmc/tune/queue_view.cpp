#include "tune/queue_view.h"

#include "bench/stats.h"
#include "cli/text_table.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

using ojson = nlohmann::ordered_json;

double r2(double v) { return bench::round_to(v, 2); }

ojson changes_json(const QueueApplied& a)
{
    ojson changes = ojson::array();
    for (const auto& c : a.changes) changes.push_back({{"what", c.what}, {"from", c.from}, {"to", c.to}});
    return {{"changes", changes}, {"rule", a.rule_path.string()}, {"state_file", a.state_path.string()}};
}

std::string figure_text(const Figure& f)
{
    if (f.runs == 0) return "-";
    return fmt::format("{:.1f} ({})", f.mean, interval_text(f));
}

} // namespace

ojson queue_json(const QueueReport& r)
{
    ojson j;
    j["device"] = r.device;
    j["start"] = {{"scheduler", r.start.scheduler}, {"read_ahead_kb", r.start.read_ahead_kb}};
    j["schedulers_offered"] = r.offered;
    ojson measured = ojson::array(), scores = ojson::array();
    ojson result = nullptr;
    if (r.race) {
        const auto& race = *r.race;
        for (const auto& c : race.contenders) {
            for (std::size_t w = 0; w < race.workloads.size(); ++w) {
                const Figure f = c.figure(w);
                measured.push_back({{"scheduler", c.setting.scheduler},
                                    {"read_ahead_kb", c.setting.read_ahead_kb},
                                    {"suite", to_string(race.workloads[w])},
                                    {"mb_s", r2(f.mean)},
                                    {"interval", {r2(f.low), r2(f.high)}},
                                    {"runs", f.runs}});
            }
            const Figure s = c.score();
            scores.push_back({{"scheduler", c.setting.scheduler},
                              {"read_ahead_kb", c.setting.read_ahead_kb},
                              {"score", r2(s.mean)},
                              {"interval", {r2(s.low), r2(s.high)}},
                              {"runs", s.runs},
                              {"out_after_round", c.out_after_round ? ojson(*c.out_after_round) : ojson(nullptr)}});
        }
        const auto& chosen = race.contenders[race.chosen].setting;
        result = {{"scheduler", chosen.scheduler},
                  {"read_ahead_kb", chosen.read_ahead_kb},
                  {"verdict", to_string(race.verdict)},
                  {"reason", race.reason},
                  {"change", race.chosen != 0},
                  {"read_ahead_decision", {{"change", race.read_ahead.change}, {"reason", race.read_ahead.reason}}},
                  {"scheduler_decision", {{"change", race.scheduler.change}, {"reason", race.scheduler.reason}}},
                  {"rounds", race.rounds},
                  {"ended", to_string(race.end)},
                  {"elapsed_s", r2(race.elapsed_s)},
                  {"budget_s", r2(r.budget_s)},
                  {"sample_s", r2(r.sample_s)}};
    }
    j["measured"] = measured;
    j["scores"] = scores;
    j["result"] = result;
    if (r.discard) {
        const auto& d = *r.discard;
        j["discard"] = {{"seconds_per_gib", d.seconds_per_gib ? ojson(bench::round_to(*d.seconds_per_gib, 3)) : ojson(nullptr)},
                        {"measured_bytes", d.measured_bytes},
                        {"measured_s", bench::round_to(d.measured_s, 3)},
                        {"advice", to_string(d.advice)},
                        {"reason", d.reason}};
    } else {
        j["discard"] = nullptr;
    }
    ojson persistent = ojson::array();
    if (r.persistent && !r.persistent->text.empty())
        persistent.push_back({{"kind", "udev-rule"}, {"text", r.persistent->text}, {"scope", r.persistent->scope},
                              {"file", r.persistent->file}});
    j["persistent"] = persistent;
    if (r.persistent && !r.persistent->why_not.empty()) j["persistent_not_written"] = {{"reason", r.persistent->why_not}};
    j["queued_engine"] = r.queued_engine;
    j["restored"] = r.restored;
    j["applied"] = r.applied ? changes_json(*r.applied) : ojson(nullptr);
    j["undone"] = r.undone ? changes_json(*r.undone) : ojson(nullptr);
    j["interrupted"] = r.interrupted;
    j["notes"] = r.notes;
    return j;
}

std::string queue_text(const QueueReport& r)
{
    std::string t = fmt::format("{}\n", r.described);
    std::string offered;
    for (const auto& s : r.offered) offered += (offered.empty() ? "" : " ") + (s == r.start.scheduler ? "[" + s + "]" : s);
    t += fmt::format("In force: {} (schedulers offered: {})\n", to_string(r.start), offered.empty() ? "none" : offered);
    if (r.race) {
        const auto& race = *r.race;
        t += fmt::format("\nMeasured: {} round{} in {:.0f} s of {:.0f} (race ended: {}); MB/s, mean (95% interval):\n",
                         race.rounds, race.rounds == 1 ? "" : "s", race.elapsed_s, r.budget_s, to_string(race.end));
        cli::TextTable table;
        table.header = {"setting"};
        table.right_aligned = {false};
        for (const auto w : race.workloads) {
            table.header.emplace_back(to_string(w));
            table.right_aligned.push_back(true);
        }
        table.header.emplace_back("score");
        table.right_aligned.push_back(true);
        table.header.emplace_back("");
        table.right_aligned.push_back(false);
        for (std::size_t i = 0; i < race.contenders.size(); ++i) {
            const auto& c = race.contenders[i];
            std::vector<std::string> row{to_string(c.setting)};
            for (std::size_t w = 0; w < race.workloads.size(); ++w) row.push_back(figure_text(c.figure(w)));
            row.push_back(figure_text(c.score()));
            std::string mark = i == race.chosen ? "<- advised" : "";
            if (c.out_after_round) mark = fmt::format("slower (out after round {})", *c.out_after_round);
            if (i == 0) mark += mark.empty() ? "in force" : ", in force";
            row.push_back(mark);
            table.rows.push_back(row);
        }
        t += cli::render_table(table, 1, 30);
        const auto& chosen = race.contenders[race.chosen].setting;
        t += race.chosen != 0 ? fmt::format("Result: {} (was {})\n", to_string(chosen), to_string(r.start))
                              : fmt::format("Result: keep the current setting ({})\n", to_string(r.start));
        t += fmt::format("  read-ahead: {}\n  scheduler: {}\n", race.read_ahead.reason, race.scheduler.reason);
        if (race.end != RaceEnd::equal && race.end != RaceEnd::one_left)
            t += fmt::format("  (the race stopped: {})\n", to_string(race.end));
    }
    if (r.discard) {
        const auto& d = *r.discard;
        t += fmt::format("Discard: {}: {}\n", d.advice == DiscardAdvice::online_discard ? "online discard (the discard mount option)" : to_string(d.advice),
                         d.reason);
    } else if (r.race) {
        t += "Discard: not measured (it needs a scratch region whose data may go)\n";
    }
    if (r.persistent) {
        if (!r.persistent->text.empty())
            t += fmt::format("\nPersistent form, a udev rule for {}:\n{}Scope: {}\n", r.persistent->file, r.persistent->text,
                             r.persistent->scope);
        else
            t += fmt::format("\nNo udev rule: {}\n", r.persistent->why_not);
    }
    if (r.restored) t += fmt::format("Restored: {}, as it was before the measurement.\n", to_string(r.start));
    for (const auto* a : {&r.applied, &r.undone}) {
        if (!*a) continue;
        t += a == &r.applied ? "Applied:\n" : "Undone:\n";
        for (const auto& c : (*a)->changes) t += fmt::format("  {}: {} -> {}\n", c.what, c.from, c.to);
        if (a == &r.applied) t += fmt::format("  (undo: the state is in {})\n", (*a)->state_path.string());
    }
    for (const auto& n : r.notes) t += fmt::format("Note: {}\n", n);
    return t;
}

} // namespace mmc::tune
