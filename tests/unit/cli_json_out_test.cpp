// The one JSON writer and the terminal-safe text helper: bytes from a card
// that are not UTF-8 never abort a dump, and never reach a terminal raw.
#include "cli/json_out.h"
#include "cli/printable.h"

#include <gtest/gtest.h>

using mmc::cli::dump_json;
using mmc::cli::is_valid_utf8;
using mmc::cli::printable;

TEST(CliJsonOut, ValidDocumentDumpsUnchangedWithTwoSpaceIndent)
{
    nlohmann::ordered_json j = {{"tool", "mmc-info"}, {"name", "SL16G"}};
    const auto out = dump_json(j);
    EXPECT_EQ(out.text, "{\n  \"tool\": \"mmc-info\",\n  \"name\": \"SL16G\"\n}");
    EXPECT_TRUE(out.replaced_at.empty());
}

TEST(CliJsonOut, InvalidUtf8IsReplacedAndItsPlaceNamed)
{
    nlohmann::ordered_json j;
    j["card"]["name"] = std::string("QE\xff" "MU");
    j["list"] = {"ok", std::string("\xc3")};
    // nlohmann's own dump throws type_error 316 on this document.
    EXPECT_THROW((void)j.dump(2), nlohmann::json::type_error);
    const auto out = dump_json(j);
    EXPECT_NE(out.text.find("\"QE\xef\xbf\xbdMU\""), std::string::npos) << out.text;
    ASSERT_EQ(out.replaced_at.size(), 2u);
    EXPECT_EQ(out.replaced_at[0], "/card/name");
    EXPECT_EQ(out.replaced_at[1], "/list/1");
    EXPECT_TRUE(nlohmann::json::accept(out.text));
}

TEST(CliJsonOut, InvalidKeyIsNamedAsAKey)
{
    nlohmann::json j;
    j[std::string("k\xfe")] = 1;
    const auto out = dump_json(j, -1);
    ASSERT_EQ(out.replaced_at.size(), 1u);
    EXPECT_EQ(out.replaced_at[0], "/k\\xfe (key)");
}

TEST(CliJsonOut, WarningNamesTheToolAndAtMostThreePlaces)
{
    EXPECT_EQ(mmc::cli::replaced_warning("mmc-info", {}), "");
    EXPECT_EQ(mmc::cli::replaced_warning("mmc-info", {"/a", "/b", "/c", "/d", "/e"}),
              "mmc-info: warning: invalid UTF-8 in /a, /b, /c and 2 more replaced by U+FFFD");
}

TEST(CliJsonOut, OneLineForStreams)
{
    EXPECT_EQ(dump_json(nlohmann::ordered_json{{"a", 1}}, -1).text, "{\"a\":1}");
}

TEST(CliPrintable, Utf8Validity)
{
    EXPECT_TRUE(is_valid_utf8("plain"));
    EXPECT_TRUE(is_valid_utf8("\xe2\x80\x93")); // en dash
    EXPECT_TRUE(is_valid_utf8("\xf0\x9f\x98\x80"));
    EXPECT_FALSE(is_valid_utf8("\xff"));
    EXPECT_FALSE(is_valid_utf8("\xc0\xaf"));         // overlong '/'
    EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));     // a UTF-16 surrogate
    EXPECT_FALSE(is_valid_utf8("\xf4\x90\x80\x80")); // above U+10FFFF
    EXPECT_FALSE(is_valid_utf8("\xe2\x80"));         // cut short
}

TEST(CliPrintable, ControlBytesAndInvalidUtf8AreEscaped)
{
    EXPECT_EQ(printable("SL16G"), "SL16G");
    EXPECT_EQ(printable("a\x1b]0;x\x07z"), "a\\x1b]0;x\\x07z");
    EXPECT_EQ(printable("QE\xff"), "QE\\xff");
    EXPECT_EQ(printable("\x7f\n\t"), "\\x7f\\x0a\\x09");
    EXPECT_EQ(printable("\xc2\x9b" "2J"), "\\xc2\\x9b2J"); // C1 CSI
    EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x80\x93"), "caf\xc3\xa9 \xe2\x80\x93");
}
