// The HTML report's tables: the text view's, as HTML, with the figures an
// imported study published as the cells' titles.
#include "report/html.h"
#include "report/html_parts.h"
#include "report/tune_view.h"

#include <fmt/format.h>

namespace mmc::report {

namespace {

std::string td_num(const std::string& text, const std::string& title = "")
{
    const bool none = text == missing_text;
    return fmt::format("<td class=\"num{}\"{}>{}</td>", none ? " none" : "", title.empty() ? "" : " title=\"" + html_escape(title) + "\"",
                       html_escape(text));
}

// A group whose bundles say how their cards were attached gets a column for
// it after the row's name, as in the text view (one card in a reader and in
// a slot side by side): its header, and a member's cell.
std::string attachment_header(const Report& rep, const Group& g)
{
    return g.has_attachments(rep.bundles) ? "<th scope=\"col\">Attachment</th>" : "";
}

std::string attachment_cell(const Report& rep, const Group& g, std::size_t m)
{
    if (!g.has_attachments(rep.bundles)) return "";
    const std::string& a = rep.bundles[g.members[m]].attachment;
    return fmt::format("<td>{}</td>", html_escape(a.empty() ? std::string(missing_text) : a));
}

std::string badge(const Word<VerdictResult>& result)
{
    const char* cls = result == VerdictResult::pass ? "pass" : result == VerdictResult::fail ? "fail" : "na";
    return fmt::format("<span class=\"badge {}\">{}</span>", cls, html_escape(result.empty() ? missing_text : result.text()));
}

} // namespace

namespace html_parts {

std::string published(const Bundle& b, const std::string& key)
{
    if (!b.source || !b.source->results_as_published.is_object()) return {};
    const auto& p = b.source->results_as_published;
    if (!p.contains(key) || !p[key].is_object()) return {};
    const auto& f = p[key];
    std::string out = "as published: ";
    out += f.contains("value") ? f["value"].dump() : "?";
    if (f.contains("unit") && f["unit"].is_string()) out += " " + f["unit"].get<std::string>();
    if (f.contains("record") && f["record"].is_string()) out += " (" + f["record"].get<std::string>() + ")";
    return out;
}

std::string html_seq_table(const Report& rep, const Group& g)
{
    std::string h = "<div class=\"table-wrap\"><table class=\"seq\"><caption>Sequential read and write, MB/s, by card</caption><thead><tr><th rowspan=\"2\" scope=\"col\">Card</th>";
    for (const auto& host : g.hosts) h += fmt::format("<th colspan=\"2\" scope=\"colgroup\">{}</th>", html_escape(host));
    h += "</tr><tr>";
    for (std::size_t c = 0; c < g.hosts.size(); ++c) h += "<th scope=\"col\">read</th><th scope=\"col\">write</th>";
    h += "</tr></thead><tbody>";
    for (std::size_t r = 0; r < g.cards.size(); ++r) {
        h += fmt::format("<tr><th scope=\"row\">{}</th>", html_escape(g.cards[r]));
        for (std::size_t c = 0; c < g.hosts.size(); ++c) {
            const int i = g.cell[r][c];
            if (i < 0) {
                h += td_num(missing_text) + td_num(missing_text);
                continue;
            }
            const Bundle& b = rep.bundles[i];
            for (const int s : {0, 1}) {
                const auto v = s ? b.results.seq_write_mb_s : b.results.seq_read_mb_s;
                if (!v && !b.error.empty())
                    h += fmt::format("<td class=\"num err\" title=\"{}\">error</td>", html_escape(b.error));
                else
                    h += td_num(mb_s_text(v), published(b, s ? "seq_write" : "seq_read"));
            }
        }
        h += "</tr>";
    }
    return h + "</tbody></table></div>";
}
std::string html_random_table(const Report& rep, const Group& g)
{
    std::string h = "<div class=\"table-wrap\"><table class=\"random\"><caption>Random I/O, IOPS at QD1, and sequential MB/s</caption><thead><tr>"
                    "<th scope=\"col\">Card @ host</th>" + attachment_header(rep, g) + "<th>1K w</th><th>1K r</th><th>4K w</th><th>4K r</th><th>16K w</th><th>16K r</th>"
                    "<th>seq w MB/s</th><th>seq r MB/s</th></tr></thead><tbody>";
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        h += fmt::format("<tr><th scope=\"row\">{}</th>", html_escape(g.member_label(m))) + attachment_cell(rep, g, m);
        for (const auto key : iops_keys)
            for (const bool write : {true, false})
                h += td_num(iops_text(rand_iops(b.results, write, key)),
                            published(b, fmt::format("rand_{}_{}", write ? "write" : "read", key)));
        h += td_num(mb_s_text(b.results.seq_write_mb_s), published(b, "seq_write"));
        h += td_num(mb_s_text(b.results.seq_read_mb_s), published(b, "seq_read"));
        h += "</tr>";
    }
    return h + "</tbody></table></div>";
}

std::string html_verdict_table(const Report& rep, const Group& g)
{
    std::string h = "<div class=\"table-wrap\"><table class=\"verdicts\"><caption>Verdicts: measured figures against the card's claims</caption>"
                    "<thead><tr><th scope=\"col\">Card @ host</th><th scope=\"col\">Claim</th><th scope=\"col\">Required</th>"
                    "<th scope=\"col\">Measured</th><th scope=\"col\">Bus ceiling</th><th scope=\"col\">Result</th>"
                    "<th scope=\"col\" class=\"why\">Why</th></tr></thead><tbody>";
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        for (const auto& v : b.verdicts) {
            const auto ceiling = verdict_ceiling(b, v);
            const std::string result = verdict_result_text(v, ceiling);
            h += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td>{}{}{}<td>{}</td><td class=\"why\">{}</td></tr>",
                             html_escape(g.member_label(m)), html_escape(v.claim), td_num(value_with_unit(v.required, v.unit)),
                             td_num(value_with_unit(v.measured, v.unit)), td_num(value_with_unit(ceiling, VerdictUnit::mb_s)),
                             badge(v.result) + (result != v.result.text() ? html_escape(result.substr(v.result.text().size())) : std::string()),
                             html_escape(v.why));
        }
    }
    return h + "</tbody></table></div>";
}

