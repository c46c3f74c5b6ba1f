// The one text table printer: alignment, wrapped headers, and one number of
// decimals per column of figures.
#include "cli/text_table.h"

#include <gtest/gtest.h>

namespace {

using mmc::cli::display_width;
using mmc::cli::render_table;
using mmc::cli::TextTable;

// Every piece between separators, the empty one after a final one too.
std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> out(1);
    for (const char c : text) {
        if (c == sep) out.emplace_back();
        else out.back() += c;
    }
    return out;
}

} // namespace

TEST(CliTextTable, TextTableAlignsAndWraps)
{
    TextTable t;
    t.header = {"Card", "RetroBSD, Maximite Color, SPI 13.3 MHz", "B"};
    t.right_aligned = {false, true, true};
    t.rows = {{"Lexar", "1.22", "\u2013"}, {"WINTEC SDHC", "0.9708", "12"}};
    const std::string out = render_table(t, 2, 14);
    const auto lines = split(out, '\n');
    ASSERT_GE(lines.size(), 5u);
    // The wrapped host name is right-aligned over its column, bottom line beside "Card".
    EXPECT_EQ(lines[0].size(), lines[1].size()) << out;
    EXPECT_EQ(lines[1].size(), lines[2].size()) << out;
    EXPECT_EQ(lines[3].find("Card"), 2u) << out;
    // Decimal points line up; the dash is right-aligned.
    const auto row1 = lines[lines.size() - 3], row2 = lines[lines.size() - 2];
    EXPECT_EQ(row1.find('.'), row2.find('.')) << out;
    EXPECT_EQ(display_width(row1), display_width(row2)) << out;
    EXPECT_EQ(display_width("\u2013x"), 2u);
    // One number of decimals per column: the largest figure's fourth digit.
    EXPECT_NE(row1.find(" 1.220"), std::string::npos) << out;
    EXPECT_NE(row2.find(" 0.971"), std::string::npos) << out;
}

// "18.2" above "10.24" does not line up its decimals.
TEST(CliTextTable, TextTableGivesAColumnOneNumberOfDecimals)
{
    TextTable t;
    t.header = {"Card", "MB/s", "IOPS", "Mixed"};
    t.right_aligned = {false, true, true, true};
    t.rows = {{"A", "18.2", "1402", "9.8"}, {"B", "10.24", "12", "21.5"}, {"C", "8.756", "\u2013", "error"}};
    const auto lines = split(render_table(t), '\n');
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[1], "  A     18.20  1402    9.8");
    EXPECT_EQ(lines[2], "  B     10.24    12   21.5");
    EXPECT_EQ(lines[3], "  C      8.76     \u2013  error");
}

TEST(CliTextTable, WrapsWordsAtTheWidth)
{
    using mmc::cli::wrap_words;
    EXPECT_EQ(wrap_words("one two three", 7), (std::vector<std::string>{"one two", "three"}));
    EXPECT_EQ(wrap_words("unbreakable", 4), (std::vector<std::string>{"unbreakable"})) << "a long word stands alone";
    EXPECT_EQ(wrap_words("", 4), (std::vector<std::string>{""}));
}
