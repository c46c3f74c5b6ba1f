// mmc-health's views: the verdict on the first line, the JSON contract's
// keys, and metrics in the Prometheus text format.
#include "health_blocks.h"
#include "views/health_metrics.h"
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

TEST(HealthView, PrometheusNamesFollowTheConventions)
{
    auto card = worn_card();
    card.device.clear(); // --from: no device, no empty label
    auto& w = card.report.readings[0].wear;
    w.pre_eol = PreEol::warning;
    w.power_cycles = 12;
    w.abnormal_power_losses = 3;
    w.bytes_written = 4096;
    w.erase_count.total = 5000;
    w.erase_count.max = 40;
    w.rated_erase_cycles = 0; // a source that does not know its rating
    const auto text = mmc::out::health_prometheus({card});
    EXPECT_EQ(text.find("=\"\""), std::string::npos) << text;
    EXPECT_NE(text.find("\nmmc_health_cards 1\n"), std::string::npos) << text;
    const std::string l = "{card=\"mmc0:aaaa\",source=\"ext_csd\"";
    EXPECT_NE(text.find("mmc_health_life_used_ratio" + l + "} 0.9\n"), std::string::npos) << text;
    EXPECT_NE(text.find("mmc_health_pre_eol_state" + l + ",state=\"warning\"} 1\n"), std::string::npos) << text;
    EXPECT_NE(text.find("mmc_health_pre_eol_state" + l + ",state=\"normal\"} 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find("mmc_health_pre_eol_state" + l + ",state=\"urgent\"} 0\n"), std::string::npos) << text;
    for (const char* counter : {"mmc_health_power_cycles_total", "mmc_health_abnormal_power_losses_total",
                                "mmc_health_written_bytes_total", "mmc_health_block_erases_total"})
        EXPECT_NE(text.find(std::string("# TYPE ") + counter + " counter\n"), std::string::npos) << counter;
    EXPECT_NE(text.find("mmc_health_block_erases_total" + l + "} 5000\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("rated_erase_cycles"), std::string::npos) << text;
    // The previous release's names, one more release, said to be deprecated.
    for (const char* old : {"mmc_health_life_used_percent", "mmc_health_pre_eol", "mmc_health_power_cycles",
                            "mmc_health_abnormal_power_losses", "mmc_health_written_bytes"})
        EXPECT_NE(text.find(std::string("# HELP ") + old + " Deprecated"), std::string::npos) << old;
    EXPECT_NE(text.find("mmc_health_life_used_percent" + l + "} 90\n"), std::string::npos) << text;
    EXPECT_NE(text.find("mmc_health_pre_eol" + l + "} 2\n"), std::string::npos) << text;
    EXPECT_NE(text.find("mmc_health_block_erases" + l + ",stat=\"total\"} 5000\n"), std::string::npos) << text;
    w.rated_erase_cycles = 3000;
    EXPECT_NE(mmc::out::health_prometheus({card}).find("mmc_health_rated_erase_cycles" + l + "} 3000\n"), std::string::npos);
}

TEST(HealthView, PrometheusWithoutACardSaysSo)
{
    EXPECT_EQ(mmc::out::health_prometheus({}),
              "# HELP mmc_health_cards Cards mmc-health read in this run (0: none, and no card series)\n"
              "# TYPE mmc_health_cards gauge\n"
              "mmc_health_cards 0\n");
}
