#include "report/text.h"
#include "report/tune_view.h"

#include "cli/printable.h"
#include "cli/text_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>

namespace mmc::report {

namespace {

// "Label:   text" wrapped with a hanging indent.
std::string field(const std::string& label, const std::string& text, std::size_t width = 100)
{
    if (text.empty()) return {};
    const std::string head = fmt::format("  {:<10}", label);
    std::string out;
    bool first = true;
    for (const auto& line : cli::wrap_words(text, width - head.size())) {
        out += (first ? head : std::string(head.size(), ' ')) + line + "\n";
        first = false;
    }
    return out;
}

const char* result_color(VerdictResult result)
{
    if (result == VerdictResult::pass) return "\033[32m";
    if (result == VerdictResult::fail) return "\033[1;31m";
    return "\033[2m";
}

} // namespace

namespace {

// A group whose bundles say how their cards were attached gets a column for
// it after "Card @ host" (one card in a reader and in a slot side by side).
void add_attachment_column(cli::TextTable& t, const Report& rep, const Group& g, const std::vector<std::size_t>& members)
{
    if (!g.has_attachments(rep.bundles)) return;
    t.header.insert(t.header.begin() + 1, "Attachment");
    t.right_aligned.insert(t.right_aligned.begin() + 1, false);
    for (std::size_t k = 0; k < t.rows.size(); ++k) {
        const std::string& a = rep.bundles[g.members[members[k]]].attachment;
        t.rows[k].insert(t.rows[k].begin() + 1, a.empty() ? std::string(missing_text) : a);
    }
}

std::string text_seq_table(const Report& rep, const Group& g, bool write)
{
    cli::TextTable t;
    t.header.push_back("Card");
    t.right_aligned.push_back(false);
    for (const auto& h : g.hosts) {
        t.header.push_back(h);
        t.right_aligned.push_back(true);
    }
    for (std::size_t r = 0; r < g.cards.size(); ++r) {
        std::vector<std::string> row{g.cards[r]};
        for (std::size_t c = 0; c < g.hosts.size(); ++c) {
            const int i = g.cell[r][c];
            if (i < 0) {
                row.push_back(missing_text);
                continue;
            }
            const Bundle& b = rep.bundles[i];
            const auto v = write ? b.results.seq_write_mb_s : b.results.seq_read_mb_s;
            row.push_back(!v && !b.error.empty() ? "error" : mb_s_text(v));
        }
        t.rows.push_back(std::move(row));
    }
    return cli::render_table(t);
}

std::string text_random_table(const Report& rep, const Group& g)
{
    cli::TextTable t;
    t.header = {"Card @ host", "1K w", "1K r", "4K w", "4K r", "16K w", "16K r", "seq w MB/s", "seq r MB/s"};
    t.right_aligned = {false, true, true, true, true, true, true, true, true};
    std::vector<std::size_t> shown;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        shown.push_back(m);
        std::vector<std::string> row{g.member_label(m)};
        for (const auto key : iops_keys) {
            row.push_back(iops_text(rand_iops(b.results, true, key)));
            row.push_back(iops_text(rand_iops(b.results, false, key)));
        }
        row.push_back(mb_s_text(b.results.seq_write_mb_s));
        row.push_back(mb_s_text(b.results.seq_read_mb_s));
        t.rows.push_back(std::move(row));
    }
    add_attachment_column(t, rep, g, shown);
    return cli::render_table(t, 2, 6);
}

std::string text_verdict_table(const Report& rep, const Group& g, bool color)
{
    cli::TextTable t;
    t.header = {"Card @ host", "Claim", "Required", "Measured", "Bus ceiling", "Result"};
    t.right_aligned = {false, false, true, true, true, false};
    std::vector<VerdictResult> results;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        for (const auto& v : b.verdicts) {
            const auto ceiling = verdict_ceiling(b, v);
            t.rows.push_back({g.member_label(m), v.claim, value_with_unit(v.required, v.unit), value_with_unit(v.measured, v.unit),
                              value_with_unit(ceiling, VerdictUnit::mb_s), verdict_result_text(v, ceiling)});
            results.push_back(v.result.value);
        }
    }
    if (color)
        t.color = [results](std::size_t row, std::size_t col) { return col == 5 ? std::string(result_color(results[row])) : std::string(); };
    return cli::render_table(t);
}

