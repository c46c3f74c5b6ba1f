#include "health/nagios_range.h"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::health {

namespace {

// A whole finite decimal number ("10", "-5", "2.5"), nothing else: no
// spaces, no "inf" or "nan", no trailing junk.
double range_number(std::string_view text, std::string_view full, std::string_view where)
{
    double v = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v, std::chars_format::fixed);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v))
        throw std::invalid_argument(fmt::format("'{}': expected a number {}, e.g. 10, 10:, ~:10, 10:20 or @10:20", full, where));
    return v;
}

} // namespace

bool NagiosRange::alerts(double value) const
{
    const bool within = (!start || value >= *start) && (!end || value <= *end);
    return inside ? within : !within;
}

NagiosRange parse_nagios_range(std::string_view text)
{
    NagiosRange r;
    r.text = std::string(text);
    std::string_view rest = text;
    if (!rest.empty() && rest.front() == '@') {
        r.inside = true;
        rest.remove_prefix(1);
    }
    const auto colon = rest.find(':');
    if (colon == std::string_view::npos) {
        // "10": from 0 to 10.
        r.start = 0.0;
        r.end = range_number(rest, text, "as the range's end");
    } else {
        const std::string_view first = rest.substr(0, colon), second = rest.substr(colon + 1);
        if (first == "~") r.start.reset();
        else r.start = range_number(first, text, "or ~ before ':'");
        if (!second.empty()) r.end = range_number(second, text, "or nothing after ':'");
    }
    if (r.start && r.end && *r.start > *r.end)
        throw std::invalid_argument(fmt::format("'{}': the start {:g} is above the end {:g}", text, *r.start, *r.end));
    return r;
}

} // namespace mmc::health
