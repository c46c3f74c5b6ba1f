// The terminal view of a report and the plain table printer it uses.
#pragma once

#include "report/tables.h"

#include <functional>
#include <string>
#include <vector>

namespace mmc::report {

// Columns of aligned text. Value columns get a header wrapped at word
// boundaries so a long host name does not widen every row.
struct TextTable {
    std::vector<std::string> header;
    std::vector<bool> right_aligned;
    std::vector<std::vector<std::string>> rows;
    // Optional: an escape sequence to colour cell (row, column); "" for none.
    std::function<std::string(std::size_t, std::size_t)> color;
};

// Renders with each line indented by indent spaces; header cells of value
// columns wrap at wrap_width columns (or their widest value, if wider).
std::string render_table(const TextTable& t, std::size_t indent = 2, std::size_t wrap_width = 14);

// Columns a UTF-8 string takes on a terminal (one per code point).
std::size_t display_width(const std::string& s);

// Every group: its provenance, the by-card sequential read and write
// tables, the random-I/O table, the verdicts, then errors and failed steps.
std::string text_report(const Report& report, bool color);

} // namespace mmc::report
