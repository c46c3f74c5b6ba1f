// Byte-reversed EXT_CSD dumps (kernels before about 2013): recognised,
// decoded reversed with a warning, and modern dumps left alone.
#include "regs/ext_csd_order.h"
#include "regs/hex.h"

#include "corpus.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace mmc::regs;

namespace {

std::vector<uint8_t> kylemanna_dump()
{
    std::ifstream in("tests/data/ext_csd/reversed-emmc441-kylemanna.hex");
    std::stringstream s;
    s << in.rdbuf();
    return parse_register_hex(RegKind::ext_csd, s.str());
}

std::vector<std::vector<uint8_t>> modern_dumps()
{
    std::vector<std::vector<uint8_t>> out;
    for (const auto& e : mmc::test::corpus_entries("ext_csd"))
        out.push_back(parse_register_hex(RegKind::ext_csd, e["hex"].get<std::string>()));
    return out;
}

uint64_t field(const CardRegisters& c, std::string_view name) { return c.get(RegKind::ext_csd)->field(name)->raw; }

} // namespace

TEST(ExtCsdOrder, RealReversedDumpIsRecognisedAndDecoded)
{
    const auto bytes = kylemanna_dump();
    EXPECT_TRUE(looks_reversed(bytes));
    const auto c = decode_card_oriented(CardFamily::mmc, {{RegKind::ext_csd, bytes, "input"}}, ByteOrder::automatic);
    EXPECT_EQ(field(c, "ext_csd_rev"), 5u);
    EXPECT_EQ(field(c, "sec_count"), 7503872u);
    const auto& w = c.get(RegKind::ext_csd)->warnings;
    ASSERT_FALSE(w.empty());
    EXPECT_NE(w.front().find("bytes look reversed"), std::string::npos) << w.front();
}

TEST(ExtCsdOrder, NormalForcesTheGivenOrder)
{
    const auto c = decode_card_oriented(CardFamily::mmc, {{RegKind::ext_csd, kylemanna_dump(), "input"}}, ByteOrder::normal);
    EXPECT_EQ(field(c, "ext_csd_rev"), 0u);
    EXPECT_EQ(field(c, "sec_count"), 0u);
}

TEST(ExtCsdOrder, ModernDumpsAreLeftAloneAndTheirReversalIsRecognised)
{
    const auto dumps = modern_dumps();
    ASSERT_GE(dumps.size(), 2u);
    for (const auto& d : dumps) {
        EXPECT_FALSE(looks_reversed(d));
        const std::vector<uint8_t> rev(d.rbegin(), d.rend());
        EXPECT_TRUE(looks_reversed(rev));
        const auto c = decode_card_oriented(CardFamily::mmc, {{RegKind::ext_csd, rev, "input"}}, ByteOrder::automatic);
        EXPECT_EQ(field(c, "ext_csd_rev"), d[192]);
        const auto forced = decode_card_oriented(CardFamily::mmc, {{RegKind::ext_csd, rev, "input"}}, ByteOrder::reversed);
        EXPECT_EQ(field(forced, "sec_count"), field(c, "sec_count"));
        const auto as_is = decode_card_oriented(CardFamily::mmc, {{RegKind::ext_csd, d, "input"}}, ByteOrder::automatic);
        EXPECT_TRUE(as_is.get(RegKind::ext_csd)->warnings.empty() ||
                    as_is.get(RegKind::ext_csd)->warnings.front().find("reversed") == std::string::npos);
    }
}

TEST(ExtCsdOrder, AllZeroIsNotGuessedReversed)
{
    EXPECT_FALSE(looks_reversed(std::vector<uint8_t>(512, 0)));
}

TEST(ExtCsdOrder, OrderNames)
{
    EXPECT_EQ(byte_order_from_string("auto"), ByteOrder::automatic);
    EXPECT_EQ(byte_order_from_string("reversed"), ByteOrder::reversed);
    EXPECT_FALSE(byte_order_from_string("big"));
}
