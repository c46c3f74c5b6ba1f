#include "report/html.h"

#include "cli/size.h"
#include "cli/text_table.h"
#include "report/sustained_chart.h"
#include "report/text.h"
#include "version.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

namespace mmc::report {

bool is_web_url(std::string_view url)
{
    const auto starts = [&](std::string_view scheme) {
        if (url.size() <= scheme.size()) return false;
        for (std::size_t i = 0; i < scheme.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(url[i])) != scheme[i]) return false;
        return true;
    };
    return starts("http://") || starts("https://");
}

std::string source_link(std::string_view url)
{
    // A bundle is data from anywhere: a javascript: or data: link in it must
    // not become something a reader of the page can click.
    if (!is_web_url(url)) return fmt::format("{} (not an http(s) link; not linked)", html_escape(url));
    return fmt::format("<a href=\"{0}\">{0}</a>", html_escape(url));
}

std::string html_escape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

Axis nice_axis(double max)
{
    if (!(max > 0)) return {1, 1};
    const double raw = max / 4;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / p;
    const double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
    return {step, step * std::ceil(max / step - 1e-9)};
}

namespace {

// ---- SVG bar charts --------------------------------------------------------

constexpr double chart_width = 440;
constexpr double value_room = 84; // right of the longest bar, for its value
constexpr double tag_width = 36;  // the "4K" column of the IOPS chart

struct Item {
    enum Kind { heading, label, bar, note, gap } kind;
    std::string text;                // heading, label, note; the bar's tag ("4K")
    std::optional<double> value;     // bar
    int series = 0;                  // bar: 0 read, 1 write
    std::string value_text, tip;     // bar
    double height = 0;               // gap
};

std::string truncate(const std::string& s, std::size_t n)
{
    if (cli::display_width(s) <= n) return s;
    std::string out;
    std::size_t w = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80 && ++w > n - 1) break;
        out += s[i];
    }
    return out + "\u2026";
}

std::string tick_text(double v)
{
    if (v >= 1000 && std::fmod(v, 1000) == 0) return fmt::format("{:g}k", v / 1000);
    return fmt::format("{:g}", v);
}

