#include "cli/progress.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

namespace mmc::cli {

namespace {

bool drawable(int fd)
{
    if (!isatty(fd)) return false;
    const char* term = std::getenv("TERM");
    return !(term && std::strcmp(term, "dumb") == 0);
}

std::size_t terminal_width(int fd)
{
    winsize ws{};
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        const long n = std::strtol(columns, nullptr, 10);
        if (n > 0) return static_cast<std::size_t>(n);
    }
    return 80;
}

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

} // namespace

ProgressLine::ProgressLine() : ProgressLine(stderr, drawable(STDERR_FILENO), terminal_width(STDERR_FILENO)) {}

ProgressLine::ProgressLine(std::FILE* out, bool enabled, std::size_t width) : out_(out), enabled_(enabled), width_(width) {}

void ProgressLine::show(std::string_view text, bool force)
{
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (shown_ && !force && now - last_ < std::chrono::milliseconds(250)) return;
    // One column is left free: writing the last column makes some terminals
    // wrap at once.
    const std::string line = fit_to_width(text, width_ > 1 ? width_ - 1 : 1);
    fmt::print(out_, "\r{}\033[K", line);
    std::fflush(out_);
    shown_ = true;
    last_ = now;
}

void ProgressLine::clear()
{
    if (!enabled_ || !shown_) return;
    fmt::print(out_, "\r\033[K");
    std::fflush(out_);
    shown_ = false;
}

void ProgressLine::finish()
{
    if (!enabled_ || !shown_) return;
    fmt::print(out_, "\n");
    std::fflush(out_);
    shown_ = false;
}

std::string fit_to_width(std::string_view text, std::size_t width)
{
    std::size_t columns = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (!continuation_byte(text[i])) ++columns;
    if (columns <= width) return std::string(text);
    if (width == 0) return {};
    // Keep width-1 code points and add the ellipsis.
    std::size_t kept = 0, cut = 0;
    for (; cut < text.size(); ++cut) {
        if (!continuation_byte(text[cut])) {
            if (kept == width - 1) break;
            ++kept;
        }
    }
    return std::string(text.substr(0, cut)) + "…";
}

std::string duration_text(double s)
{
    if (!(s >= 0)) s = 0;
    if (s < 60) return fmt::format("{:.0f} s", std::ceil(s));
    const auto total = static_cast<long>(std::ceil(s));
    if (total < 3600) return fmt::format("{}:{:02d}", total / 60, total % 60);
    return fmt::format("{}:{:02d}:{:02d}", total / 3600, total / 60 % 60, total % 60);
}

std::string eta_text(double done, double total, double elapsed_s)
{
    if (done >= total) return "0 s left";
    if (done <= 0 || elapsed_s <= 0) return "- left";
    return duration_text(elapsed_s * (total - done) / done) + " left";
}

} // namespace mmc::cli
