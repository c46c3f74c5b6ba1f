// mmc-tune's results in the bundle, the database and the report:
// the fixtures in tests/data/report (tune-bus.json: trials and a chosen
// mode; tune-bus-offline.json: live_trials false; tune-queue.json: "no
// measurable difference") read into the figures, written back unchanged,
// stored in columns by the version-5 migration, and shown by the text,
// JSON and HTML views exactly (tests/data/views/report-tune.*).
#include "report/export.h"
#include "report/html_parts.h"
#include "report/make_bundle.h"
#include "report/store.h"
#include "report/schema.h"
#include "report/tables.h"
#include "report/text.h"

#include "expected_view.h"
#include "old_store.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace {

using namespace mmc::report;

const std::string data = "tests/data/report/";

Bundle tuned(const std::string& card, std::initializer_list<const char*> files)
{
    MakeInputs in;
    for (const char* f : files) in.tune.push_back(read_tool_doc(data + f, "mmc-tune"));
    in.card_label = card;
    in.host_label = "host";
    in.created = "2026-12-07T03:00:00Z";
    return make_bundle(in);
}

Report two_cards()
{
    return build_report({tuned("tuned", {"tune-bus.json", "tune-queue.json"}), tuned("offline", {"tune-bus-offline.json"})});
}

TEST(ReportTune, TheBusResultIsReadFromTheTrials)
{
    const Bundle b = tuned("tuned", {"tune-bus.json", "tune-queue.json"});
    EXPECT_TRUE(b.warnings.empty()) << b.warnings.front();
    ASSERT_TRUE(b.tune_bus);
    const TuneBus& t = *b.tune_bus;
    EXPECT_EQ(t.before_mode, "SDR50");
    EXPECT_EQ(t.before_clock_hz, 100000000u);
    EXPECT_EQ(t.before_mb_s, 43.9);
    EXPECT_EQ(t.chosen_mode, "SDR104");
    EXPECT_EQ(t.chosen_clock_hz, 150000000u);
    EXPECT_EQ(t.chosen_mb_s, 58.7);
    EXPECT_TRUE(t.live_trials);
    EXPECT_EQ(t.trials, 3u);
    EXPECT_EQ(t.rejected, 1u) << "SDR104 at 208 MHz, with CRC errors";
    EXPECT_EQ(t.restored, true);
    EXPECT_EQ(t.persistent, (std::vector<std::string>{"dt-overlay"}));
    ASSERT_TRUE(b.tune_queue);
    EXPECT_EQ(b.tune_queue->verdict, "no measurable difference");
    EXPECT_EQ(b.tune_queue->before_scheduler, "mq-deadline");
    EXPECT_EQ(b.tune_queue->read_ahead_kb, 128u);
    EXPECT_EQ(b.tune_queue->measured, 3u);
    EXPECT_EQ(b.tools["mmc-tune"], "0.1.0");
}

TEST(ReportTune, APlanWithoutLiveTrialsChoosesNothingAndSaysWhy)
{
    const Bundle b = tuned("offline", {"tune-bus-offline.json"});
    ASSERT_TRUE(b.tune_bus);
    EXPECT_FALSE(b.tune_bus->live_trials);
    EXPECT_EQ(b.tune_bus->live_trials_reason, "this kernel (6.1.0-28-amd64) cannot trial modes live; 6.4 or later can");
    EXPECT_EQ(b.tune_bus->chosen_mode, "");
    EXPECT_FALSE(b.tune_bus->before_mb_s);
    EXPECT_FALSE(b.tune_bus->restored) << "nothing was changed";
    EXPECT_FALSE(b.tune_queue);
}

TEST(ReportTune, TheBundleKeepsTheDocumentsWholeBothWays)
{
    const Bundle b = tuned("tuned", {"tune-bus.json", "tune-queue.json"});
    const json doc = to_json(b);
    ASSERT_TRUE(doc.contains("tune"));
    EXPECT_EQ(doc["tune"]["bus"]["trials"].size(), 3u);
    EXPECT_EQ(doc["tune"]["queue"]["result"]["verdict"], "no measurable difference");
    const Bundle back = from_json(doc);
    EXPECT_EQ(back.tune, b.tune);
    ASSERT_TRUE(back.tune_bus);
    EXPECT_EQ(back.tune_bus->chosen_mode, "SDR104");
    EXPECT_EQ(to_json(back), doc);
    // A bundle that did not tune writes no "tune": older bundles stay as they were.
    EXPECT_FALSE(to_json(tuned("none", {})).contains("tune"));
}

