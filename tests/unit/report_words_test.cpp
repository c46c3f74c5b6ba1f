// libmmc/report/bundle.h's words: each known word reads as its value and
// writes back as itself; a word this version does not know (a verdict's
// result "marginal", a unit "MB/min", a kind, a card type) loads, prints as
// written in every view, counts neither as a pass nor as a fail, and a
// bundle holding such words is written back exactly as it was read.
#include "report/bundle.h"
#include "report/export.h"
#include "report/html.h"
#include "report/record.h"
#include "report/tables.h"
#include "report/text.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

namespace {

using namespace mmc::report;

// Every known value of Enum reads back from its word, and the words differ.
template <typename Enum>
void expect_known_words_read_back()
{
    std::set<std::string> words;
    for (int i = 0; i < static_cast<int>(Enum::other); ++i) {
        const auto value = static_cast<Enum>(i);
        const std::string word(to_string(value));
        EXPECT_FALSE(word.empty()) << "value " << i;
        words.insert(word);
        const Word<Enum> read = read_word<Enum>(word);
        EXPECT_EQ(read.value, value) << word;
        EXPECT_EQ(read.text(), word);
        EXPECT_TRUE(read.as_written.empty()) << "a known word keeps no copy: " << word;
    }
    EXPECT_EQ(words.size(), static_cast<std::size_t>(Enum::other));
}

TEST(ReportWords, KnownWordsReadBackAsThemselves)
{
    expect_known_words_read_back<VerdictResult>();
    expect_known_words_read_back<VerdictUnit>();
    expect_known_words_read_back<BundleKind>();
    expect_known_words_read_back<CapacityVerdict>();
    expect_known_words_read_back<CardType>();
    EXPECT_EQ(read_word<VerdictResult>("not-applicable").value, VerdictResult::not_applicable);
    EXPECT_EQ(read_word<VerdictUnit>("MB/s").value, VerdictUnit::mb_s);
    EXPECT_EQ(read_word<CardType>("MMC").value, CardType::mmc);
}

TEST(ReportWords, UnknownWordsAreOtherAndKeptAsWritten)
{
    const auto marginal = read_word<VerdictResult>("marginal");
    EXPECT_EQ(marginal.value, VerdictResult::other);
    EXPECT_EQ(marginal.text(), "marginal");
    EXPECT_FALSE(marginal.empty());
    // Words are matched exactly: another spelling is not the known word.
    EXPECT_EQ(read_word<VerdictResult>("PASS").value, VerdictResult::other);
    EXPECT_EQ(read_word<VerdictResult>("PASS").text(), "PASS");
    EXPECT_EQ(read_word<VerdictUnit>("mb/s").value, VerdictUnit::other);
    EXPECT_EQ(read_word<CardType>("sd").value, CardType::other);
    const auto none = read_word<VerdictResult>("");
    EXPECT_EQ(none.value, VerdictResult::other);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.text(), "");
}

// A bundle as an older or newer mmckit (or a hand) might write it: words
// this version does not know beside known ones.
json strange_bundle()
{
    return json::parse(R"({
      "format": "mmckit-bundle", "format_version": 1, "kind": "replayed", "created": "2026-11-03T10:15:00Z",
      "card": {"label": "Odd card", "manufacturer": "", "product": "", "serial": "", "capacity_bytes": null,
               "type": "SDIO", "classes": {"speed_class": "", "uhs_speed_grade": "", "video_speed_class": "", "app_perf_class": ""}},
      "host": {"label": "Odd host", "controller": "", "bus_mode": "", "kernel": ""},
      "results": {"seq_read_mb_s": 20.5},
      "verdicts": [
        {"claim": "speed class C10", "required": 10, "measured": 12.5, "unit": "MB/min", "result": "marginal", "why": "close"},
        {"claim": "A1 random read 4 KiB QD1", "required": 1500, "measured": 1650, "unit": "IOPS", "result": "pass", "why": "meets"},
        {"claim": "A1 random write 4 KiB QD1", "required": 500, "measured": 460, "unit": "IOPS", "result": "fail", "why": "below"}
      ],
      "registers": {"tool": "mmc-info"},
      "probe": {"capacity": {"verdict": "suspicious", "announced_bytes": 1073741824, "usable_bytes": 536870912}},
      "steps": [], "environment": {}, "tools": {}
    })");
}

TEST(ReportWords, UnknownWordsLoadWithANote)
{
    const Bundle b = from_json(strange_bundle());
    ASSERT_EQ(b.verdicts.size(), 3u);
    const Verdict& v = b.verdicts[0];
    EXPECT_EQ(v.result.value, VerdictResult::other);
    EXPECT_EQ(v.result.text(), "marginal");
    EXPECT_EQ(v.unit.value, VerdictUnit::other);
    EXPECT_EQ(v.unit.text(), "MB/min");
    EXPECT_EQ(b.verdicts[1].result.value, VerdictResult::pass);
    EXPECT_EQ(b.verdicts[2].result.value, VerdictResult::fail);
    EXPECT_EQ(b.kind.value, BundleKind::other);
    EXPECT_EQ(b.kind.text(), "replayed");
    EXPECT_EQ(b.card.type.value, CardType::other);
    EXPECT_EQ(b.card.type.text(), "SDIO");
    ASSERT_TRUE(b.capacity);
    EXPECT_EQ(b.capacity->verdict.value, CapacityVerdict::other);
    EXPECT_EQ(b.capacity->verdict.text(), "suspicious");
    // Noted, as before words became enums; not refused.
    EXPECT_NE(std::find(b.warnings.begin(), b.warnings.end(), "kind: unknown kind 'replayed'"), b.warnings.end());
    EXPECT_NE(std::find(b.warnings.begin(), b.warnings.end(), "verdicts[0]: result 'marginal' is not pass, fail or not-applicable"),
              b.warnings.end());
    EXPECT_EQ(b.warnings.size(), 2u);
}

