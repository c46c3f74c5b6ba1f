// The front of a tool made of subcommands (cli/subcommand.h).
#include "cli/cli.h"
#include "cli/subcommand.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace mmc;

int usage_calls = 0;
void usage(std::FILE*) { ++usage_calls; }

// argv as getopt wants it: writable words, a null at the end.
struct Argv {
    std::vector<std::string> words;
    std::vector<char*> ptrs;
    explicit Argv(std::vector<std::string> w) : words(std::move(w))
    {
        for (auto& s : words) ptrs.push_back(s.data());
        ptrs.push_back(nullptr);
    }
    int argc() const { return static_cast<int>(words.size()); }
    char** argv() { return ptrs.data(); }
};

std::optional<int> index_of(std::vector<std::string> words)
{
    optind = 1;
    Argv a(std::move(words));
    return cli::subcommand_index(a.argc(), a.argv(), "mmc-x", usage, "one or two");
}

TEST(CliSubcommand, TheSubcommandIsTheFirstWordThatIsNoOptionAndItsOptionsAreLeftToIt)
{
    EXPECT_EQ(index_of({"mmc-x", "one", "-n", "--help"}), 1);
}

TEST(CliSubcommand, HelpBeforeTheSubcommandPrintsUsageAndNamesNone)
{
    usage_calls = 0;
    EXPECT_EQ(index_of({"mmc-x", "-h", "one"}), std::nullopt);
    EXPECT_EQ(usage_calls, 1);
}

TEST(CliSubcommand, NoSubcommandOrAnOptionOfItsOwnBeforeItIsAUsageError)
{
    try {
        index_of({"mmc-x"});
        FAIL() << "no subcommand was accepted";
    } catch (const cli::UsageError& e) {
        EXPECT_STREQ(e.what(), "no subcommand given (one or two)");
    }
    EXPECT_THROW(index_of({"mmc-x", "-n", "one"}), cli::UsageError);
}

TEST(CliSubcommand, AnUnknownWordIsAUsageErrorNamingWhatIsExpected)
{
    try {
        cli::throw_unknown_subcommand("three", "one or two");
        FAIL() << "an unknown subcommand was accepted";
    } catch (const cli::UsageError& e) {
        EXPECT_STREQ(e.what(), "unknown subcommand 'three'; expected one or two");
    }
}

} // namespace
