#include "report/sustained_chart.h"

#include "cli/size.h"
#include "report/html.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::report {

namespace sustained_svg {

constexpr double width = 440, height = 220;
constexpr double left = 40, right = 8, top = 28, bottom = 30; // room for the axes' labels

// An axis of bytes in whole GiB or MiB steps.
std::string bytes_tick(double bytes) { return cli::format_bytes(static_cast<uint64_t>(bytes)); }

} // namespace sustained_svg

using namespace sustained_svg;

std::string sustained_chart(const SustainedCurve& c, const std::string& id, const std::string& label)
{
    if (c.points.empty()) return {};
    double max_y = c.class_mb_s.value_or(0);
    for (const auto& p : c.points) max_y = std::max(max_y, p.mb_s);
    const Axis ya = nice_axis(max_y);
    const double max_x = static_cast<double>(c.points.back().written);
    const Axis xa = nice_axis(max_x);
    const double pw = width - left - right, ph = height - top - bottom;
    auto x_of = [&](double b) { return left + pw * b / xa.end; };
    auto y_of = [&](double v) { return top + ph * (1 - v / ya.end); };

    std::string grid, ticks;
    for (int k = 0; k * ya.step <= ya.end + ya.step / 2; ++k) {
        const double v = k * ya.step, y = y_of(v);
        grid += fmt::format("<line class=\"grid\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>", left, width - right, y, y);
        ticks += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:g}</text>", left - 4, y + 3, v);
    }
    for (int k = 0; k * xa.step <= xa.end + xa.step / 2; ++k) {
        const double b = k * xa.step;
        ticks += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>", x_of(b),
                             height - bottom + 13, html_escape(bytes_tick(b)));
    }
    // The curve: each stretch's throughput as a step over its bytes.
    std::string path;
    double from = 0;
    for (const auto& p : c.points) {
        const double y = y_of(p.mb_s);
        path += fmt::format("{}{:.1f},{:.1f} {:.1f},{:.1f}", path.empty() ? "" : " ", x_of(from), y, x_of(static_cast<double>(p.written)), y);
        from = static_cast<double>(p.written);
    }
    std::string marks;
    if (c.class_mb_s) {
        const double y = y_of(*c.class_mb_s);
        marks += fmt::format("<line class=\"class-line\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>", left, width - right, y, y);
        marks += fmt::format("<text class=\"mark\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{} {:g} MB/s</text>", width - right - 2,
                             y - 3, html_escape(c.class_name), *c.class_mb_s);
    }
    if (c.knee_bytes) {
        const double x = x_of(static_cast<double>(*c.knee_bytes));
        marks += fmt::format("<line class=\"knee\" x1=\"{:.1f}\" x2=\"{:.1f}\" y1=\"{:.1f}\" y2=\"{:.1f}\"/>", x, x, top, height - bottom);
        marks += fmt::format("<text class=\"mark\" x=\"{:.1f}\" y=\"{:.1f}\">SLC cache {}</text>", x + 3, top + 10,
                             html_escape(cli::format_bytes(*c.knee_bytes)));
    }
    const std::string title = fmt::format("{}: write throughput against bytes written{}", label,
                                          c.knee_bytes ? fmt::format(", knee at {}", cli::format_bytes(*c.knee_bytes)) : ", no knee");
    const std::string legend = fmt::format("<text class=\"unit\" x=\"0\" y=\"12\">{}</text><text class=\"unit\" x=\"{}\" y=\"12\" "
                                           "text-anchor=\"end\">MB/s against bytes written</text>",
                                           html_escape(label), width);
    return fmt::format("<svg id=\"{0}\" class=\"chart sustained\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {1} {2}\" "
                       "width=\"{1}\" height=\"{2}\" role=\"img\" aria-labelledby=\"{0}-t\"><title id=\"{0}-t\">{3}</title>{4}{5}{6}"
                       "<polyline class=\"curve\" points=\"{7}\"/>{8}</svg>",
                       id, width, height, html_escape(title), legend, grid, ticks, path, marks);
}

} // namespace mmc::report
