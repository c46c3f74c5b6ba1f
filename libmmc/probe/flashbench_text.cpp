#include "probe/flashbench_text.h"

#include "cli/size.h"

#include <charconv>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>

namespace mmc::probe {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// The words of a line: split on spaces and tabs.
std::vector<std::string> words(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;) w.push_back(s);
    return w;
}

std::optional<uint64_t> number(std::string_view s)
{
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

// "--blocksize=1024", "--blocksize 1024", "-b 1024" on a pasted command line.
std::optional<uint64_t> blocksize_of(const std::vector<std::string>& w)
{
    for (std::size_t i = 0; i < w.size(); ++i) {
        std::string_view s = w[i];
        std::string value;
        if (starts_with(s, "--blocksize=")) value = s.substr(12);
        else if ((s == "--blocksize" || s == "-b") && i + 1 < w.size()) value = w[i + 1];
        else continue;
        try {
            return cli::parse_size(value);
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<double> parse_flashbench_time(std::string_view w)
{
    if (w.empty()) return std::nullopt;
    std::string s(w);
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end == s.c_str()) return std::nullopt;
    const std::string_view unit(end);
    if (unit.empty() || unit == "n" || unit == "ns") return v;
    if (unit == "µs" || unit == "us" || unit == "µ" || unit == "u" || unit == "\xb5s") return v * 1e3;
    if (unit == "ms" || unit == "m") return v * 1e6;
    if (unit == "s") return v * 1e9;
    return std::nullopt;
}

FlashbenchText parse_flashbench(std::string_view text)
{
    FlashbenchText out;
    std::istringstream in{std::string(text)};
    unsigned lineno = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineno;
        const auto w = words(line);
        if (w.empty()) continue;
        // "align N pre T on T post T diff T", perhaps after a prompt or a quote mark.
        std::size_t a = 0;
        while (a < w.size() && w[a] != "align") ++a;
        if (a == w.size()) {
            if (!out.blocksize) out.blocksize = blocksize_of(w);
            continue;
        }
        LadderRow row;
        const auto align = a + 1 < w.size() ? number(w[a + 1]) : std::nullopt;
        if (!align || *align == 0) {
            out.notes.push_back(fmt::format("line {}: no alignment after \"align\"", lineno));
            continue;
        }
        row.align = *align;
        bool pre = false, on = false, post = false;
        for (std::size_t i = a + 2; i + 1 < w.size(); i += 2) {
            const auto t = parse_flashbench_time(w[i + 1]);
            if (!t) break;
            if (w[i] == "pre") row.pre_ns = *t, pre = true;
            else if (w[i] == "on") row.on_ns = *t, on = true;
            else if (w[i] == "post") row.post_ns = *t, post = true;
            // "diff" is recomputed from the three: flashbench cuts it to 7 characters.
        }
        if (!(pre && on && post)) {
            out.notes.push_back(fmt::format("line {}: align {} cut off before its pre, on and post times", lineno, row.align));
            continue;
        }
        out.ladder.rows.push_back(row);
    }
    if (out.ladder.rows.empty()) throw FlashbenchParseError("no \"align N pre T on T post T\" line: not the output of flashbench -a");
    if (out.blocksize) out.ladder.read_bytes = *out.blocksize;
    return out;
}

} // namespace mmc::probe
