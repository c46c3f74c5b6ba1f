// What a simulated card stores: reads return what was written, the erased
// byte where nothing is, and reproducible content on a card that starts full.
#include "sim/card.h"

#include <gtest/gtest.h>
#include <numeric>
#include <vector>

using namespace mmc::sim;

namespace {

Params small_card(StartState state = StartState::clean)
{
    Params p = default_params();
    p.size_bytes = 64 << 20;
    p.au_bytes = 4 << 20;
    p.page_bytes = 16 << 10;
    p.state = state;
    return p;
}

std::vector<uint8_t> pattern(std::size_t n, uint8_t seed)
{
    std::vector<uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
    return v;
}

std::vector<uint8_t> read(Card& card, uint64_t offset, std::size_t n)
{
    std::vector<uint8_t> v(n);
    card.read(offset, v, 0);
    return v;
}

} // namespace

TEST(SimCardData, ReadsReturnWhatWasWrittenAndErasedElsewhere)
{
    Params p = small_card();
    p.erased_byte = 0xff;
    Card card(p);
    const auto data = pattern(10000, 3);
    card.write(12345, data, 0); // unaligned, across a page boundary
    EXPECT_EQ(read(card, 12345, data.size()), data);
    const auto around = read(card, 12345 - 100, 100);
    EXPECT_EQ(around, std::vector<uint8_t>(100, 0xff));
    EXPECT_EQ(read(card, 40 << 20, 4096), std::vector<uint8_t>(4096, 0xff));
}

TEST(SimCardData, OnlyWrittenPagesAreStoredOnA64GBCard)
{
    Params p = default_params();
    p.size_bytes = uint64_t{64} << 30;
    Card card(p);
    const auto data = pattern(4096, 9);
    card.write(uint64_t{60} << 30, data, 0);
    EXPECT_EQ(read(card, uint64_t{60} << 30, 4096), data);
    EXPECT_EQ(card.counters().pages_stored, 1u);
}

TEST(SimCardData, FullCardsHoldReproducibleContentThatDependsOnTheSeed)
{
    Card a(small_card(StartState::full)), b(small_card(StartState::full));
    Params other = small_card(StartState::fragmented);
    other.seed = 99;
    Card c(other);
    const auto ra = read(a, 5 << 20, 8192);
    EXPECT_EQ(ra, read(b, 5 << 20, 8192));
    EXPECT_NE(ra, read(c, 5 << 20, 8192));
    EXPECT_NE(ra, std::vector<uint8_t>(8192, 0));
    // A partial write keeps the rest of the page's old content.
    const auto data = pattern(100, 1);
    a.write((5 << 20) + 50, data, 0);
    auto expect = ra;
    std::copy(data.begin(), data.end(), expect.begin() + 50);
    EXPECT_EQ(read(a, 5 << 20, 8192), expect);
}
