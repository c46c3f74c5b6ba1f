// libmmc/report views: grouping rules, the text table printer, CSV and JSON
// shapes, and the HTML page (self-contained, charts present, text escaped,
// missing figures as a dash).
#include "report/export.h"
#include "report/html.h"
#include "report/load.h"
#include "report/tables.h"
#include "report/text.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace {

using namespace mmc::report;

Bundle measured(const std::string& card, const std::string& host, std::optional<double> read, std::optional<double> write,
                const std::string& serial = "")
{
    Bundle b;
    b.card.label = card;
    b.card.serial = serial;
    b.host.label = host;
    b.results.seq_read_mb_s = read;
    b.results.seq_write_mb_s = write;
    return b;
}

std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    for (const char c : text) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

TEST(ReportViews, GroupsRowsAndColumns)
{
    std::vector<Bundle> v;
    v.push_back(measured("Card A", "Pi 4, DDR50", 44.1, 20.0));
    v.push_back(measured("Card B", "Pi 4, DDR50", 41.0, std::nullopt));
    v.push_back(measured("Card A", "Pi 3, HS", 22.5, 19.0));
    v.push_back(measured("Card A", "Pi 3, HS", 22.7, 19.1)); // a second run
    Bundle imported = measured("Card A", "OLPC XO", 8.0, 1.0);
    imported.kind = BundleKind::imported;
    imported.source = Source{};
    imported.source->title = "A study";
    v.push_back(imported);
    v.push_back(measured("Same Model", "Pi 4, DDR50", 30.0, 10.0, "0x1"));
    v.push_back(measured("Same Model", "Pi 4, DDR50", 31.0, 11.0, "0x2"));
    const Report r = build_report(std::move(v));
    ASSERT_EQ(r.groups.size(), 2u);
    const Group& m = r.groups[0];
    EXPECT_EQ(m.title, "Measured with mmckit");
    EXPECT_EQ(m.hosts, (std::vector<std::string>{"Pi 4, DDR50", "Pi 3, HS"}));
    // The rows of one card stay together: Card A's second row is next to its first.
    EXPECT_EQ(m.cards, (std::vector<std::string>{"Card A (1)", "Card A (2)", "Card B", "Same Model (serial 0x1)", "Same Model (serial 0x2)"}));
    EXPECT_EQ(m.cell[0][1], 2);
    EXPECT_EQ(m.cell[1][1], 3) << "the second run of Card A on the Pi 3 gets its own row";
    EXPECT_EQ(m.cell[1][0], -1);
    EXPECT_EQ(m.cell[2][0], 1);
    EXPECT_EQ(r.groups[1].title, "A study");
    EXPECT_EQ(r.groups[1].cards, (std::vector<std::string>{"Card A"}));
}

TEST(ReportViews, Numbers)
{
    EXPECT_EQ(mb_s_text(std::nullopt), "\u2013");
    EXPECT_EQ(mb_s_text(18.2033), "18.2");
    EXPECT_EQ(mb_s_text(0.982016), "0.982");
    EXPECT_EQ(mb_s_text(65), "65");
    EXPECT_EQ(mb_s_text(0), "0") << "a measured zero is a zero";
    EXPECT_EQ(mb_s_text(12345.6), "12346");
    EXPECT_EQ(iops_text(1854), "1854");
    EXPECT_EQ(iops_text(219.5), "219.5");
    EXPECT_EQ(iops_text(43262.2), "43262");
    EXPECT_EQ(value_with_unit(1500, VerdictUnit::iops), "1500 IOPS");
    EXPECT_EQ(value_with_unit(std::nullopt, VerdictUnit::mb_s), "\u2013");
    EXPECT_EQ(classes_text({"C10", "U1", "not supported", "A1"}), "C10 U1 A1");
    EXPECT_EQ(classes_text({"Class 0", "U0", "not supported", "not supported"}), "");
    EXPECT_EQ(classes_text({"Class 10", "U3", "V30", "A2"}), "C10 U3 V30 A2");
}

TEST(ReportViews, TextShowsMissingAsDashAndProblems)
{
    std::vector<Bundle> v;
    v.push_back(measured("Card A", "Host 1", 44.1, std::nullopt));
    Bundle failed = measured("Card B", "Host 1", std::nullopt, std::nullopt);
    failed.steps.push_back({"bench", false, "mmc-bench exited 1"});
    v.push_back(failed);
    const std::string text = text_report(build_report(std::move(v)), false);
    EXPECT_NE(text.find("Card B  "), std::string::npos) << text;
    EXPECT_NE(text.find("\u2013"), std::string::npos) << text;
    EXPECT_NE(text.find("Card B @ Host 1: step bench failed: mmc-bench exited 1"), std::string::npos) << text;
    EXPECT_EQ(text.find("Random I/O"), std::string::npos) << "no random figures, no random table";
    EXPECT_EQ(text.find("Verdicts"), std::string::npos);
    EXPECT_EQ(text.find("\033["), std::string::npos) << "no colour unless asked";
}

