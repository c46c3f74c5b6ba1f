// The HTML report's SVG bar charts: sequential speed by interface and by
// card, random IOPS per block size, and life used over time.
#include "report/html.h"
#include "report/html_parts.h"

#include "cli/text_table.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace mmc::report {

namespace {

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
        const std::string pub = html_parts::published(b, s ? "seq_write" : "seq_read");
        if (!pub.empty()) tip += " (" + pub + ")";
        items.push_back({Item::bar, {}, v, s, v ? mb_s_text(v) + " MB/s" : "", tip, 0});
    }
}

bool has_seq_or_error(const Bundle& b)
{
    return b.results.seq_read_mb_s || b.results.seq_write_mb_s || !b.error.empty();
}

} // namespace

namespace html_parts {

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

} // namespace html_parts

} // namespace mmc::report
