#include "probe/flashbench_text.h"

#include "cli/size.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
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
    // The text as one stream of words, each with its line: a row is found by
    // its pattern ("align N pre T on T post T diff T"), not by the line it is
    // on, because mail clients and archives rewrap pastes (two rows a line,
    // every row on one line, a row broken mid-way).
    struct Word {
        std::string text;
        unsigned line;
    };
    std::vector<Word> all;
    {
        std::istringstream in{std::string(text)};
        unsigned lineno = 0;
        for (std::string line; std::getline(in, line);) {
            ++lineno;
            for (auto& w : words(line)) all.push_back({std::move(w), lineno});
        }
    }
    FlashbenchText out;
    std::vector<std::string> other; // the words outside rows: a pasted command line
    std::map<unsigned, unsigned> rows_on_line;
    unsigned broken_rows = 0;
    for (std::size_t i = 0; i < all.size();) {
        if (all[i].text != "align") {
            other.push_back(all[i++].text);
            continue;
        }
        const unsigned lineno = all[i].line;
        LadderRow row;
        const auto align = i + 1 < all.size() ? number(all[i + 1].text) : std::nullopt;
        if (!align || *align == 0) {
            out.notes.push_back(fmt::format("line {}: no alignment after \"align\"", lineno));
            ++i;
            continue;
        }
        row.align = *align;
        ++rows_on_line[lineno];
        bool pre = false, on = false, post = false, diff = false;
        std::size_t j = i + 2;
        // Each of pre, on, post and diff once; anything else ends the row.
        for (; j + 1 < all.size(); j += 2) {
            const std::string& key = all[j].text;
            bool* seen = key == "pre" ? &pre : key == "on" ? &on : key == "post" ? &post : key == "diff" ? &diff : nullptr;
            const auto t = seen && !*seen ? parse_flashbench_time(all[j + 1].text) : std::nullopt;
            if (!t) break;
            *seen = true;
            if (key == "pre") row.pre_ns = *t;
            else if (key == "on") row.on_ns = *t;
            else if (key == "post") row.post_ns = *t;
            // "diff" is recomputed from the three: flashbench cuts it to 7 characters.
        }
        if (all[j - 1].line != lineno) ++broken_rows;
        i = j;
        if (!(pre && on && post)) {
            out.notes.push_back(fmt::format("line {}: align {} cut off before its pre, on and post times", lineno, row.align));
            continue;
        }
        out.ladder.rows.push_back(row);
    }
    if (out.ladder.rows.empty()) throw FlashbenchParseError("no \"align N pre T on T post T\" line: not the output of flashbench -a");
    const auto shared = std::count_if(rows_on_line.begin(), rows_on_line.end(), [](const auto& l) { return l.second > 1; });
    if (shared || broken_rows)
        out.notes.push_back(fmt::format("the paste looks rewrapped ({} line{} with more than one row, {} row{} across lines): "
                                        "each row was read from its own \"align\"",
                                        shared, shared == 1 ? "" : "s", broken_rows, broken_rows == 1 ? "" : "s"));
    out.blocksize = blocksize_of(other);
    if (out.blocksize) out.ladder.read_bytes = *out.blocksize;
    return out;
}

} // namespace mmc::probe
