// The one progress line every long-running tool shows: a single line on
// stderr, rewritten in place, for a person watching a terminal. Nothing is
// drawn off a terminal (a log or a pipe gets no carriage returns) or on
// TERM=dumb; the line never wraps (it is cut to the terminal's width, since a
// wrapped line cannot be rewritten in place); it carries no colour, so
// NO_COLOR holds trivially.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace mmc::cli {

class ProgressLine {
public:
    // Draws on stderr when it is a terminal and TERM is not "dumb".
    ProgressLine();
    // For tests and odd outputs: where to draw, whether to, and the width.
    ProgressLine(std::FILE* out, bool enabled, std::size_t width);

    bool enabled() const { return enabled_; }

    // Replaces the line with `text`. Updates closer than a quarter second to
    // the previous one are dropped (a serial console is slow) unless `force`
    // (the last update of a phase must show).
    void show(std::string_view text, bool force = false);
    // Removes the line, before anything else is printed on stderr or a prompt
    // is shown; the next show() draws afresh.
    void clear();
    // Leaves the last line standing and moves to the next one.
    void finish();

private:
    std::FILE* out_;
    bool enabled_;
    std::size_t width_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point last_{};
};

// `text` cut to at most `width` columns (UTF-8 code points count as one), with
// "…" marking the cut.
std::string fit_to_width(std::string_view text, std::size_t width);

// "42 s", "3:07", "1:02:03".
std::string duration_text(double seconds);

// Time left at the average rate so far: "3:07 left", "- left" before there is
// a rate, "0 s left" when done.
std::string eta_text(double done, double total, double elapsed_s);

} // namespace mmc::cli
