// The bundle's mmc-probe answers and state comparison:
// read from the tools' documents, kept through to_json/from_json, shown in
// the text, HTML, CSV and JSON views, stored in database columns (schema 3,
// which an older database migrates to), and absent without harm from older
// bundles. Also the verdict table's bus ceiling and "bus-limited" results.
#include "old_store.h"
#include "report/bundle.h"
#include "report/export.h"
#include "report/html.h"
#include "report/make_bundle.h"
#include "report/record.h"
#include "report/schema.h"
#include "report/store.h"
#include "report/tables.h"
#include "report/text.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <unistd.h>

namespace {

using namespace mmc::report;
namespace fs = std::filesystem;

json geometry_doc()
{
    return {{"tool", "mmc-probe"}, {"version", "0.1.0"},   {"subcommand", "geometry"}, {"page_size", 16384},
            {"au_size", 4194304},  {"open_aus", nullptr}, {"confidence", "medium"},   {"registers", {{"ssr_au_size", "unknown"}}}};
}

json capacity_doc()
{
    return {{"tool", "mmc-probe"},          {"version", "0.1.0"},         {"command", "capacity"},
            {"verdict", "limbo"},           {"announced_bytes", 268435456}, {"usable_bytes", 67108864},
            {"module_bytes", nullptr},      {"cache_bytes", 0},           {"blocks_written", 42}};
}

json bench_doc(const std::string& suite)
{
    json doc = {{"tool", "mmc-bench"},
                {"version", "0.1.0"},
                {"suite", suite},
                {"bus", {{"mode", "HS"}, {"ceiling_mb_s", 25.0}}},
                {"jobs", json::array({{{"name", "seq-write"}, {"rw", "write"}, {"block_size", 524288}, {"iodepth", 1}, {"ios", 10},
                                       {"mb_s", suite == "state" ? 4.1 : 12.5}, {"iops", 25}}})}};
    if (suite == "state")
        doc["state"] = {{"used", {{"seq_write_mb_s", 4.1}, {"rand_write_iops", 12.0}}},
                        {"erased", {{"seq_write_mb_s", 9.8}, {"rand_write_iops", 300.0}}},
                        {"gain", {{"seq_write", 2.39}, {"rand_write", 25.0}}},
                        {"summary", "sequential write 4.10 -> 9.80 MB/s after erase (x2.39)"}};
    else
        doc["verdicts"] = json::array({{{"claim", "A1 random read 4 KiB QD1"}, {"required", 1500}, {"measured", 1650}, {"unit", "IOPS"},
                                        {"result", "pass"}, {"why", "meets"}, {"bus_ceiling_mb_s", 25.0}},
                                       {{"claim", "UHS grade U3"}, {"required", 30}, {"measured", 22}, {"unit", "MB/s"},
                                        {"result", "not-applicable"}, {"why", "bus-limited: UHS grade U3 needs 30.0 MB/s, above the HS bus ceiling 25 MB/s"}},
                                       {{"claim", "speed class C10"}, {"required", 10}, {"measured", 8}, {"unit", "MB/s"},
                                        {"result", "fail"}, {"why", "below"}}});
    return doc;
}

Bundle made()
{
    MakeInputs in;
    in.bench.push_back({"mmc-bench", "quick.json", bench_doc("quick"), {}});
    in.bench.push_back({"mmc-bench", "state.json", bench_doc("state"), {}});
    in.probe.push_back({"mmc-probe", "geometry.json", geometry_doc(), {}});
    in.probe.push_back({"mmc-probe", "capacity.json", capacity_doc(), {}});
    in.card_label = "sim";
    in.host_label = "host";
    in.created = "2026-12-01T22:00:00Z";
    return make_bundle(in);
}

} // namespace

