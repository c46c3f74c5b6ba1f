// The sustained suite in a bundle and the HTML report: its curve read from
// mmc-bench's document (the knee, the speeds, the highest class claimed,
// figures no card reaches dropped) and drawn as throughput against bytes
// written with the knee and the class line marked.
#include "report/bundle.h"
#include "report/html.h"
#include "report/make_bundle.h"
#include "report/sustained_chart.h"
#include "report/export.h"
#include "report/tables.h"
#include "report/text.h"

#include <gtest/gtest.h>

using namespace mmc::report;

namespace {

constexpr uint64_t MiB = 1 << 20;

json sustained_doc(std::optional<uint64_t> knee = 32 * MiB)
{
    json trace = json::array();
    for (uint64_t w = 8 * MiB; w <= 256 * MiB; w += 8 * MiB)
        trace.push_back({{"written", w}, {"at_s", 1.0}, {"mb_s", w <= 32 * MiB ? 90.0 : 24.0}, {"worst_latency_ms", 40.0}});
    return {{"tool", "mmc-bench"},
            {"version", "0.1.0"},
            {"suite", "sustained"},
            {"jobs", json::array()},
            {"verdicts", json::array()},
            {"sustained",
             {{"burst_mb_s", 90.0},
              {"slc_cache_bytes", knee ? json(*knee) : json(nullptr)},
              {"sustained_mb_s", 24.0},
              {"worst_latency_ms", 412.0},
              {"trace", trace},
              {"verdicts",
               {{{"claim", "UHS speed grade U1 (slowest AU, spec method)"}, {"required", 10}, {"result", "pass"}},
                {{"claim", "video speed class V30 (slowest AU, spec method)"}, {"required", 30}, {"result", "fail"}}}}}}};
}

Bundle made(json doc)
{
    MakeInputs in;
    in.bench.push_back({"mmc-bench", "sustained.json", std::move(doc), {}});
    in.card_label = "sim";
    in.host_label = "host";
    in.created = "2026-12-03T12:00:00Z";
    return make_bundle(in);
}

} // namespace

TEST(ReportSustained, TheCurveIsReadFromTheBenchDocument)
{
    const Bundle b = made(sustained_doc());
    ASSERT_TRUE(b.sustained);
    EXPECT_EQ(b.sustained->points.size(), 32u);
    EXPECT_EQ(b.sustained->points.back().written, 256 * MiB);
    EXPECT_EQ(b.sustained->knee_bytes, 32 * MiB);
    EXPECT_EQ(b.sustained->sustained_mb_s, 24.0);
    EXPECT_EQ(b.sustained->class_mb_s, 30.0);
    EXPECT_EQ(b.sustained->class_name, "video speed class V30");
}

TEST(ReportSustained, AFigureNoCardReachesIsDroppedWithAWarning)
{
    json doc = sustained_doc();
    doc["sustained"]["trace"][3]["mb_s"] = 1e9;
    const Bundle b = made(doc);
    ASSERT_TRUE(b.sustained);
    EXPECT_EQ(b.sustained->points.size(), 31u);
    bool warned = false;
    for (const auto& w : b.warnings) warned = warned || w.find("sustained.trace.mb_s") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(ReportSustained, TheHtmlDrawsTheCurveTheKneeAndTheClassLine)
{
    std::vector<Bundle> bundles{made(sustained_doc())};
    const std::string html = html_report(build_report(std::move(bundles)), {});
    EXPECT_NE(html.find("<h3>Sustained writes</h3>"), std::string::npos);
    EXPECT_NE(html.find("class=\"chart sustained\""), std::string::npos);
    EXPECT_NE(html.find("<polyline class=\"curve\""), std::string::npos);
    EXPECT_NE(html.find("SLC cache 32 MiB</text>"), std::string::npos);
    EXPECT_NE(html.find("video speed class V30 30 MB/s</text>"), std::string::npos);
}

TEST(ReportSustained, NoKneeNoKneeMark)
{
    const Bundle b = made(sustained_doc(std::nullopt));
    ASSERT_TRUE(b.sustained);
    const std::string svg = sustained_chart(*b.sustained, "x", "sim @ host");
    EXPECT_EQ(svg.find("class=\"knee\""), std::string::npos);
    EXPECT_NE(svg.find("no knee"), std::string::npos);
    EXPECT_EQ(sustained_chart(SustainedCurve{}, "x", "none"), "");
}

// The report's tables gain the sustained speed and the worst write.
TEST(ReportSustained, TextJsonAndCsvCarryTheSustainedFigures)
{
    std::vector<Bundle> v;
    v.push_back(made(sustained_doc()));
    const Report rep = build_report(std::move(v));
    const std::string text = text_report(rep, false);
    EXPECT_NE(text.find("Sustained writes (the benchmark's sustained suite)"), std::string::npos) << text;
    EXPECT_NE(text.find("32 MiB"), std::string::npos) << "the SLC cache's size" << text;
    EXPECT_NE(text.find("412"), std::string::npos) << "the worst write, ms" << text;
    const json doc = json_report(rep, {});
    EXPECT_EQ(doc["groups"][0]["results"][0]["sustained"],
              (json{{"burst_mb_s", 90.0}, {"slc_cache_bytes", 32 * MiB}, {"sustained_mb_s", 24.0}, {"worst_latency_ms", 412.0}}));
    EXPECT_NE(csv_report(rep).find(",24,33554432,412,\r\n"), std::string::npos) << csv_report(rep);
}
