#include "cli/progress.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <string>

namespace {

// Captures what a ProgressLine draws.
struct Capture {
    char* buf = nullptr;
    std::size_t len = 0;
    std::FILE* f = open_memstream(&buf, &len);
    ~Capture()
    {
        std::fclose(f);
        std::free(buf);
    }
    std::string text()
    {
        std::fflush(f);
        return std::string(buf, len);
    }
};

} // namespace

TEST(ProgressLine, DrawsNothingWhenDisabled)
{
    Capture c;
    mmc::cli::ProgressLine line(c.f, false, 80);
    line.show("erasing", true);
    line.clear();
    line.finish();
    EXPECT_EQ(c.text(), "");
}

TEST(ProgressLine, RewritesInPlaceAndClears)
{
    Capture c;
    mmc::cli::ProgressLine line(c.f, true, 80);
    line.show("one", true);
    line.show("two", true);
    line.clear();
    EXPECT_EQ(c.text(), "\rone\033[K\rtwo\033[K\r\033[K");
}

TEST(ProgressLine, DropsUpdatesCloserThanAQuarterSecondUnlessForced)
{
    Capture c;
    mmc::cli::ProgressLine line(c.f, true, 80);
    line.show("a");
    line.show("b");
    line.show("c", true);
    EXPECT_EQ(c.text(), "\ra\033[K\rc\033[K");
}

TEST(ProgressLine, FinishEndsTheLineOnlyWhenOneIsShown)
{
    Capture c;
    mmc::cli::ProgressLine line(c.f, true, 80);
    line.finish();
    line.show("done", true);
    line.finish();
    line.clear();
    EXPECT_EQ(c.text(), "\rdone\033[K\n");
}

TEST(ProgressLine, NeverWiderThanTheTerminal)
{
    Capture c;
    mmc::cli::ProgressLine line(c.f, true, 10);
    line.show("0123456789abcdef", true);
    EXPECT_EQ(c.text(), "\r01234567…\033[K");
}

TEST(FitToWidth, CountsCodePointsNotBytes)
{
    EXPECT_EQ(mmc::cli::fit_to_width("µs µs", 5), "µs µs");
    EXPECT_EQ(mmc::cli::fit_to_width("µs µs µs", 5), "µs µ…");
    EXPECT_EQ(mmc::cli::fit_to_width("abc", 0), "");
}

TEST(Eta, FromTheAverageRate)
{
    EXPECT_EQ(mmc::cli::eta_text(0, 100, 5), "- left");
    EXPECT_EQ(mmc::cli::eta_text(50, 100, 10), "10 s left");
    EXPECT_EQ(mmc::cli::eta_text(10, 100, 20), "3:00 left");
    EXPECT_EQ(mmc::cli::eta_text(1, 100, 3600), "99:00:00 left");
    EXPECT_EQ(mmc::cli::eta_text(100, 100, 20), "0 s left");
    EXPECT_EQ(mmc::cli::duration_text(3723), "1:02:03");
}