TEST(ReportProbeState, MakeBundleKeepsTheProbeAndTheStateComparison)
{
    const Bundle b = made();
    ASSERT_TRUE(b.geometry);
    EXPECT_EQ(b.geometry->page_size, 16384u);
    EXPECT_EQ(b.geometry->au_size, 4194304u);
    EXPECT_FALSE(b.geometry->open_aus);
    EXPECT_EQ(b.geometry->confidence, "medium");
    ASSERT_TRUE(b.capacity);
    EXPECT_EQ(b.capacity->verdict.value, CapacityVerdict::limbo);
    EXPECT_EQ(b.capacity->usable_bytes, 67108864u);
    ASSERT_TRUE(b.state);
    EXPECT_EQ(b.state->seq_write_used_mb_s, 4.1);
    EXPECT_EQ(b.state->seq_write_erased_mb_s, 9.8);
    EXPECT_EQ(b.state->summary, "sequential write 4.10 -> 9.80 MB/s after erase (x2.39)");
    // The state suite's writes are not the card's sequential write figure.
    EXPECT_EQ(b.results.seq_write_mb_s, 12.5);
    EXPECT_EQ(b.probe["capacity"]["blocks_written"], 42);
    // Each verdict keeps its ceiling; one without takes its document's bus's.
    ASSERT_EQ(b.verdicts.size(), 3u);
    EXPECT_EQ(b.verdicts[1].bus_ceiling_mb_s, 25.0);
}

TEST(ReportProbeState, RoundTripThroughJson)
{
    const Bundle b = made();
    const json doc = to_json(b);
    EXPECT_EQ(doc["probe"]["geometry"]["page_size"], 16384);
    EXPECT_EQ(doc["verdicts"][0]["bus_ceiling_mb_s"], 25.0);
    const Bundle back = from_json(doc);
    EXPECT_TRUE(back.warnings.empty()) << back.warnings.front();
    ASSERT_TRUE(back.geometry && back.capacity && back.state);
    EXPECT_EQ(back.capacity->announced_bytes, 268435456u);
    EXPECT_EQ(back.state->rand_write_erased_iops, 300.0);
    EXPECT_EQ(back.verdicts[2].bus_ceiling_mb_s, 25.0);
    EXPECT_EQ(to_json(back).dump(), doc.dump());
}

TEST(ReportProbeState, OlderBundlesReadAsBefore)
{
    const json old = {{"format", "mmckit-bundle"},
                      {"format_version", 1},
                      {"card", {{"label", "Old"}}},
                      {"verdicts", json::array({{{"claim", "A1"}, {"required", 1500}, {"measured", 1650}, {"unit", "IOPS"}, {"result", "pass"}, {"why", "x"}}})}};
    const Bundle b = from_json(old);
    EXPECT_TRUE(b.warnings.empty());
    EXPECT_FALSE(b.geometry || b.capacity || b.state);
    EXPECT_FALSE(b.verdicts[0].bus_ceiling_mb_s);
    EXPECT_FALSE(to_json(b).contains("probe"));
    EXPECT_FALSE(to_json(b)["verdicts"][0].contains("bus_ceiling_mb_s"));
}

TEST(ReportProbeState, WrongTypesAreWarnings)
{
    json doc = to_json(made());
    doc["probe"]["geometry"]["page_size"] = "16k";
    doc["bench"][1]["state"]["used"]["seq_write_mb_s"] = -3;
    const Bundle b = from_json(doc);
    ASSERT_TRUE(b.geometry);
    EXPECT_FALSE(b.geometry->page_size);
    EXPECT_FALSE(b.state->seq_write_used_mb_s);
    EXPECT_EQ(b.warnings.size(), 2u);
}

TEST(ReportProbeState, VerdictResultText)
{
    Verdict v{"UHS grade U3", 30, 22, VerdictUnit::mb_s, VerdictResult::not_applicable, "bus-limited: ...", 25};
    EXPECT_EQ(verdict_result_text(v, 25), "not-applicable (bus-limited)");
    v.why = "not measured";
    EXPECT_EQ(verdict_result_text(v, 25), "not-applicable (bus-limited)"); // 30 MB/s needed, 25 possible
    EXPECT_EQ(verdict_result_text(v, 50), "not-applicable");
    v.result = VerdictResult::fail;
    EXPECT_EQ(verdict_result_text(v, 25), "fail");
    Bundle b;
    b.bus = {{"ceiling_mb_s", 13.0}};
    v.bus_ceiling_mb_s.reset();
    EXPECT_EQ(verdict_ceiling(b, v), 13.0); // an older verdict: the bundle's bus
}

