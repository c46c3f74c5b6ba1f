// Which family pasted registers say they are: held
// against every real dump in tests/data/registers.json, whose card type is
// known, and the cases where the registers cannot tell or disagree.
#include "corpus.h"
#include "regs/family_guess.h"
#include "regs/hex.h"

#include <gtest/gtest.h>

using namespace mmc::regs;

namespace {

RawRegister raw(RegKind kind, std::string_view hex) { return {kind, parse_register_hex(kind, hex), "input"}; }

} // namespace

// No real dump is read as the other family; every CID, and every CSD but the
// CSD_STRUCTURE 0 ones SD and MMC share, says which it is.
TEST(RegsFamilyGuess, EveryRealDumpSaysItsOwnFamilyOrNothing)
{
    int decided = 0, undecided = 0;
    for (const auto& entry : mmc::test::load_corpus()) {
        const auto kind = reg_kind_from_string(entry.at("kind").get<std::string>());
        ASSERT_TRUE(kind) << entry.at("kind");
        const auto want = mmc::test::family_of(entry);
        const auto g = family_of_register(raw(*kind, entry.at("hex").get<std::string>()));
        if (!g) {
            ++undecided;
            EXPECT_TRUE(*kind == RegKind::ocr || *kind == RegKind::status || *kind == RegKind::csd) << entry.at("card");
            if (*kind == RegKind::csd) {
                EXPECT_EQ(entry.at("hex").get<std::string>().substr(0, 2), "00") << entry.at("card");
            }
            continue;
        }
        ++decided;
        ASSERT_TRUE(g->family);
        EXPECT_EQ(*g->family, want) << entry.at("card") << ": " << g->why;
    }
    EXPECT_GE(decided, 40) << "the corpus has 60 dumps, most of them CIDs and CSDs";
    std::printf("[ corpus   ] family guess: %d dumps decided, %d undecided\n", decided, undecided);
}

TEST(RegsFamilyGuess, PastedSamsungEmmcRegistersAreMmc)
{
    const auto csd = guess_family({raw(RegKind::csd, "d02701320f5903fff6dbffef8e404000")});
    ASSERT_TRUE(csd.family);
    EXPECT_EQ(*csd.family, CardFamily::mmc);
    EXPECT_EQ(csd.why, "CSD_STRUCTURE 3 is MMC-only (reserved on SD)");
    const auto cid = guess_family({raw(RegKind::cid, "1501004d384731474303dc0db061506f")});
    ASSERT_TRUE(cid.family);
    EXPECT_EQ(*cid.family, CardFamily::mmc);
    EXPECT_NE(cid.why.find("CBX"), std::string::npos) << cid.why;
}

TEST(RegsFamilyGuess, SdRegistersAreSd)
{
    const auto g = guess_family({raw(RegKind::csd, "400e00325b5900001fff7f800a400000"),
                                 raw(RegKind::cid, "035344534e3531328053e8f3b1015500")});
    ASSERT_TRUE(g.family);
    EXPECT_EQ(*g.family, CardFamily::sd);
}

TEST(RegsFamilyGuess, ExtCsdAndSdOnlyRegistersSayTheirFamily)
{
    EXPECT_EQ(*family_of_register({RegKind::ext_csd, std::vector<uint8_t>(512), "input"})->family, CardFamily::mmc);
    EXPECT_EQ(*family_of_register({RegKind::scr, std::vector<uint8_t>(8), "input"})->family, CardFamily::sd);
    EXPECT_EQ(*family_of_register({RegKind::ssr, std::vector<uint8_t>(64), "input"})->family, CardFamily::sd);
}

TEST(RegsFamilyGuess, CannotTellOrDisagreeGivesNoFamilyAndSaysWhy)
{
    // A CSD_STRUCTURE 0 CSD (SD 1.0 or MMC 1.x) and an OCR: no family.
    const auto none = guess_family({raw(RegKind::csd, "00260032575981e9f6da7f800a40008f"), raw(RegKind::ocr, "80ff8000")});
    EXPECT_FALSE(none.family);
    EXPECT_EQ(none.why, "the registers given do not say");
    // An SD CID with an eMMC CSD: they disagree, and both reasons are given.
    const auto both = guess_family({raw(RegKind::cid, "035344534e3531328053e8f3b1015500"),
                                    raw(RegKind::csd, "d02701320f5903fff6dbffef8e404000")});
    EXPECT_FALSE(both.family);
    EXPECT_NE(both.why.find("disagree"), std::string::npos) << both.why;
    EXPECT_NE(both.why.find("CSD_STRUCTURE 3"), std::string::npos) << both.why;
    EXPECT_NE(both.why.find("OID"), std::string::npos) << both.why;
}