std::string render_chart(const std::string& id, const std::string& cls, const std::string& title, const std::vector<Item>& items,
                         const std::string& unit, bool tagged)
{
    double max = 0;
    for (const auto& it : items)
        if (it.kind == Item::bar && it.value) max = std::max(max, *it.value);
    const Axis axis = nice_axis(max);
    const double x0 = tagged ? tag_width : 0, span = chart_width - x0 - value_room;
    auto x_of = [&](double v) { return x0 + span * std::max(0.0, v) / axis.end; };

    std::string body;
    double y = 0;
    // Legend and unit.
    body += "<g class=\"legend\">";
    body += "<rect class=\"s0\" x=\"0\" y=\"3\" width=\"10\" height=\"10\"/><text x=\"14\" y=\"12\">read</text>";
    body += "<rect class=\"s1\" x=\"56\" y=\"3\" width=\"10\" height=\"10\"/><text x=\"70\" y=\"12\">write</text>";
    body += fmt::format("<text class=\"unit\" x=\"{}\" y=\"12\" text-anchor=\"end\">{}</text></g>", chart_width, html_escape(unit));
    y = 30;
    std::string ticks;
    const double tick_y = y;
    for (int k = 0; k * axis.step <= axis.end + axis.step / 2; ++k) {
        const double t = k * axis.step, x = x_of(t);
        ticks += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\">{}</text>", x, tick_y,
                             x < 8 ? "start" : "middle", tick_text(t));
    }
    y += 6;
    const double grid_top = y;
    for (const auto& it : items) {
        switch (it.kind) {
        case Item::heading:
            y += 4;
            body += fmt::format("<text class=\"hd\" x=\"0\" y=\"{:.1f}\">{}</text>", y + 14, html_escape(truncate(it.text, 54)));
            y += 21;
            break;
        case Item::label:
            body += fmt::format("<text class=\"lbl\" x=\"0\" y=\"{:.1f}\">{}</text>", y + 12, html_escape(truncate(it.text, 58)));
            y += 16;
            break;
        case Item::bar: {
            if (!it.text.empty()) body += fmt::format("<text class=\"tag\" x=\"0\" y=\"{:.1f}\">{}</text>", y + 9.5, html_escape(it.text));
            if (it.value) {
                const double w = std::max(x_of(*it.value) - x0, 0.75);
                body += fmt::format("<rect class=\"s{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"11\"><title>{}</title></rect>",
                                    it.series, x0, y, w, html_escape(it.tip));
                body += fmt::format("<text class=\"val\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>", x0 + w + 4, y + 9.5,
                                    html_escape(it.value_text));
            } else {
                body += fmt::format("<text class=\"val none\" x=\"{:.1f}\" y=\"{:.1f}\">{}<title>{}</title></text>", x0 + 2, y + 9.5,
                                    missing_text, html_escape(it.tip));
            }
            y += 13;
            break;
        }
        case Item::note:
            body += fmt::format("<text class=\"err\" x=\"0\" y=\"{:.1f}\">{}</text>", y + 11, html_escape(truncate(it.text, 58)));
            y += 16;
            break;
        case Item::gap: y += it.height; break;
        }
    }
    const double height = std::ceil(y + 6);
    std::string grid;
    for (int k = 0; k * axis.step <= axis.end + axis.step / 2; ++k)
        grid += fmt::format("<line class=\"grid\" x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\"/>", x_of(k * axis.step),
                            grid_top, y);
    return fmt::format("<svg id=\"{0}\" class=\"chart {1}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {2} {3}\" width=\"{2}\" "
                       "height=\"{3}\" role=\"img\" aria-labelledby=\"{0}-t\"><title id=\"{0}-t\">{4}</title>{5}{6}{7}</svg>",
                       id, cls, chart_width, height, html_escape(title), grid, ticks, body);
}

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

void seq_entry(std::vector<Item>& items, const Bundle& b, const std::string& label, const std::string& where)
{
    items.push_back({Item::label, label, {}, 0, {}, {}, 0});
    const auto& r = b.results;
    if (!r.seq_read_mb_s && !r.seq_write_mb_s && !b.error.empty()) {
        items.push_back({Item::note, "error: " + b.error, {}, 0, {}, {}, 0});
        return;
    }
    for (const int s : {0, 1}) {
        const auto v = s ? r.seq_write_mb_s : r.seq_read_mb_s;
        std::string tip = fmt::format("{}: sequential {} {}", where, s ? "write" : "read", v ? mb_s_text(v) + " MB/s" : "not measured");
        const std::string pub = published(b, s ? "seq_write" : "seq_read");
        if (!pub.empty()) tip += " (" + pub + ")";
        items.push_back({Item::bar, {}, v, s, v ? mb_s_text(v) + " MB/s" : "", tip, 0});
    }
}

bool has_seq_or_error(const Bundle& b)
{
    return b.results.seq_read_mb_s || b.results.seq_write_mb_s || !b.error.empty();
}

std::string chart_by_interface(const Report& rep, const Group& g, const std::string& id)
{
    std::vector<Item> items;
    for (std::size_t c = 0; c < g.hosts.size(); ++c) {
        bool any = false;
        for (std::size_t r = 0; r < g.cards.size(); ++r) any = any || (g.cell[r][c] >= 0 && has_seq_or_error(rep.bundles[g.cell[r][c]]));
        if (!any) continue;
        items.push_back({Item::heading, g.hosts[c], {}, 0, {}, {}, 0});
        for (std::size_t r = 0; r < g.cards.size(); ++r) {
            const int i = g.cell[r][c];
            if (i < 0 || !has_seq_or_error(rep.bundles[i])) continue;
            seq_entry(items, rep.bundles[i], g.cards[r], g.cards[r] + " on " + g.hosts[c]);
            items.push_back({Item::gap, {}, {}, 0, {}, {}, 5});
        }
    }
    return render_chart(id, "by-interface", "Sequential read and write speed by interface (grouped by host), MB/s", items, "MB/s", false);
}

