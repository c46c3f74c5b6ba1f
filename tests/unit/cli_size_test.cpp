#include "cli/cli.h"
#include "cli/size.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using mmc::cli::format_bytes;
using mmc::cli::parse_size;

TEST(CliSize, BinaryUnitsWhateverTheSpelling)
{
    EXPECT_EQ(parse_size("512"), 512u);
    EXPECT_EQ(parse_size("512B"), 512u);
    EXPECT_EQ(parse_size("4k"), 4096u);
    EXPECT_EQ(parse_size("4K"), 4096u);
    EXPECT_EQ(parse_size("4KiB"), 4096u);
    EXPECT_EQ(parse_size("4kb"), 4096u);
    EXPECT_EQ(parse_size("16M"), 16u << 20);
    EXPECT_EQ(parse_size("16MB"), 16u << 20);
    EXPECT_EQ(parse_size("16MiB"), 16u << 20);
    EXPECT_EQ(parse_size("2g"), uint64_t{2} << 30);
    EXPECT_EQ(parse_size("2T"), uint64_t{2} << 40);
}

TEST(CliSize, FractionsThatAreWholeBytes)
{
    EXPECT_EQ(parse_size("1.5G"), uint64_t{3} << 29);
    EXPECT_EQ(parse_size("1.5M"), uint64_t{3} << 19);
    EXPECT_EQ(parse_size("0.5k"), 512u);
    EXPECT_EQ(parse_size(".5k"), 512u);
    EXPECT_THROW(parse_size("0.3"), std::invalid_argument);
    EXPECT_THROW(parse_size("1.1k"), std::invalid_argument);
}

TEST(CliSize, ExactAboveDoublePrecision)
{
    // 2^53 + 1 is not representable as a double: the parser must not round it.
    EXPECT_EQ(parse_size("9007199254740993"), uint64_t{9007199254740993});
    EXPECT_EQ(parse_size("18446744073709551615"), UINT64_MAX);
    EXPECT_THROW(parse_size("18446744073709551616"), std::invalid_argument);
    EXPECT_THROW(parse_size("99999999999999999999"), std::invalid_argument);
    EXPECT_THROW(parse_size("20000000000T"), std::invalid_argument);
}

TEST(CliSize, RejectsWhatIsNotASize)
{
    for (const char* bad : {"", "k", "M", ".", "-4k", "-1", "4x", "4X", "4 k", "4kk", "1e3", "0x10"})
        EXPECT_THROW(parse_size(bad), std::invalid_argument) << bad;
}

TEST(CliSize, OptionErrorsNameTheOption)
{
    try {
        mmc::cli::size_option("--bs", "4x");
        FAIL() << "no error";
    } catch (const mmc::cli::UsageError& e) {
        EXPECT_EQ(std::string(e.what()), "--bs: '4x': unknown unit 'x' (use k, M, G or T)");
    }
}

TEST(CliSize, FormatsBytes)
{
    EXPECT_EQ(format_bytes(0), "0 B");
    EXPECT_EQ(format_bytes(512), "512 B");
    EXPECT_EQ(format_bytes(1536), "1.5 KiB");
    EXPECT_EQ(format_bytes(16u << 20), "16 MiB");
    EXPECT_EQ(format_bytes(uint64_t{12} << 20), "12 MiB");
    EXPECT_EQ(format_bytes(uint64_t{64} << 30), "64 GiB");
    EXPECT_EQ(format_bytes(1000000000), "954 MiB");
}

TEST(CliSize, FormatsBytesExactly)
{
    using mmc::cli::ExactCount;
    using mmc::cli::format_bytes_exact;
    EXPECT_EQ(format_bytes_exact(512), "512 bytes");
    EXPECT_EQ(format_bytes_exact(4u << 20), "4 MiB") << "a whole number of units says its count";
    EXPECT_EQ(format_bytes_exact(3520), "3.44 KiB (3520 bytes)") << "a rounded size keeps the count";
    EXPECT_EQ(format_bytes_exact(uint64_t{4} << 30), "4 GiB (4294967296 bytes)") << "a capacity keeps the count";
    EXPECT_EQ(format_bytes_exact(3963617280), "3.69 GiB (3963617280 bytes)");
    EXPECT_EQ(format_bytes_exact(4u << 20, ExactCount::always), "4 MiB (4194304 bytes)");
    EXPECT_EQ(format_bytes_exact(512, ExactCount::always), "512 bytes") << "no count twice";
}

TEST(CliSize, AnAuIsMeasureOrWholeSectorsAndGivenOnce)
{
    using mmc::cli::au_option;
    std::optional<std::string> given;
    EXPECT_EQ(au_option("4M", given), std::optional<uint64_t>(4u << 20));
    EXPECT_EQ(given, "4M");
    std::optional<std::string> measure;
    EXPECT_EQ(au_option("measure", measure), std::nullopt);
    EXPECT_THROW(au_option("8M", given), mmc::cli::UsageError) << "a second --au is neither the first nor the last";
    for (const char* bad : {"1000", "256", "4x"}) {
        std::optional<std::string> once;
        EXPECT_THROW(au_option(bad, once), mmc::cli::UsageError) << bad;
    }
}