// mmc-probe's answers, one row per card@host that has them.
std::string html_probe_table(const Report& rep, const Group& g)
{
    std::string h = "<div class=\"table-wrap\"><table class=\"probe\"><caption>Flash geometry and capacity, measured by mmc-probe</caption>"
                    "<thead><tr><th scope=\"col\">Card @ host</th>" + attachment_header(rep, g) + "<th scope=\"col\">Page</th><th scope=\"col\">AU</th>"
                    "<th scope=\"col\">Open AUs</th><th scope=\"col\">Confidence</th><th scope=\"col\">Capacity</th></tr></thead><tbody>";
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (!b.geometry && !b.capacity) continue;
        const auto& geo = b.geometry;
        h += fmt::format("<tr><th scope=\"row\">{}</th>{}{}{}{}<td>{}</td><td>{}</td></tr>", html_escape(g.member_label(m)),
                         attachment_cell(rep, g, m), td_num(geo ? bytes_text(geo->page_size) : missing_text), td_num(geo ? bytes_text(geo->au_size) : missing_text),
                         td_num(geo ? count_text(geo->open_aus) : missing_text),
                         html_escape(geo && !geo->confidence.empty() ? geo->confidence : missing_text), html_escape(capacity_text(b.capacity)));
    }
    return h + "</tbody></table></div>";
}

// mmc-health: the latest reading per card, and a chart of life used over
// time: one bar per reading, oldest first, for every card that has a figure.
std::string html_health_table(const Report& rep, const Group& g)
{
    std::string h = "<div class=\"table-wrap\"><table class=\"health\"><caption>Health, the latest reading per card (mmc-health)</caption>"
                    "<thead><tr><th scope=\"col\">Card</th><th scope=\"col\">Verdict</th><th scope=\"col\">Life used</th>"
                    "<th scope=\"col\">From</th><th scope=\"col\">Read</th></tr></thead><tbody>";
    for (const auto& card : health_histories(rep, g)) {
        const auto& last = card.readings.back();
        h += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td>{}<td>{}</td><td>{}</td></tr>", html_escape(card.card),
                         html_escape(last.health->verdict), td_num(life_used_text(*last.health)),
                         html_escape(last.health->life_source.empty() ? missing_text : last.health->life_source),
                         html_escape(last.date.empty() ? missing_text : last.date));
    }
    return h + "</tbody></table></div>";
}

// mmc-tune: the bus mode before and after per card@host, the queue's result
// and why the bus was not trialled live.
std::string html_tune_table(const Report& rep, const Group& g)
{
    std::string rows, notes;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (!b.tune_bus && !b.tune_queue) continue;
        const auto c = tune_cells(b);
        const std::string who = html_escape(g.member_label(m));
        if (b.tune_bus)
            rows += fmt::format("<tr><th scope=\"row\">{}</th><td>{}</td>{}<td>{}</td>{}<td>{}</td><td>{}</td></tr>", who,
                                html_escape(c.bus_before), td_num(c.before_mb_s), html_escape(c.bus_after), td_num(c.after_mb_s),
                                html_escape(c.trials), html_escape(c.restored));
        if (!c.plan_only.empty()) notes += fmt::format("<li>{}: bus: {}</li>", who, html_escape(c.plan_only));
        if (b.tune_queue)
            notes += fmt::format("<li>{}: queue: {}{}</li>", who, html_escape(c.queue),
                                 c.queue_reason.empty() ? "" : " (" + html_escape(c.queue_reason) + ")");
    }
    std::string h;
    if (!rows.empty())
        h = "<div class=\"table-wrap\"><table class=\"tune\"><caption>Bus mode before and after the trials (mmc-tune bus)</caption>"
            "<thead><tr><th scope=\"col\">Card @ host</th><th scope=\"col\">Bus before</th><th scope=\"col\">MB/s</th>"
            "<th scope=\"col\">Bus after</th><th scope=\"col\">MB/s</th><th scope=\"col\">Trials</th><th scope=\"col\">Restored</th></tr>"
            "</thead><tbody>" + rows + "</tbody></table></div>";
    if (!notes.empty()) h += (h.empty() ? "" : "\n") + std::string("<ul class=\"tune\">") + notes + "</ul>";
    return h;
}

// What erasing bought: the state suite's own line per card@host.
std::string state_list(const Report& rep, const Group& g)
{
    std::string h = "<ul class=\"state\">";
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (b.state)
            h += fmt::format("<li>{}: {}</li>", html_escape(g.member_label(m)), html_escape(b.state->summary.empty() ? missing_text : b.state->summary));
    }
    return h + "</ul>";
}

} // namespace html_parts

} // namespace mmc::report