std::string chart_by_card(const Report& rep, const Group& g, const std::string& id)
{
    std::vector<Item> items;
    for (std::size_t r = 0; r < g.cards.size(); ++r) {
        bool any = false;
        for (std::size_t c = 0; c < g.hosts.size(); ++c) any = any || (g.cell[r][c] >= 0 && has_seq_or_error(rep.bundles[g.cell[r][c]]));
        if (!any) continue;
        items.push_back({Item::heading, g.cards[r], {}, 0, {}, {}, 0});
        for (std::size_t c = 0; c < g.hosts.size(); ++c) {
            const int i = g.cell[r][c];
            if (i < 0 || !has_seq_or_error(rep.bundles[i])) continue;
            seq_entry(items, rep.bundles[i], g.hosts[c], g.cards[r] + " on " + g.hosts[c]);
            items.push_back({Item::gap, {}, {}, 0, {}, {}, 5});
        }
    }
    return render_chart(id, "by-card", "Sequential read and write speed by card (grouped by card), MB/s", items, "MB/s", false);
}

std::string chart_iops(const Report& rep, const Group& g, const std::string& id)
{
    std::vector<Item> items;
    for (const std::size_t m : g.in_row_order()) {
        const Bundle& b = rep.bundles[g.members[m]];
        if (b.results.rand_read_iops.empty() && b.results.rand_write_iops.empty()) continue;
        const std::string where = g.member_label(m);
        items.push_back({Item::label, where, {}, 0, {}, {}, 0});
        for (std::size_t k = 0; k < iops_keys.size(); ++k) {
            const auto key = iops_keys[k];
            const auto rd = rand_iops(b.results, false, key), wr = rand_iops(b.results, true, key);
            if (!rd && !wr) continue;
            std::string tag(key);
            std::transform(tag.begin(), tag.end(), tag.begin(), [](char c) { return c == 'k' ? 'K' : c; });
            for (const int s : {0, 1}) {
                const auto v = s ? wr : rd;
                std::string tip = fmt::format("{}: random {} {} {}", where, s ? "write" : "read", tag,
                                              v ? iops_text(v) + " IOPS" : "not measured");
                const std::string pub = published(b, fmt::format("rand_{}_{}", s ? "write" : "read", key));
                if (!pub.empty()) tip += " (" + pub + ")";
                items.push_back({Item::bar, s ? "" : tag, v, s, v ? iops_text(v) + " IOPS" : "", tip, 0});
            }
            items.push_back({Item::gap, {}, {}, 0, {}, {}, 3});
        }
        items.push_back({Item::gap, {}, {}, 0, {}, {}, 6});
    }
    return render_chart(id, "iops", "Random read and write IOPS at QD1 by block size", items, "IOPS", true);
}

// ---- tables ----------------------------------------------------------------

