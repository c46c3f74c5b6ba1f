// The report as one self-contained HTML page: inline CSS and SVG charts, no
// scripts, no network. Readable on a phone (responsive, viewport meta) and
// in print (@media print).
#pragma once

#include "report/tables.h"

#include <string>
#include <string_view>

namespace mmc::report {

struct HtmlOptions {
    std::string title = "SD/MMC card performance";
    std::string generated; // ISO-8601 UTC, shown in the header
};

// Per group: sequential read and write bar charts "by interface" (grouped
// by host) and "by card" (grouped by card), the random-I/O chart, the
// tables of the text view, verdict badges and each measured card's key
// registers; where bundles carry mmc-health's document, the latest health
// per card and a chart of life used over time. SVG classes: "chart
// by-interface", "chart by-card", "chart iops", "chart health".
std::string html_report(const Report& report, const HtmlOptions& options);

std::string html_escape(std::string_view text);

// True for an http:// or https:// URL (scheme in any case); the page links
// nothing else that came from a bundle.
bool is_web_url(std::string_view url);
// The URL as a link when it is http(s), else as escaped text that says why.
std::string source_link(std::string_view url);

// The axis of a bar chart: a tick step of 1, 2 or 5 times a power of ten
// giving about four ticks, and the axis end, a whole number of steps at or
// above max.
struct Axis {
    double step = 1, end = 1;
};
Axis nice_axis(double max);

} // namespace mmc::report
