// mmc-health's views: the verdict on the first line, the JSON contract's
// keys, and metrics in the Prometheus text format.
#include "health_blocks.h"
#include "views/health_view.h"

using namespace mmc::health;

namespace {

mmc::out::CardHealth worn_card()
{
    mmc::out::CardHealth c;
    c.name = "mmc0:aaaa";
    c.device = "/dev/mmcblk0";
    Reading r;
    r.source = "ext_csd";
    r.wear.life_used_percent = 90;
    r.wear.life_exhausted = false;
    r.wear.pre_eol = PreEol::normal;
    r.add("pre_eol_info", int64_t{1}, "Pre-EOL information", "normal");
    c.report.readings.push_back(r);
    c.report.no_data.push_back({"cmd56:micron_emmc", "the card answered with a block of 0xff bytes"});
    c.report.writability.writable = true;
    c.report.judgement = judge(c.report.readings, c.report.writability);
    return c;
}

} // namespace

TEST(HealthView, VerdictIsOnTheFirstLine)
{
    const auto text = mmc::out::health_text(worn_card(), false);
    EXPECT_EQ(text.substr(0, text.find('\n')), "mmc0:aaaa (/dev/mmcblk0): worn - life used 90% (ext_csd)");
    EXPECT_NE(text.find("Writable: yes"), std::string::npos);
    EXPECT_NE(text.find("cmd56:micron_emmc"), std::string::npos);
}

TEST(HealthView, JsonKeys)
{
    const auto j = mmc::out::health_json(worn_card());
    EXPECT_EQ(j["verdict"], "worn");
    EXPECT_EQ(j["verdict_basis"]["source"], "ext_csd");
    EXPECT_EQ(j["verdict_basis"]["figure"], "life_used_percent");
    const auto& w = j["wear"][0];
    for (const char* key : {"source", "life_used_percent", "life_exhausted", "pre_eol", "spare_blocks_percent", "bad_blocks",
                            "erase_count", "rated_erase_cycles", "power_cycles", "abnormal_power_losses", "bytes_written",
                            "firmware", "fields", "notes"})
        EXPECT_TRUE(w.contains(key)) << key;
    EXPECT_EQ(w["pre_eol"], "normal");
    EXPECT_TRUE(w["spare_blocks_percent"].is_null());
    EXPECT_TRUE(w["bad_blocks"]["factory"].is_null());
    EXPECT_EQ(w["fields"]["pre_eol_info"], 1);
    EXPECT_EQ(j["writability"]["writable"], true);
    EXPECT_EQ(j["no_health_data"][0]["source"], "cmd56:micron_emmc");
}

TEST(HealthView, PrometheusTextFormat)
{
    auto card = worn_card();
    card.name = "odd\"name\\";
    const auto text = mmc::out::health_prometheus({card});
    EXPECT_NE(text.find("# TYPE mmc_health_verdict gauge\n"), std::string::npos);
    EXPECT_NE(text.find("mmc_health_verdict{card=\"odd\\\"name\\\\\",device=\"/dev/mmcblk0\",verdict=\"worn\"} 1\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("verdict=\"healthy\"} 0\n"), std::string::npos);
    EXPECT_NE(text.find("mmc_health_life_used_percent{card=\"odd\\\"name\\\\\",device=\"/dev/mmcblk0\",source=\"ext_csd\"} 90\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("mmc_health_pre_eol{"), std::string::npos);
    EXPECT_NE(text.find("mmc_health_writable{"), std::string::npos);
    // One HELP and TYPE per family, however many cards.
    const auto two = mmc::out::health_prometheus({card, card});
    std::size_t helps = 0;
    for (std::size_t at = 0; (at = two.find("# HELP mmc_health_verdict ", at)) != std::string::npos; ++at) ++helps;
    EXPECT_EQ(helps, 1u);
}