TEST(ReportViews, CsvOneDocumentWithATableColumn)
{
    std::vector<Bundle> v;
    Bundle b = measured("Card, \"quoted\"", "Host", 12.5, std::nullopt);
    b.results.rand_read_iops["4k"] = 1650;
    b.verdicts.push_back({"A1 random read 4 KiB QD1", 1500, 1650, VerdictUnit::iops, VerdictResult::pass, "meets", std::nullopt});
    b.path = "r/x.json";
    v.push_back(b);
    const std::string csv = csv_report(build_report(std::move(v)));
    const auto lines = split(csv, '\n');
    ASSERT_EQ(lines.size(), 4u) << csv; // header, results, verdicts, and the empty rest after the last CRLF
    EXPECT_EQ(lines[0], "table,study,card,host,seq_write_mb_s,seq_read_mb_s,rand_write_iops_1k,rand_read_iops_1k,"
                        "rand_write_iops_4k,rand_read_iops_4k,rand_write_iops_16k,rand_read_iops_16k,error,claim,"
                        "required,measured,unit,result,why,bundle,bus_ceiling_mb_s,page_size,au_size,open_aus,"
                        "probe_confidence,capacity_verdict,usable_bytes,state_summary,health_verdict,life_used_percent,"
                        "life_source,sustained_mb_s,slc_cache_bytes,worst_latency_ms,attachment\r");
    // The first twenty columns as before the probe's and the ceiling's were added.
    EXPECT_EQ(lines[1], "results,Measured with mmckit,\"Card, \"\"quoted\"\"\",Host,,12.5,,,,1650,,,,,,,,,,r/x.json,,,,,,,,,,,,,,,\r");
    EXPECT_EQ(lines[2], "verdicts,Measured with mmckit,\"Card, \"\"quoted\"\"\",Host,,,,,,,,,,A1 random read 4 KiB QD1,1500,1650,IOPS,pass,meets,r/x.json,,,,,,,,,,,,,,,\r");
    EXPECT_EQ(csv_field("a\nb"), "\"a\nb\"");
    EXPECT_EQ(csv_columns.size(), 35u);
}

TEST(ReportViews, JsonShape)
{
    std::vector<Bundle> v;
    v.push_back(measured("Card A", "Host 1", 44.1, std::nullopt));
    v.push_back(measured("Card A", "Host 2", std::nullopt, 3.0));
    const json j = json_report(build_report(std::move(v)), {"x.json: not JSON; skipped"});
    EXPECT_EQ(j["tool"], "mmc-report");
    EXPECT_EQ(j["version"], "0.1.0");
    EXPECT_EQ(j["warnings"][0], "x.json: not JSON; skipped");
    const auto& g = j["groups"][0];
    EXPECT_EQ(g["kind"], "measured");
    EXPECT_TRUE(g["source"].is_null());
    EXPECT_EQ(g["seq_read_mb_s"], json::parse("[[44.1, null]]"));
    EXPECT_EQ(g["seq_write_mb_s"], json::parse("[[null, 3.0]]"));
    EXPECT_TRUE(g["results"][0]["rand_read_iops"]["4k"].is_null());
    EXPECT_EQ(g["results"].size(), 2u);
}

TEST(ReportViews, NiceAxis)
{
    EXPECT_EQ(nice_axis(18.77).step, 5);
    EXPECT_EQ(nice_axis(18.77).end, 20);
    EXPECT_EQ(nice_axis(4786).step, 2000);
    EXPECT_EQ(nice_axis(4786).end, 6000);
    EXPECT_EQ(nice_axis(1.741).end, 2);
    EXPECT_EQ(nice_axis(68).end, 80);
    EXPECT_EQ(nice_axis(20).end, 20);
    EXPECT_EQ(nice_axis(0).end, 1);
}

