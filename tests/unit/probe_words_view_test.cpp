// The words of the probe's typed results: the ones mmc-probe(1) documents
// for its JSON, one per value.
#include "probe/words_view.h"

#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace mmc::probe;

TEST(ProbeWords, ConfidenceWordsAreTheDocumentedOnes)
{
    EXPECT_STREQ(confidence_name(Confidence::none), "none");
    EXPECT_STREQ(confidence_name(Confidence::low), "low");
    EXPECT_STREQ(confidence_name(Confidence::medium), "medium");
    EXPECT_STREQ(confidence_name(Confidence::high), "high");
    EXPECT_LT(Confidence::low, Confidence::high); // ordered: surer is larger
}

TEST(ProbeWords, OpenAuModeWordsAreTheDocumentedOnes)
{
    EXPECT_STREQ(open_au_mode_name(OpenAuMode::linear), "linear");
    EXPECT_STREQ(open_au_mode_name(OpenAuMode::random), "random");
    EXPECT_STREQ(open_au_mode_name(OpenAuMode::start_random), "start-random");
}

TEST(ProbeWords, EveryVerdictHasItsOwnWord)
{
    std::set<std::string> seen;
    for (const auto v : {Verdict::good, Verdict::limbo, Verdict::wraparound, Verdict::chain, Verdict::bad})
        EXPECT_TRUE(seen.insert(verdict_name(v)).second) << verdict_name(v);
    EXPECT_EQ(seen, (std::set<std::string>{"good", "limbo", "wraparound", "chain", "bad"}));
}