TEST(ReportWords, UnknownWordsPrintAsWrittenAndCountNeitherPassNorFail)
{
    const Bundle b = from_json(strange_bundle());
    const Report rep = build_report({b});
    ASSERT_EQ(rep.groups.size(), 1u);
    EXPECT_EQ(rep.groups[0].kind, BundleKind::measured) << "an unknown kind is grouped as measured";
    EXPECT_EQ(verdict_result_text(b.verdicts[0], std::nullopt), "marginal");
    EXPECT_EQ(value_with_unit(12.5, b.verdicts[0].unit), "12.5 MB/min");
    EXPECT_EQ(capacity_text(b.capacity), "suspicious: 512 MiB of 1 GiB usable");

    const std::string text = text_report(rep, false);
    EXPECT_NE(text.find("12.5 MB/min"), std::string::npos) << text;
    EXPECT_NE(text.find("marginal"), std::string::npos) << text;
    EXPECT_NE(text.find("  Measured:"), std::string::npos) << text;
    // In colour, pass is green and fail red; the unknown word is dim, as not-applicable is.
    const std::string colored = text_report(rep, true);
    EXPECT_NE(colored.find("\033[2mmarginal"), std::string::npos) << colored;
    EXPECT_NE(colored.find("\033[32mpass"), std::string::npos) << colored;
    EXPECT_NE(colored.find("\033[1;31mfail"), std::string::npos) << colored;

    const std::string html = html_report(rep, {});
    EXPECT_NE(html.find("<span class=\"badge na\">marginal</span>"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"badge pass\">pass</span>"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"badge fail\">fail</span>"), std::string::npos);
    EXPECT_NE(html.find("12.5 MB/min"), std::string::npos);
    EXPECT_NE(html.find("<section class=\"group measured\""), std::string::npos);
    EXPECT_NE(html.find("<dt>Type</dt><dd>SDIO</dd>"), std::string::npos) << "the card type as written";

    const std::string csv = csv_report(rep);
    EXPECT_NE(csv.find(",speed class C10,10,12.5,MB/min,marginal,close,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",suspicious,"), std::string::npos) << csv;

    const json j = json_report(rep, {});
    EXPECT_EQ(j["bundles"][0]["kind"], "replayed");
    EXPECT_EQ(j["groups"][0]["kind"], "measured");
    const json& jv = j["groups"][0]["verdicts"][0];
    EXPECT_EQ(jv["result"], "marginal");
    EXPECT_EQ(jv["unit"], "MB/min");
    EXPECT_EQ(jv["bus_limited"], false);
    EXPECT_EQ(j["groups"][0]["results"][0]["probe"]["capacity"]["verdict"], "suspicious");
}

TEST(ReportWords, SaveAndLoadRoundTripIsExact)
{
    const json doc = to_json(from_json(strange_bundle()));
    EXPECT_EQ(doc["kind"], "replayed");
    EXPECT_EQ(doc["card"]["type"], "SDIO");
    EXPECT_EQ(doc["verdicts"][0]["result"], "marginal");
    EXPECT_EQ(doc["verdicts"][0]["unit"], "MB/min");
    EXPECT_EQ(doc["verdicts"][1]["result"], "pass");
    EXPECT_EQ(doc["verdicts"][2]["unit"], "IOPS");
    // Read back and written again: the same bytes.
    const std::string once = doc.dump(2);
    EXPECT_EQ(to_json(from_json(json::parse(once))).dump(2), once);

    // An empty word stays empty, and a bundle without a kind takes one from its source.
    json blank = strange_bundle();
    blank["verdicts"][0]["unit"] = "";
    blank["card"]["type"] = "";
    blank.erase("kind");
    const json written = to_json(from_json(blank));
    EXPECT_EQ(written["verdicts"][0]["unit"], "");
    EXPECT_EQ(written["card"]["type"], "");
    EXPECT_EQ(written["kind"], "measured");
    EXPECT_EQ(to_json(from_json(json::parse(written.dump()))).dump(), written.dump());
}

TEST(ReportWords, TheStoreRecordsTheWordsAsWritten)
{
    const BundleRecord r = make_record(strange_bundle().dump(), "odd.json", "2026-11-04T00:00:00Z");
    auto column = [&](const std::string& name) {
        for (const auto& [key, value] : r.columns)
            if (key == name) return value;
        ADD_FAILURE() << "no column " << name;
        return SqlValue{};
    };
    EXPECT_EQ(column("kind"), SqlValue{std::string("replayed")});
    EXPECT_EQ(column("card_type"), SqlValue{std::string("SDIO")});
    EXPECT_EQ(column("capacity_verdict"), SqlValue{std::string("suspicious")});
    ASSERT_EQ(r.verdicts.size(), 3u);
    const auto unit_at = std::find(verdict_columns.begin(), verdict_columns.end(), "unit") - verdict_columns.begin();
    const auto result_at = std::find(verdict_columns.begin(), verdict_columns.end(), "result") - verdict_columns.begin();
    ASSERT_LT(static_cast<std::size_t>(result_at), verdict_columns.size());
    EXPECT_EQ(r.verdicts[0][unit_at], SqlValue{std::string("MB/min")});
    EXPECT_EQ(r.verdicts[0][result_at], SqlValue{std::string("marginal")});
    EXPECT_EQ(r.verdicts[1][result_at], SqlValue{std::string("pass")});
}

} // namespace
