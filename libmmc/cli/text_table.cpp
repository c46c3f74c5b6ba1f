#include "cli/text_table.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <sstream>

namespace mmc::cli {

std::size_t display_width(const std::string& s)
{
    std::size_t n = 0;
    for (const char c : s)
        if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++n;
    return n;
}

namespace {

std::string pad(const std::string& s, std::size_t width, bool right)
{
    const std::size_t w = display_width(s);
    const std::string fill(width > w ? width - w : 0, ' ');
    return right ? fill + s : s + fill;
}

std::vector<std::string> words(const std::string& s)
{
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

} // namespace

std::vector<std::string> wrap_words(const std::string& s, std::size_t width)
{
    std::vector<std::string> lines;
    std::string line;
    for (const auto& w : words(s)) {
        if (!line.empty() && display_width(line) + 1 + display_width(w) > width) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + w;
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

namespace {

bool is_number(const std::string& s)
{
    if (s.empty()) return false;
    bool digit = false, dot = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c >= '0' && c <= '9') digit = true;
        else if (c == '.' && !dot) dot = true;
        else if (!(c == '-' && i == 0)) return false;
    }
    return digit;
}

// A right-aligned column of numbers shows them all with one number of
// decimals, so that they line up and none claims more than its neighbours
// ("18.20" above "10.24", not "18.2" above "10.24"): as many as the column's
// largest figure has to its fourth significant digit, and no more than any
// figure in it was given with. Whole numbers (counts, IOPS) stay whole.
struct Decimal {
    std::size_t given = 0; // most decimals any figure has
    double largest = 0;
    void add(const std::string& s)
    {
        const auto dot = s.find('.');
        if (dot != std::string::npos) given = std::max(given, s.size() - dot - 1);
        largest = std::max(largest, std::fabs(std::strtod(s.c_str(), nullptr)));
    }
    std::string format(const std::string& s) const
    {
        if (!given) return s;
        const int whole_digits = largest >= 1 ? static_cast<int>(std::floor(std::log10(largest))) + 1 : 1;
        const int decimals = std::clamp(4 - whole_digits, 0, static_cast<int>(given));
        return fmt::format("{:.{}f}", std::strtod(s.c_str(), nullptr), decimals);
    }
};


} // namespace

std::string render_table(const TextTable& t, std::size_t indent, std::size_t wrap_width)
{
    const std::size_t ncol = t.header.size();
    std::vector<Decimal> decimal(ncol);
    for (const auto& row : t.rows)
        for (std::size_t c = 1; c < ncol && c < row.size(); ++c)
            if (t.right_aligned[c] && is_number(row[c])) decimal[c].add(row[c]);
    auto cell_text = [&](const std::vector<std::string>& row, std::size_t c) {
        if (c >= row.size()) return std::string();
        return c > 0 && t.right_aligned[c] && is_number(row[c]) ? decimal[c].format(row[c]) : row[c];
    };
    std::vector<std::size_t> width(ncol, 0);
    for (const auto& row : t.rows)
        for (std::size_t c = 0; c < ncol && c < row.size(); ++c) width[c] = std::max(width[c], display_width(cell_text(row, c)));
    std::vector<std::vector<std::string>> head(ncol);
    std::size_t head_lines = 1;
    for (std::size_t c = 0; c < ncol; ++c) {
        const bool value = c > 0 && t.right_aligned[c];
        if (!value) {
            width[c] = std::max(width[c], display_width(t.header[c]));
            head[c] = {t.header[c]};
        } else {
            std::size_t longest_word = 0;
            for (const auto& w : words(t.header[c])) longest_word = std::max(longest_word, display_width(w));
            width[c] = std::max({width[c], longest_word, std::min(display_width(t.header[c]), wrap_width)});
            head[c] = wrap_words(t.header[c], width[c]);
        }
        head_lines = std::max(head_lines, head[c].size());
    }
    const std::string margin(indent, ' ');
    std::string out;
    auto emit = [&](const std::vector<std::string>& cells, std::size_t row, bool is_header) {
        std::string line = margin;
        for (std::size_t c = 0; c < ncol; ++c) {
            std::string cell = pad(is_header ? cells[c] : cell_text(cells, c), width[c], t.right_aligned[c]);
            if (!is_header && t.color) {
                const std::string esc = t.color(row, c);
                if (!esc.empty()) cell = esc + cell + "\033[0m";
            }
            line += (c ? "  " : "") + cell;
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    };
    // Header lines bottom-aligned, so each column's last line sits on the rule.
    for (std::size_t l = 0; l < head_lines; ++l) {
        std::vector<std::string> cells(ncol);
        for (std::size_t c = 0; c < ncol; ++c) {
            const std::size_t skip = head_lines - head[c].size();
            if (l >= skip) cells[c] = head[c][l - skip];
        }
        emit(cells, 0, true);
    }
    for (std::size_t r = 0; r < t.rows.size(); ++r) emit(t.rows[r], r, false);
    return out;
}

} // namespace mmc::cli
