// The one printer of aligned text tables (mmc-report's tables, mmc-info's
// card list, mmc-health's), and the text measures it needs.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace mmc::cli {

// Columns of aligned text. Value columns (right-aligned) get a header
// wrapped at word boundaries so a long host name does not widen every row,
// and their numbers one number of decimals per column.
struct TextTable {
    std::vector<std::string> header;
    std::vector<bool> right_aligned;
    std::vector<std::vector<std::string>> rows;
    // Optional: an escape sequence to colour cell (row, column); "" for none.
    std::function<std::string(std::size_t, std::size_t)> color;
};

// Renders with each line indented by indent spaces, columns two spaces
// apart, no trailing spaces; header cells of value columns wrap at
// wrap_width columns (or their widest value, if wider).
std::string render_table(const TextTable& t, std::size_t indent = 2, std::size_t wrap_width = 14);

// Columns a UTF-8 string takes on a terminal (one per code point).
std::size_t display_width(const std::string& s);

// The words of text in lines of at most width columns (a longer word has a
// line of its own).
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

} // namespace mmc::cli
