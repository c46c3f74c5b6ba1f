// cli::next_option: getopt_long that refuses a single-valued option given
// twice (naming it as typed), leaves the gathering ones alone, and notices
// -J anywhere on the line.
#include "cli/cli.h"
#include "cli/next_option.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace mmc::cli;

namespace {

const option longopts[] = {
    {"from", required_argument, nullptr, 'F'}, {"decode", required_argument, nullptr, 'd'},
    {"offset", required_argument, nullptr, 'o'}, {"json", no_argument, nullptr, 'J'},
    {"yes", no_argument, nullptr, 'y'}, {nullptr, 0, nullptr, 0},
};

// The options seen, in order, or the usage error's message.
std::string parse(std::vector<std::string> words)
{
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    optind = 0;
    opterr = 0;
    std::string seen;
    try {
        int c;
        while ((c = next_option(static_cast<int>(argv.size()) - 1, argv.data(), ":d:o:Jy", longopts, {"decode"})) != -1)
            seen += static_cast<char>(c);
    } catch (const UsageError& e) {
        seen = e.what();
    }
    request_json_errors(false); // what -J asked for stays in this test
    return seen;
}

} // namespace

TEST(NextOption, ParsesAsGetoptLongDoes)
{
    EXPECT_EQ(parse({"t", "--from", "a", "-o", "1", "dev", "-y"}), "Foy");
    EXPECT_EQ(parse({"t", "-yJ", "--decode=x"}), "yJd");
}

TEST(NextOption, ASingleValuedOptionTwiceIsAUsageErrorNamingIt)
{
    EXPECT_EQ(parse({"t", "--from", "a", "--from", "b"}), "--from: given more than once ('a' and 'b'); give one");
    EXPECT_EQ(parse({"t", "-o", "1", "--offset=2"}), "--offset (-o): given more than once ('1' and '2'); give one");
    EXPECT_EQ(parse({"t", "-o1", "-o", "2"}), "-o: given more than once ('1' and '2'); give one");
}

TEST(NextOption, GatheringOptionsAndFlagsMayRepeat)
{
    EXPECT_EQ(parse({"t", "--decode", "a", "-d", "b", "-y", "-y"}), "ddyy");
}

TEST(NextOption, TheRepeatIsFoundBeforeAnyOptionIsActedOn)
{
    // The whole line is looked at first: nothing was parsed when it throws.
    EXPECT_EQ(parse({"t", "--no-such", "--from", "a", "--from", "b"}), "--from: given more than once ('a' and 'b'); give one");
}

TEST(NextOption, EachScanStartsAfresh)
{
    EXPECT_EQ(parse({"t", "--from", "a"}), "F");
    EXPECT_EQ(parse({"t", "--from", "b"}), "F");
}