TEST(ReportTune, AnotherToolsOutputIsAFailedStep)
{
    const Bundle b = tuned("x", {"probe-geometry.json"});
    EXPECT_FALSE(b.tune_bus);
    ASSERT_FALSE(b.steps.empty());
    EXPECT_EQ(b.steps[0].name, "load mmc-tune");
    EXPECT_FALSE(b.steps[0].ok);
}

TEST(ReportTune, HostileValuesAreWarningsNotFigures)
{
    Bundle b;
    b.tune = json::parse(R"({"bus": {"start": {"mode": 7, "clock_hz": -1}, "before_mb_s": 1e12, "chosen": "SDR104",
                                      "trials": [1, {"verdict": "clean"}, {"verdict": "maybe"}], "restored": [],
                                      "persistent": [{"kind": null}, 3]},
                             "queue": []})");
    read_tool_parts(b);
    ASSERT_TRUE(b.tune_bus);
    EXPECT_EQ(b.tune_bus->before_mode, "7") << "a number as JSON writes it, as every text a bundle holds";
    EXPECT_FALSE(b.tune_bus->before_clock_hz);
    EXPECT_FALSE(b.tune_bus->before_mb_s) << "no card reaches 10^12 MB/s";
    EXPECT_EQ(b.tune_bus->chosen_mode, "") << "chosen is an object or null";
    EXPECT_EQ(b.tune_bus->trials, 2u);
    EXPECT_EQ(b.tune_bus->rejected, 1u) << "a verdict that is not clean is not counted clean";
    EXPECT_FALSE(b.tune_bus->restored);
    EXPECT_TRUE(b.tune_bus->persistent.empty());
    EXPECT_FALSE(b.tune_queue);
    EXPECT_FALSE(b.warnings.empty());
}

TEST(ReportTune, TextView) { expect_view("report-tune.txt", text_report(two_cards(), false)); }

TEST(ReportTune, JsonView)
{
    const json j = json_report(two_cards(), {});
    json rows = json::array();
    for (const auto& r : j["groups"][0]["results"]) rows.push_back({{"card", r["card"]}, {"tune", r["tune"]}});
    expect_view("report-tune.json", rows.dump(2) + "\n");
}

TEST(ReportTune, HtmlView)
{
    const Report r = two_cards();
    expect_view("report-tune.html", html_parts::html_tune_table(r, r.groups[0]) + "\n");
}

TEST(ReportTune, BundlesWithoutTuningShowNoTuning)
{
    const Report r = build_report({tuned("none", {})});
    EXPECT_FALSE(r.groups[0].has_tune(r.bundles));
    EXPECT_EQ(text_report(r, false).find("Tuning"), std::string::npos);
}

TEST(ReportTune, TheDatabaseMigratesToVersion5AndKeepsTheTuneColumns)
{
    const auto old_db = mmc::test::old_store(4); // the schema before mmc-tune
    auto store = open_store(old_db.path, false);
    EXPECT_EQ(schema_version(store->connection()), 5);
    ASSERT_EQ(store->ingest("tuned.json", to_json(tuned("tuned", {"tune-bus.json", "tune-queue.json"})).dump()).outcome, Outcome::stored);
    ASSERT_EQ(store->ingest("offline.json", to_json(tuned("offline", {"tune-bus-offline.json"})).dump()).outcome, Outcome::stored);
    const auto rows = store->connection().query(
        "SELECT source_path, tune_bus_before_mode, tune_bus_before_mb_s, tune_bus_chosen_mode, tune_bus_chosen_clock_hz, "
        "tune_bus_chosen_mb_s, tune_bus_live_trials, tune_bus_restored, tune_queue_scheduler, tune_queue_verdict, "
        "tune IS NOT NULL FROM bundles ORDER BY id");
    ASSERT_EQ(rows.size(), 3u);
    std::vector<std::vector<std::string>> got;
    for (const auto& row : rows) {
        got.emplace_back();
        for (const auto& v : row) got.back().push_back(v ? *v : "NULL");
    }
    using V = std::vector<std::string>;
    EXPECT_EQ(got[0], (V{"old.json", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "0"}));
    EXPECT_EQ(got[1], (V{"tuned.json", "SDR50", "43.9", "SDR104", "150000000", "58.7", "1", "1", "mq-deadline", "no measurable difference", "1"}));
    EXPECT_EQ(got[2], (V{"offline.json", "HS", "NULL", "NULL", "NULL", "NULL", "0", "NULL", "NULL", "NULL", "1"}));
    std::filesystem::remove_all(old_db.dir);
}

} // namespace
