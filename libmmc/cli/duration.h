// The one duration parser every option that takes a time shares, so that
// "--runtime 10", "--timeout 1.5s" and "--page-read 150us" are one language:
// a number with an optional unit, seconds without one (as timeout(1) and
// fio read it).
//
// Defined here, inline, rather than in a duration.cpp: the nbdkit plugin
// compiles only the few libmmc sources it needs (PLUGIN_SRC in the Makefile),
// and sim/params.cpp, one of them, reads its times with it.
#pragma once

#include "cli/cli.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>
#include <string_view>

namespace mmc::cli {

using Duration = std::chrono::duration<double, std::nano>;

// "10", "1.5", "10s", "500ms", "100us" (or "µs"), "800ns", "2m", "1h".
// Not negative, not infinite. Throws std::invalid_argument quoting the text.
inline Duration parse_duration(std::string_view text)
{
    const auto expected = [&] {
        return std::invalid_argument(fmt::format("'{}': expected a time like 10s, 500ms, 2m or 1.5 (seconds)", text));
    };
    double n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n, std::chars_format::fixed);
    if (ec != std::errc() || end == text.data() || !std::isfinite(n)) throw expected();
    if (n < 0) throw std::invalid_argument(fmt::format("'{}': a time cannot be negative", text));
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    double ns_per_unit = 0;
    if (unit.empty() || unit == "s") ns_per_unit = 1e9;
    else if (unit == "ms") ns_per_unit = 1e6;
    else if (unit == "us" || unit == "µs") ns_per_unit = 1e3;
    else if (unit == "ns") ns_per_unit = 1;
    else if (unit == "m") ns_per_unit = 60e9;
    else if (unit == "h") ns_per_unit = 3600e9;
    else throw std::invalid_argument(fmt::format("'{}': unknown unit '{}' (use ns, us, ms, s, m or h; seconds without one)", text, unit));
    return Duration(n * ns_per_unit);
}

// True when text is a time parse_duration reads: lets an option whose time
// is optional ("--measure[=TIME]") take the separate form "--measure 5".
inline bool reads_as_time(std::string_view text)
{
    try {
        parse_duration(text);
        return true;
    } catch (const std::invalid_argument&) {
        return false;
    }
}

// parse_duration in seconds, for the options that keep seconds.
inline double parse_seconds(std::string_view text) { return std::chrono::duration<double>(parse_duration(text)).count(); }

// parse_seconds for a command-line option: a bad value is a UsageError that
// names the option ("--runtime: '5d': unknown unit 'd' ...").
inline double seconds_option(std::string_view option, std::string_view text)
{
    try {
        return parse_seconds(text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("{}: {}", option, e.what()));
    }
}

} // namespace mmc::cli
