// Figures rounded to what was measured: no more digits than the measurement holds.
#include "cli/figure.h"

#include <gtest/gtest.h>

using mmc::cli::figure_text;

TEST(CliFigure, TwoDigitsOfTheIntervalDecideTheLastDigit)
{
    EXPECT_EQ(figure_text(87.468, 1.75), "87.5");     // +-2%
    EXPECT_EQ(figure_text(87.468, 0.44), "87.47");    // +-0.5%
    EXPECT_EQ(figure_text(21354.5, 427.0), "21350");  // +-2%
    EXPECT_EQ(figure_text(21354.5, 4270.0), "21400");  // +-20%
    EXPECT_EQ(figure_text(21354.5, 50000.0), "21000"); // wider than the value: two significant digits still
    EXPECT_EQ(figure_text(3280.8, 1.3), "3281");
}

TEST(CliFigure, NoIntervalIsThreeSignificantDigits)
{
    EXPECT_EQ(figure_text(21354.5, std::nullopt), "21400");
    EXPECT_EQ(figure_text(87.468, std::nullopt), "87.5");
    EXPECT_EQ(figure_text(18.981, std::nullopt), "19.0");
    EXPECT_EQ(figure_text(4.7975, std::nullopt), "4.80");
    EXPECT_EQ(figure_text(0.0123456, std::nullopt), "0.0123");
}

TEST(CliFigure, AZeroIntervalIsFourSignificantDigitsAndZeroIsZero)
{
    EXPECT_EQ(figure_text(19.9901, 0.0), "19.99");
    EXPECT_EQ(figure_text(3280.8, 0.0), "3281");
    EXPECT_EQ(figure_text(0.0, 1.0), "0");
    EXPECT_EQ(figure_text(87.468, 1e-9), "87.47"); // never beyond four digits
}