TEST(ReportViews, HtmlSelfContainedWithCharts)
{
    std::vector<Bundle> v;
    Bundle a = measured("Card <A> & co", "Host \"1\"", 44.1, std::nullopt);
    a.results.rand_read_iops["4k"] = 1650;
    a.results.rand_write_iops["4k"] = 460;
    a.verdicts.push_back({"A1 random write 4 KiB QD1", 500, 460, VerdictUnit::iops, VerdictResult::fail, "below", std::nullopt});
    a.verdicts.push_back({"speed class C10", 10, std::nullopt, VerdictUnit::mb_s, VerdictResult::not_applicable, "no AU test", std::nullopt});
    a.registers = json::parse(R"({"tool": "mmc-info", "registers": {"cid": {"decoded": {"date": "2014-08", "revision": "8.0"}},
                                  "scr": {"decoded": {"spec_version": "3.0x"}}}})");
    a.card.manufacturer = "SanDisk";
    a.card.product = "SL16G";
    a.card.capacity_bytes = 15931539456ull;
    a.card.type = CardType::sd;
    a.card.classes = {"C10", "U0", "not supported", "A1"};
    a.host.bus_mode = "HS";
    v.push_back(a);
    Bundle e = measured("Card B", "Host \"1\"", std::nullopt, std::nullopt);
    e.error = "I/O errors";
    v.push_back(e);
    HtmlOptions o;
    o.generated = "2026-11-03T10:15:00Z";
    const std::string h = html_report(build_report(std::move(v)), o);
    EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(h.find("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"), std::string::npos);
    EXPECT_NE(h.find("@media print"), std::string::npos);
    EXPECT_NE(h.find("class=\"chart by-interface\""), std::string::npos);
    EXPECT_NE(h.find("class=\"chart by-card\""), std::string::npos);
    EXPECT_NE(h.find("class=\"chart iops\""), std::string::npos);
    EXPECT_NE(h.find("<span class=\"badge fail\">fail</span>"), std::string::npos);
    EXPECT_NE(h.find("<span class=\"badge na\">not-applicable</span>"), std::string::npos);
    EXPECT_NE(h.find("<dt>SD spec</dt><dd>SD 3.0x</dd>"), std::string::npos);
    EXPECT_NE(h.find("<dt>Classes</dt><dd>C10 A1</dd>"), std::string::npos);
    EXPECT_NE(h.find("<dt>Made</dt><dd>2014-08</dd>"), std::string::npos);
    EXPECT_NE(h.find("Card &lt;A&gt; &amp; co"), std::string::npos);
    EXPECT_EQ(h.find("Card <A>"), std::string::npos) << "text is escaped";
    EXPECT_NE(h.find("error: I/O errors"), std::string::npos);
    EXPECT_NE(h.find("<td class=\"num none\">\u2013</td>"), std::string::npos) << "the missing write is a dash";
    EXPECT_EQ(h.find("<script"), std::string::npos);
    EXPECT_EQ(h.find("src="), std::string::npos) << "nothing loaded from anywhere";
    EXPECT_EQ(h.find("@import"), std::string::npos);
    EXPECT_EQ(h.find(">0 MB/s<"), std::string::npos) << "no missing figure drawn as 0";
}

TEST(ReportViews, LoadPathsSkipsWhatIsNotABundle)
{
    const auto dir = std::filesystem::temp_directory_path() / "report_views_load";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "sub");
    std::ofstream(dir / "b.json") << R"({"format": "mmckit-bundle", "format_version": 1, "card": {"label": "B"}})";
    std::ofstream(dir / "sub" / "a.json") << R"({"format": "mmckit-bundle", "format_version": 1, "card": {"label": "A"}})";
    std::ofstream(dir / "bench.json") << R"({"tool": "mmc-bench", "version": "0.1.0"})";
    std::ofstream(dir / "broken.json") << "{";
    std::ofstream(dir / "newer.json") << R"({"format": "mmckit-bundle", "format_version": 9})";
    std::ofstream(dir / "notes.txt") << "hello";
    const Loaded l = load_paths({dir.string()});
    ASSERT_EQ(l.bundles.size(), 2u);
    EXPECT_EQ(l.bundles[0].card.label, "B") << "sorted by path: b.json before sub/a.json";
    EXPECT_EQ(l.bundles[1].card.label, "A");
    EXPECT_EQ(l.ignored.size(), 1u) << "the tool output beside the bundles";
    EXPECT_EQ(l.warnings.size(), 2u) << "broken JSON and a newer format";
    EXPECT_FALSE(l.named_file_failed);

    const Loaded named = load_paths({(dir / "bench.json").string(), (dir / "nope.json").string()});
    EXPECT_TRUE(named.bundles.empty());
    EXPECT_TRUE(named.named_file_failed);
    EXPECT_EQ(named.warnings.size(), 2u);
    std::filesystem::remove_all(dir);
}

} // namespace
