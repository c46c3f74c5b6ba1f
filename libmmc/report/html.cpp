// The HTML report's page: its head with the style sheet (report.css,
// compiled in), the groups' sections with the charts, tables and card
// boxes of html_parts.h, and the escaping and linking every part uses.
#include "report/html.h"
#include "report/html_parts.h"

#include "report/report.css.h" // generated in build/gen from report/report.css
#include "report/sustained_chart.h"
#include "version.h"

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

std::string html_report(const Report& rep, const HtmlOptions& o)
{
    using namespace html_parts;
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    h += fmt::format("<meta name=\"generator\" content=\"mmc-report {}\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
                     mmc::version, html_escape(o.title), embedded_report_css);
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
        if (g.has_tune(rep.bundles)) h += "<h3>Tuning</h3>\n" + html_tune_table(rep, g) + "\n";

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