// mmc-probe's answers, one row per card@host that has them.
std::string text_probe_table(const Report& rep, const Group& g)
{
    cli::TextTable t;
    t.header = {"Card @ host", "Page", "AU", "Open AUs", "Confidence", "Capacity"};
    t.right_aligned = {false, true, true, true, false, false};
    std::vector<std::size_t> shown;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (!b.geometry && !b.capacity) continue;
        shown.push_back(m);
        const auto& geo = b.geometry;
        t.rows.push_back({g.member_label(m), geo ? bytes_text(geo->page_size) : missing_text, geo ? bytes_text(geo->au_size) : missing_text,
                          geo ? count_text(geo->open_aus) : missing_text,
                          geo && !geo->confidence.empty() ? geo->confidence : missing_text, capacity_text(b.capacity)});
    }
    add_attachment_column(t, rep, g, shown);
    return cli::render_table(t, 2, 10);
}

// The sustained suite's figures, one row per card@host that ran it.
std::string text_sustained_table(const Report& rep, const Group& g)
{
    cli::TextTable t;
    t.header = {"Card @ host", "Burst MB/s", "SLC cache", "Sustained MB/s", "Worst write ms"};
    t.right_aligned = {false, true, true, true, true};
    std::vector<std::size_t> shown;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (!b.sustained) continue;
        shown.push_back(m);
        const auto& s = *b.sustained;
        t.rows.push_back({g.member_label(m), mb_s_text(s.burst_mb_s), s.knee_bytes ? bytes_text(s.knee_bytes) : "none",
                          mb_s_text(s.sustained_mb_s),
                          s.worst_latency_ms ? fmt::format("{:.0f}", *s.worst_latency_ms) : std::string(missing_text)});
    }
    add_attachment_column(t, rep, g, shown);
    return cli::render_table(t, 2, 10);
}

// mmc-health's verdicts: one row per card, its latest reading, and where
// the card was read more than once its life used over time, oldest first.
std::string text_health_table(const Report& rep, const Group& g)
{
    cli::TextTable t;
    t.header = {"Card", "Verdict", "Life used", "From", "Read", "Life used over time"};
    t.right_aligned = {false, false, true, false, false, false};
    for (const auto& card : health_histories(rep, g)) {
        const auto& last = card.readings.back();
        std::string history = missing_text;
        if (card.readings.size() > 1) {
            history.clear();
            for (const auto& r : card.readings) history += (history.empty() ? "" : ", ") + life_used_text(*r.health) + " " + r.date;
        }
        t.rows.push_back({card.card, last.health->verdict, life_used_text(*last.health),
                          last.health->life_source.empty() ? missing_text : last.health->life_source,
                          last.date.empty() ? missing_text : last.date, history});
    }
    return cli::render_table(t, 2, 10);
}

// mmc-tune's results: the bus mode before and after, one row per
// card@host; the queue's result and why the bus was not trialled live, as
// lines below.
std::string text_tune_table(const Report& rep, const Group& g)
{
    cli::TextTable t;
    t.header = {"Card @ host", "Bus before", "MB/s", "Bus after", "MB/s", "Trials", "Restored"};
    t.right_aligned = {false, false, true, false, true, false, false};
    std::vector<std::size_t> shown;
    std::string notes;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (!b.tune_bus && !b.tune_queue) continue;
        const auto c = tune_cells(b);
        if (b.tune_bus) {
            shown.push_back(m);
            t.rows.push_back({g.member_label(m), c.bus_before, c.before_mb_s, c.bus_after, c.after_mb_s, c.trials, c.restored});
            if (!c.plan_only.empty()) notes += fmt::format("  {}: bus: {}\n", g.member_label(m), c.plan_only);
        }
        if (b.tune_queue)
            notes += fmt::format("  {}: queue: {}{}\n", g.member_label(m), c.queue, c.queue_reason.empty() ? "" : " (" + c.queue_reason + ")");
    }
    add_attachment_column(t, rep, g, shown);
    return (t.rows.empty() ? std::string() : cli::render_table(t, 2, 10)) + notes;
}

// What erasing bought, in the state suite's own line.
std::string state_lines(const Report& rep, const Group& g)
{
    std::string out;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (b.state) out += fmt::format("  {}: {}\n", g.member_label(m), b.state->summary.empty() ? missing_text : b.state->summary);
    }
    return out;
}