std::string td_num(const std::string& text, const std::string& title = "")
{
    const bool none = text == missing_text;
    return fmt::format("<td class=\"num{}\"{}>{}</td>", none ? " none" : "", title.empty() ? "" : " title=\"" + html_escape(title) + "\"",
                       html_escape(text));
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

std::string badge(const Word<VerdictResult>& result)
{
    const char* cls = result == VerdictResult::pass ? "pass" : result == VerdictResult::fail ? "fail" : "na";
    return fmt::format("<span class=\"badge {}\">{}</span>", cls, html_escape(result.empty() ? missing_text : result.text()));
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

std::string chart_health(const Report& rep, const Group& g, const std::string& id)
{
    std::vector<Item> items;
    for (const auto& card : health_histories(rep, g)) {
        bool any = false;
        for (const auto& r : card.readings) any = any || r.health->life_used_percent;
        if (!any) continue;
        items.push_back({Item::heading, card.card, {}, 0, {}, {}, 0});
        for (const auto& r : card.readings) {
            const auto v = r.health->life_used_percent;
            items.push_back({Item::label, r.date.empty() ? missing_text : r.date, {}, 0, {}, {}, 0});
            items.push_back({Item::bar, {}, v, 1, v ? life_used_text(*r.health) : "",
                             fmt::format("{} on {}: life used {} ({})", card.card, r.date, life_used_text(*r.health), r.health->verdict), 0});
        }
        items.push_back({Item::gap, {}, {}, 0, {}, {}, 5});
    }
    if (items.empty()) return {};
    return render_chart(id, "health", "Life used over time, per card, %", items, "%", false);
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

// ---- card registers ----------------------------------------------------------

const nlohmann::ordered_json* decoded(const Bundle& b, const char* reg, const char* key)
{
    const auto& r = b.registers;
    if (!r.is_object() || !r.contains("registers") || !r["registers"].is_object()) return nullptr;
    const auto& regs = r["registers"];
    if (!regs.contains(reg) || !regs[reg].is_object() || !regs[reg].contains("decoded")) return nullptr;
    const auto& d = regs[reg]["decoded"];
    if (!d.is_object() || !d.contains(key) || d[key].is_null()) return nullptr;
    return &d[key];
}

std::string decoded_text(const Bundle& b, const char* reg, const char* key)
{
    const auto* v = decoded(b, reg, key);
    if (!v) return {};
    return v->is_string() ? v->get<std::string>() : v->dump();
}

std::string capacity_text(uint64_t bytes)
{
    // Decimal GB as on the label, then the binary size and the count.
    return fmt::format("{:.4g} GB ({}, {} bytes)", static_cast<double>(bytes) / 1e9, cli::format_bytes(bytes), bytes);
}

std::string card_box(const Bundle& b, const std::string& title)
{
    std::vector<std::pair<std::string, std::string>> rows;
    auto add = [&](const char* k, const std::string& v) {
        if (!v.empty()) rows.emplace_back(k, v);
    };
    add("Manufacturer", b.card.manufacturer);
    std::string product = b.card.product;
    if (const auto rev = decoded_text(b, "cid", "revision"); !rev.empty() && !product.empty()) product += " rev " + rev;
    add("Product", product);
    add("Serial", b.card.serial);
    add("Made", decoded_text(b, "cid", "date"));
    if (b.card.capacity_bytes) add("Capacity", capacity_text(*b.card.capacity_bytes));
    std::string type = b.card.type.text();
    if (const auto cc = decoded_text(b, "csd", "capacity_class"); !cc.empty()) type += (type.empty() ? "" : ", ") + cc;
    add("Type", type);
    if (b.card.type != CardType::mmc) {
        const std::string classes = classes_text(b.card.classes);
        add("Classes", classes.empty() && !b.card.classes.speed_class.empty() ? "none claimed" : classes);
    }
    if (const auto sd = decoded_text(b, "scr", "spec_version"); !sd.empty()) add("SD spec", "SD " + sd);
    if (const auto mmc = decoded_text(b, "ext_csd", "mmc_version"); !mmc.empty()) add("eMMC version", "eMMC " + mmc);
    if (const auto au = decoded(b, "ssr", "au_size_bytes"); au && au->is_number() && au->get<double>() > 0)
    {
        const double bytes = au->get<double>();
        add("Allocation unit", cli::format_bytes(static_cast<uint64_t>(bytes)));
    }
    std::string bus = b.host.bus_mode;
    if (b.bus.is_object()) {
        if (b.bus.contains("ceiling_mb_s") && b.bus["ceiling_mb_s"].is_number())
            bus += fmt::format("{}ceiling {} MB/s", bus.empty() ? "" : ", ", mb_s_text(b.bus["ceiling_mb_s"].get<double>()));
        if (b.bus.contains("limit") && b.bus["limit"].is_string() && !b.bus["limit"].get<std::string>().empty())
            bus += fmt::format(", limit: {}", b.bus["limit"].get<std::string>());
    }
    add("Bus mode", bus);
    add("Controller", b.host.controller);
    add("Kernel", b.host.kernel);
    if (rows.empty()) return {};
    std::string h = fmt::format("<article class=\"card-info\"><h4>{}</h4><dl>", html_escape(title));
    for (const auto& [k, v] : rows) h += fmt::format("<dt>{}</dt><dd>{}</dd>", k, html_escape(v));
    return h + "</dl></article>";
}

constexpr const char* css = R"(
:root{--read:#2f6db5;--write:#d9711c;--ink:#1d232a;--muted:#5c6670;--line:#d5dbe1;--bg:#fff;--soft:#f3f5f7}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0 auto;max-width:1200px;padding:12px 16px 40px;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:var(--bg)}
h1{font-size:1.6em;margin:.4em 0 .2em}
h2{font-size:1.3em;margin:1.6em 0 .3em;padding-top:.6em;border-top:2px solid var(--line)}
h3{font-size:1.05em;margin:1.3em 0 .4em}
h4{margin:0 0 .3em;font-size:1em}
p.lead,.meta{color:var(--muted);margin:.2em 0}
nav ol{padding-left:1.3em;margin:.4em 0}
dl.provenance{display:grid;grid-template-columns:max-content 1fr;gap:.15em .8em;margin:.4em 0}
dl.provenance dt{font-weight:600;color:var(--muted)}
dl.provenance dd{margin:0;overflow-wrap:anywhere}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(300px,100%),1fr));gap:12px 24px;align-items:start}
figure{margin:0;min-width:0}
figcaption{font-size:.9em;color:var(--muted);margin:.2em 0 .5em}
svg.chart{display:block;width:100%;max-width:560px;height:auto}
svg.chart text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;font-size:12px;fill:var(--ink)}
svg.chart .hd{font-size:13px;font-weight:700}
svg.chart .tick,svg.chart .unit{font-size:10px;fill:var(--muted)}
svg.chart .val{font-size:11px}
svg.chart .none{fill:var(--muted)}
svg.chart .tag{font-size:11px;font-weight:600;fill:var(--muted)}
svg.chart .err{fill:#b3261e;font-size:12px}
svg.chart .grid{stroke:var(--line);stroke-width:1}
svg.chart .s0{fill:var(--read)}
svg.chart .s1{fill:var(--write)}
svg.chart .curve{fill:none;stroke:var(--write);stroke-width:1.5}
svg.chart .knee{stroke:var(--muted);stroke-dasharray:4 3}
svg.chart .class-line{stroke:#b3261e;stroke-dasharray:6 3}
svg.chart .mark{font-size:10px;fill:var(--muted)}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.5em 0 1em}
table{border-collapse:collapse;font-size:.92em}
caption{text-align:left;font-weight:600;padding:.2em 0 .4em}
th,td{padding:.25em .55em;border-bottom:1px solid var(--line);vertical-align:top}
thead th{background:var(--soft);text-align:center;white-space:normal;min-width:4.5em}
tbody th{text-align:left;font-weight:500;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.none{color:var(--muted)}
td.err{color:#b3261e;font-weight:600}
td.why{font-size:.88em;color:var(--muted);min-width:16em}
.badge{display:inline-block;padding:.05em .55em;border-radius:1em;font-size:.85em;font-weight:700;white-space:nowrap;border:1px solid transparent}
.badge.pass{background:#e3f4e6;color:#17612a;border-color:#9fd3aa}
.badge.fail{background:#fde7e6;color:#a1231b;border-color:#f1a9a4}
.badge.na{background:var(--soft);color:var(--muted);border-color:var(--line)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:12px}
.card-info{border:1px solid var(--line);border-radius:6px;padding:.6em .8em;background:var(--soft)}
.card-info dl{display:grid;grid-template-columns:max-content 1fr;gap:.1em .7em;margin:0;font-size:.9em}
.card-info dt{color:var(--muted)}
.card-info dd{margin:0;overflow-wrap:anywhere}
ul.problems{padding-left:1.2em}
ul.problems li{color:#a1231b}
details{margin-top:2em;color:var(--muted);font-size:.9em}
footer{margin-top:2em;color:var(--muted);font-size:.85em}
@media (max-width:600px){body{padding:8px 10px 30px;font-size:14px}h1{font-size:1.3em}dl.provenance{grid-template-columns:1fr}dl.provenance dt{margin-top:.3em}
 svg.chart text{font-size:13px}svg.chart .hd{font-size:14px}svg.chart .val,svg.chart .tag{font-size:12px}svg.chart .tick,svg.chart .unit{font-size:11px}}
@media print{
 *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 body{max-width:none;padding:0;font-size:10pt;color:#000}
 nav,details{display:none}
 section.group{break-before:page}
 section.group:first-of-type{break-before:auto}
 figure,table,.card-info{break-inside:avoid}
 h2,h3{break-after:avoid}
 .charts{display:block}
 svg.chart{max-width:12.5cm;margin-bottom:.4cm}
 .table-wrap{overflow:visible}
 table{font-size:8.5pt}
 tbody th{white-space:normal}
 td.why{min-width:0}
 a{color:inherit;text-decoration:none}
 a[href^="http"]::after{content:" <" attr(href) ">";font-size:85%;overflow-wrap:anywhere}
}
)";

} // namespace

std::string html_report(const Report& rep, const HtmlOptions& o)
{
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    h += fmt::format("<meta name=\"generator\" content=\"mmc-report {}\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
                     mmc::version, html_escape(o.title), css);
    h += fmt::format("<header><h1>{}</h1><p class=\"lead\">{} result{} in {} group{}. MB/s is 10<sup>6</sup> bytes per second; "
                     "\u201c{}\u201d marks a figure that was not measured or not published (never zero).</p>",
                     html_escape(o.title), rep.bundles.size(), rep.bundles.size() == 1 ? "" : "s", rep.groups.size(),
                     rep.groups.size() == 1 ? "" : "s", missing_text);
    if (rep.groups.size() > 1) {
        h += "<nav><ol>";
        for (std::size_t gi = 0; gi < rep.groups.size(); ++gi)
            h += fmt::format("<li><a href=\"#group-{}\">{}</a></li>", gi + 1, html_escape(rep.groups[gi].title));
        h += "</ol></nav>";
    }
    h += "</header>\n<main>\n";
    for (std::size_t gi = 0; gi < rep.groups.size(); ++gi) {
        const Group& g = rep.groups[gi];
        const std::string gid = fmt::format("group-{}", gi + 1);
        h += fmt::format("<section class=\"group {}\" id=\"{}\">\n<h2>{}</h2>\n", to_string(g.kind), gid, html_escape(g.title));
        h += fmt::format("<p class=\"meta\">{}: {} result{}, {} card{} on {} host{}.</p>", g.kind == BundleKind::imported ? "Imported from a published study" : "Measured with mmckit",
                         g.members.size(), g.members.size() == 1 ? "" : "s", g.cards.size(), g.cards.size() == 1 ? "" : "s",
                         g.hosts.size(), g.hosts.size() == 1 ? "" : "s");
        h += "<dl class=\"provenance\">";
        if (g.source && !g.source->method.empty()) h += fmt::format("<dt>Method</dt><dd>{}</dd>", html_escape(g.source->method));
        h += fmt::format("<dt>Units</dt><dd>{}</dd>", html_escape(units_line(g)));
        if (g.source && !g.source->url.empty())
            h += fmt::format("<dt>Source</dt><dd>{}</dd>", source_link(g.source->url));
        if (g.source && !g.source->notes.empty()) h += fmt::format("<dt>Notes</dt><dd>{}</dd>", html_escape(g.source->notes));
        h += "</dl>\n";

        if (g.has_sequential(rep.bundles)) {
            h += "<h3>Sequential read and write</h3>\n<div class=\"charts\">";
            h += "<figure><figcaption>By interface: each host with the cards tested on it.</figcaption>" +
                 chart_by_interface(rep, g, gid + "-by-interface") + "</figure>";
            h += "<figure><figcaption>By card: each card on the hosts it was tested on.</figcaption>" + chart_by_card(rep, g, gid + "-by-card") +
                 "</figure>";
            h += "</div>\n" + html_seq_table(rep, g) + "\n";
        }
        if (g.has_random(rep.bundles)) {
            h += "<h3>Random I/O</h3>\n<div class=\"charts\"><figure><figcaption>Random IOPS at queue depth 1, per block size.</figcaption>" +
                 chart_iops(rep, g, gid + "-iops") + "</figure></div>\n" + html_random_table(rep, g) + "\n";
        }
        if (!g.has_sequential(rep.bundles) && !g.has_random(rep.bundles)) h += "<p>No figures.</p>\n";
        if (g.has_verdicts(rep.bundles)) h += "<h3>Verdicts</h3>\n" + html_verdict_table(rep, g) + "\n";
        if (g.has_probe(rep.bundles)) h += "<h3>Flash geometry and capacity</h3>\n" + html_probe_table(rep, g) + "\n";
        if (g.has_state(rep.bundles)) h += "<h3>What erasing bought</h3>\n" + state_list(rep, g) + "\n";
        if (g.has_sustained(rep.bundles)) {
            h += "<h3>Sustained writes</h3>\n<div class=\"charts\">";
            for (const std::size_t m : g.in_row_order())
                if (const auto& curve = rep.bundles[g.members[m]].sustained)
                    h += "<figure><figcaption>Throughput against bytes written: the SLC cache's knee and the class line "
                         "marked.</figcaption>" +
                         sustained_chart(*curve, fmt::format("{}-sustained-{}", gid, m), g.member_label(m)) + "</figure>";
            h += "</div>\n";
        }
        if (g.has_health(rep.bundles)) {
            h += "<h3>Health</h3>\n";
            if (const auto chart = chart_health(rep, g, gid + "-health"); !chart.empty())
                h += "<div class=\"charts\"><figure><figcaption>Life used, each reading of each card, oldest first.</figcaption>" + chart +
                     "</figure></div>\n";
            h += html_health_table(rep, g) + "\n";
        }

        std::string boxes;
        for (const std::size_t m : g.in_row_order()) {
            const Bundle& b = rep.bundles[g.members[m]];
            if (b.registers.is_null()) continue;
            boxes += card_box(b, g.member_label(m));
        }
        if (!boxes.empty()) h += "<h3>Cards</h3>\n<div class=\"cards\">" + boxes + "</div>\n";

        std::string problems;
        for (const std::size_t m : g.in_row_order()) {
            const Bundle& b = rep.bundles[g.members[m]];
            if (!b.error.empty()) problems += fmt::format("<li>{}: error: {}</li>", html_escape(g.member_label(m)), html_escape(b.error));
            for (const auto& s : b.steps)
                if (!s.ok)
                    problems += fmt::format("<li>{}: step {} failed{}{}</li>", html_escape(g.member_label(m)), html_escape(s.name),
                                            s.message.empty() ? "" : ": ", html_escape(s.message));
        }
        if (!problems.empty()) h += "<h3>Problems</h3>\n<ul class=\"problems\">" + problems + "</ul>\n";
        h += "</section>\n";
    }
    h += "</main>\n<details><summary>Bundles read</summary><ol>";
    for (const auto& b : rep.bundles) h += fmt::format("<li>{}</li>", html_escape(b.path.empty() ? b.card.label + " @ " + b.host.label : b.path));
    h += "</ol></details>\n";
    h += fmt::format("<footer>Made by mmc-report {} (mmckit){}.</footer>\n</body>\n</html>\n", mmc::version,
                     o.generated.empty() ? "" : " on " + html_escape(o.generated));
    return h;
}

} // namespace mmc::report
