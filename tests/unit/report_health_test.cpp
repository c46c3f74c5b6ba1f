// mmc-health's document in a bundle: kept whole under "health", its verdict
// and highest life used read out, and mmc-report's table of the latest
// reading per card with its life used over time.
#include "report/bundle.h"
#include "report/export.h"
#include "report/html.h"
#include "report/tables.h"
#include "report/text.h"

#include <gtest/gtest.h>

namespace {

using namespace mmc::report;

json health_doc(const std::string& verdict, std::optional<double> a, std::optional<double> b = std::nullopt)
{
    json wear = json::array();
    if (a) wear.push_back({{"source", "ext_csd"}, {"life_used_percent", *a}});
    if (b) wear.push_back({{"source", "cmd56:micron_emmc"}, {"life_used_percent", *b}});
    return {{"tool", "mmc-health"}, {"verdict", verdict}, {"cards", json::array({{{"verdict", verdict}, {"wear", wear}}})}};
}

Bundle card_read(const std::string& label, const std::string& created, const json& health)
{
    Bundle b;
    b.card.label = label;
    b.card.serial = "0x01";
    b.host.label = "pi";
    b.created = created;
    b.health = health;
    read_tool_parts(b);
    return b;
}

} // namespace

TEST(ReportHealth, KeptWholeAndReadOut)
{
    Bundle b = card_read("eMMC", "2026-11-03T10:00:00Z", health_doc("worn", 10, 90));
    ASSERT_TRUE(b.health_figures);
    EXPECT_EQ(b.health_figures->verdict, "worn");
    EXPECT_EQ(b.health_figures->life_used_percent, 90);
    EXPECT_EQ(b.health_figures->life_source, "cmd56:micron_emmc");
    const json doc = to_json(b);
    EXPECT_EQ(doc["health"], b.health);
    const Bundle back = from_json(doc);
    ASSERT_TRUE(back.health_figures);
    EXPECT_EQ(back.health_figures->verdict, "worn");
}

TEST(ReportHealth, WrongTypesAreWarningsNotFigures)
{
    json bad = health_doc("healthy", std::nullopt);
    bad["cards"][0]["wear"] = json::array({{{"source", "ext_csd"}, {"life_used_percent", "lots"}}, {{"life_used_percent", -5}}});
    const Bundle b = card_read("SD", "2026-11-03T10:00:00Z", bad);
    ASSERT_TRUE(b.health_figures);
    EXPECT_EQ(b.health_figures->life_used_percent, std::nullopt);
    EXPECT_EQ(b.warnings.size(), 2u);
    Bundle none = card_read("SD", "", json{{"cards", "x"}});
    EXPECT_FALSE(none.health_figures);
}

TEST(ReportHealth, LatestReadingPerCardAndLifeOverTime)
{
    std::vector<Bundle> v;
    v.push_back(card_read("eMMC", "2026-12-03T10:00:00Z", health_doc("worn", 80)));
    v.push_back(card_read("eMMC", "2026-11-03T10:00:00Z", health_doc("healthy", 20)));
    v.push_back(card_read("SD", "2026-11-04T10:00:00Z", health_doc("unknown", std::nullopt)));
    const std::string text = text_report(build_report(std::move(v)), false);
    EXPECT_NE(text.find("Health (mmc-health), the latest reading per card"), std::string::npos) << text;
    // The latest reading of the eMMC is December's, whatever the order given.
    EXPECT_NE(text.find("eMMC  worn "), std::string::npos) << text;
    EXPECT_NE(text.find("80%  ext_csd  2026-12-03  20% 2026-11-03, 80% 2026-12-03"), std::string::npos) << text;
    EXPECT_NE(text.find("SD    unknown"), std::string::npos) << text;
}

TEST(ReportHealth, NoHealthNoTable)
{
    std::vector<Bundle> v;
    Bundle b;
    b.card.label = "X";
    b.host.label = "Y";
    b.results.seq_read_mb_s = 10;
    v.push_back(b);
    EXPECT_EQ(text_report(build_report(std::move(v)), false).find("Health"), std::string::npos);
}

TEST(ReportHealth, HtmlTableAndLifeOverTimeChart)
{
    std::vector<Bundle> v;
    v.push_back(card_read("eMMC <1>", "2026-12-03T10:00:00Z", health_doc("worn", 80)));
    v.push_back(card_read("eMMC <1>", "2026-11-03T10:00:00Z", health_doc("healthy", 20)));
    v.push_back(card_read("SD", "2026-11-04T10:00:00Z", health_doc("unknown", std::nullopt)));
    const std::string html = html_report(build_report(std::move(v)), HtmlOptions{});
    EXPECT_NE(html.find("<h3>Health</h3>"), std::string::npos);
    EXPECT_NE(html.find("class=\"chart health\""), std::string::npos) << "a chart of life used over time";
    EXPECT_NE(html.find("Life used over time, per card, %"), std::string::npos);
    EXPECT_NE(html.find("eMMC &lt;1&gt; on 2026-11-03: life used 20% (healthy)"), std::string::npos) << "oldest reading, escaped";
    EXPECT_LT(html.find("2026-11-03: life used 20%"), html.find("2026-12-03: life used 80%")) << "oldest first";
    EXPECT_EQ(html.find("SD on 2026-11-04"), std::string::npos) << "a card without a figure has no bar";
    EXPECT_NE(html.find("<table class=\"health\">"), std::string::npos);
}

TEST(ReportHealth, JsonAndCsvCarryTheReading)
{
    std::vector<Bundle> v;
    v.push_back(card_read("eMMC", "2026-12-03T10:00:00Z", health_doc("worn", 10, 80)));
    Bundle plain;
    plain.card.label = "SD";
    plain.host.label = "pi";
    plain.results.seq_read_mb_s = 10;
    v.push_back(plain);
    const Report rep = build_report(std::move(v));
    const json doc = json_report(rep, {});
    json by_card;
    for (const auto& g : doc["groups"])
        for (const auto& r : g["results"]) by_card[r["card"].get<std::string>()] = r["health"];
    EXPECT_EQ(by_card["eMMC"], (json{{"verdict", "worn"}, {"life_used_percent", 80}, {"life_source", "cmd56:micron_emmc"}}));
    EXPECT_TRUE(by_card["SD"].is_null()) << "no reading: null, not an empty object";

    const std::string csv = csv_report(rep);
    EXPECT_NE(csv.find(",state_summary,health_verdict,life_used_percent,life_source,sustained_mb_s,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",worn,80,cmd56:micron_emmc,,,,\r\n"), std::string::npos) << csv;
    // Every row has as many fields as the header (none of them quoted here).
    std::size_t start = 0;
    while (start < csv.size()) {
        const auto end = csv.find("\r\n", start);
        const std::string line = csv.substr(start, end - start);
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), static_cast<long>(csv_columns.size() - 1)) << line;
        start = end + 2;
    }
}