TEST(ReportProbeState, TextView)
{
    std::vector<Bundle> bundles{made()};
    const std::string text = text_report(build_report(std::move(bundles)), false);
    EXPECT_NE(text.find("Bus ceiling"), std::string::npos) << text;
    EXPECT_NE(text.find("not-applicable (bus-limited)"), std::string::npos) << text;
    EXPECT_NE(text.find("Flash geometry and capacity (mmc-probe)"), std::string::npos) << text;
    EXPECT_NE(text.find("sim @ host   16 KiB  4 MiB"), std::string::npos) << text;
    EXPECT_NE(text.find("limbo: 64 MiB of 256 MiB usable"), std::string::npos) << text;
    EXPECT_NE(text.find("  sim @ host: sequential write 4.10 -> 9.80 MB/s after erase (x2.39)"), std::string::npos) << text;
}

TEST(ReportProbeState, HtmlCsvJsonViews)
{
    std::vector<Bundle> bundles{made()};
    const Report rep = build_report(std::move(bundles));
    const std::string html = html_report(rep, {});
    EXPECT_NE(html.find("<table class=\"probe\">"), std::string::npos);
    EXPECT_NE(html.find("after erase (x2.39)</li>"), std::string::npos);
    EXPECT_NE(html.find("<th scope=\"col\">Bus ceiling</th>"), std::string::npos);
    EXPECT_NE(html.find("not-applicable</span> (bus-limited)"), std::string::npos);

    const std::string csv = csv_report(rep);
    EXPECT_NE(csv.find(",16384,4194304,,medium,limbo,67108864,sequential write 4.10 -> 9.80 MB/s after erase (x2.39),,,,,,,\r\n"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find("bus-limited: UHS grade U3 needs 30.0 MB/s, above the HS bus ceiling 25 MB/s\",,25,"), std::string::npos) << csv;

    const json j = json_report(rep, {});
    const json& row = j["groups"][0]["results"][0];
    EXPECT_EQ(row["probe"]["geometry"]["au_size"], 4194304);
    EXPECT_EQ(row["probe"]["capacity"]["verdict"], "limbo");
    EXPECT_EQ(row["state"]["seq_write_mb_s"]["gain"], 2.39);
    EXPECT_EQ(j["groups"][0]["verdicts"][1]["bus_limited"], true);
    EXPECT_EQ(j["groups"][0]["verdicts"][2]["bus_limited"], false);
    EXPECT_EQ(j["groups"][0]["verdicts"][2]["bus_ceiling_mb_s"], 25.0);
}

TEST(ReportProbeState, DatabaseColumnsAndTheMigrationFromVersion2)
{
    const auto old_db = mmc::test::old_store(2); // a database of the previous schema, with a row of its time
    const std::string& path = old_db.path;
    auto store = open_store(path, false);
    EXPECT_EQ(schema_version(store->connection()), current_schema_version());
    EXPECT_GE(current_schema_version(), 3);
    const auto res = store->ingest("made.json", to_json(made()).dump(2));
    ASSERT_EQ(res.outcome, Outcome::stored) << res.reason;
    auto one = [&](const std::string& sql) {
        const auto rows = store->connection().query(sql);
        return rows.empty() || !rows[0][0] ? std::string("NULL") : *rows[0][0];
    };
    EXPECT_EQ(one("SELECT probe_page_size || ' ' || probe_au_size || ' ' || probe_confidence FROM bundles WHERE source_path = 'made.json'"),
              "16384 4194304 medium");
    EXPECT_EQ(one("SELECT probe_open_aus IS NULL FROM bundles WHERE source_path = 'made.json'"), "1");
    EXPECT_EQ(one("SELECT capacity_verdict || ' ' || capacity_usable_bytes || ' ' || capacity_announced_bytes FROM bundles WHERE source_path = 'made.json'"),
              "limbo 67108864 268435456");
    EXPECT_EQ(one("SELECT state_summary FROM bundles WHERE source_path = 'made.json'"),
              "sequential write 4.10 -> 9.80 MB/s after erase (x2.39)");
    EXPECT_EQ(one("SELECT state_seq_write_erased_mb_s FROM bundles WHERE source_path = 'made.json'"), "9.8");
    EXPECT_EQ(one("SELECT count(*) FROM verdicts WHERE bus_ceiling_mb_s = 25"), "3");
    // The older row is still there, its new columns NULL.
    EXPECT_EQ(one("SELECT card_label || ' ' || coalesce(capacity_verdict, 'NULL') FROM bundles WHERE source_path = 'old.json'"),
              "Old card NULL");
    store.reset();
    fs::remove_all(old_db.dir);
}