// The report with every string a bundle supplied made safe for a terminal
// (an ESC in a card label must not reach it raw); the figures are untouched.
Report printable_copy(const Report& in)
{
    Report rep = in;
    auto fix = [](std::string& s) { s = cli::printable(s); };
    auto fix_source = [&](Source& s) {
        for (auto* t : {&s.title, &s.method, &s.units, &s.url, &s.notes, &s.conversion}) fix(*t);
    };
    for (auto& g : rep.groups) {
        fix(g.title);
        for (auto& h : g.hosts) fix(h);
        for (auto& c : g.cards) fix(c);
        if (g.source) fix_source(*g.source);
    }
    for (auto& b : rep.bundles) {
        fix(b.error);
        for (auto& v : b.verdicts)
            for (auto* t : {&v.claim, &v.unit.as_written, &v.result.as_written, &v.why}) fix(*t);
        if (b.geometry) fix(b.geometry->confidence);
        if (b.capacity) fix(b.capacity->verdict.as_written);
        if (b.state) fix(b.state->summary);
        if (b.health_figures) {
            fix(b.health_figures->verdict);
            fix(b.health_figures->life_source);
        }
        if (auto& t = b.tune_bus) {
            for (auto* s : {&t->before_mode, &t->chosen_mode, &t->live_trials_reason}) fix(*s);
        }
        if (auto& q = b.tune_queue) {
            for (auto* s : {&q->before_scheduler, &q->scheduler, &q->verdict, &q->reason}) fix(*s);
        }
        for (auto& s : b.steps) {
            fix(s.name);
            fix(s.message);
        }
    }
    return rep;
}

} // namespace

std::string text_report(const Report& unsafe, bool color)
{
    const Report rep = printable_copy(unsafe);
    std::string out;
    for (std::size_t gi = 0; gi < rep.groups.size(); ++gi) {
        const Group& g = rep.groups[gi];
        if (gi) out += "\n";
        out += color ? fmt::format("\033[1m{}\033[0m\n", g.title) : g.title + "\n";
        out += fmt::format("  {:<10}{} {}, {} card{} on {} host{}\n", g.kind == BundleKind::imported ? "Imported:" : "Measured:",
                           g.members.size(), g.members.size() == 1 ? "bundle" : "bundles", g.cards.size(),
                           g.cards.size() == 1 ? "" : "s", g.hosts.size(), g.hosts.size() == 1 ? "" : "s");
        if (g.source) {
            out += field("Method:", g.source->method);
            out += field("Source:", g.source->url);
        }
        out += field("Units:", units_line(g));
        if (g.source) out += field("Notes:", g.source->notes);

        if (g.has_sequential(rep.bundles)) {
            out += "\n  Sequential read, MB/s, by card\n" + text_seq_table(rep, g, false);
            out += "\n  Sequential write, MB/s, by card\n" + text_seq_table(rep, g, true);
        }
        if (g.has_random(rep.bundles)) out += "\n  Random I/O, IOPS at QD1 (w = write, r = read), and sequential MB/s\n" + text_random_table(rep, g);
        if (g.has_verdicts(rep.bundles)) out += "\n  Verdicts\n" + text_verdict_table(rep, g, color);
        if (g.has_probe(rep.bundles)) out += "\n  Flash geometry and capacity (mmc-probe)\n" + text_probe_table(rep, g);
        if (g.has_state(rep.bundles)) out += "\n  What erasing bought (the benchmark's state suite)\n" + state_lines(rep, g);
        if (g.has_sustained(rep.bundles))
            out += "\n  Sustained writes (the benchmark's sustained suite)\n" + text_sustained_table(rep, g);
        if (g.has_health(rep.bundles)) out += "\n  Health (mmc-health), the latest reading per card\n" + text_health_table(rep, g);
        if (g.has_tune(rep.bundles)) out += "\n  Tuning (mmc-tune): the bus mode and the block queue, before and after\n" + text_tune_table(rep, g);
        if (!g.has_sequential(rep.bundles) && !g.has_random(rep.bundles)) out += "\n  No figures.\n";

        std::string problems;
        for (const std::size_t m : g.in_row_order()) {
            const Bundle& b = rep.bundles[g.members[m]];
            if (!b.error.empty()) problems += fmt::format("  {}: error: {}\n", g.member_label(m), b.error);
            for (const auto& s : b.steps)
                if (!s.ok) problems += fmt::format("  {}: step {} failed{}{}\n", g.member_label(m), s.name, s.message.empty() ? "" : ": ", s.message);
        }
        if (!problems.empty()) out += "\n  Problems\n" + problems;
    }
    return out;
}

} // namespace mmc::report
