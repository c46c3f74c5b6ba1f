// The bundle of a run: mmc-report's format (it reads it back), each step's
// exit status, and the run marked interrupted and partial.
#include "qualify/bundle.h"
#include "report/bundle.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace mmc::qualify;
namespace fs = std::filesystem;

namespace {

StepRecord record(const std::string& name, const std::string& tool, BundlePart part, StepState state, std::optional<int> rc,
                  const std::string& message = {}, json doc = nullptr)
{
    StepRecord r;
    r.name = name;
    r.tool = tool;
    r.part = part;
    r.state = state;
    r.exit_status = rc;
    r.message = message;
    r.doc = std::move(doc);
    return r;
}

json bench_doc()
{
    return {{"tool", "mmc-bench"},
            {"version", "0.1.0"},
            {"jobs", json::array({{{"rw", "read"}, {"block_size", 4194304}, {"ios", 10}, {"mb_s", 21.5}}})}};
}

} // namespace

TEST(QualifyBundle, InterruptedRunKeepsExitStatusesAndMarksItself)
{
    Outcome o;
    o.interrupted = true;
    o.interrupted_during = "erase";
    o.steps = {record("info", "mmc-info", BundlePart::info, StepState::failed, 1, "mmcblk9: no such device"),
               record("erase", "mmc-erase", BundlePart::erase, StepState::failed, 130, "interrupted: erased offset 0 length 4194304"),
               record("bench-quick", "mmc-bench", BundlePart::bench, StepState::not_started, std::nullopt, "not started: interrupted")};
    const auto made = make_bundle(o, {"card X", "host Y", json::object(), "2026-12-01T18:00:00Z"});
    const json& steps = made.doc["steps"];
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0]["exit_status"], 1);
    EXPECT_EQ(steps[0]["message"], "exit 1: mmcblk9: no such device");
    EXPECT_EQ(steps[0]["ok"], false);
    EXPECT_EQ(steps[1]["exit_status"], 130);
    EXPECT_TRUE(steps[2]["exit_status"].is_null());
    EXPECT_EQ(steps[2]["message"], "not started: interrupted");
    EXPECT_EQ(made.doc["interrupted"], true);
    EXPECT_EQ(made.doc["partial"], true);

    // mmc-report reads it as a bundle, with the same steps.
    const auto back = mmc::report::from_json(made.doc);
    EXPECT_EQ(back.card.label, "card X");
    EXPECT_EQ(back.host.label, "host Y");
    ASSERT_EQ(back.steps.size(), 3u);
    EXPECT_FALSE(back.steps[1].ok);
}

TEST(QualifyBundle, CompleteRunWithResults)
{
    Outcome o;
    o.steps = {record("bench-quick", "mmc-bench", BundlePart::bench, StepState::ok, 0, "", bench_doc()),
               record("geometry", "mmc-probe", BundlePart::probe, StepState::skipped, std::nullopt, "mmc-probe not found")};
    const auto made = make_bundle(o, {"", "lab", json::object(), "2026-12-01T18:00:00Z"});
    EXPECT_EQ(made.doc["interrupted"], false);
    EXPECT_EQ(made.doc["partial"], false);
    EXPECT_EQ(made.doc["steps"][1]["ok"], true);
    EXPECT_EQ(made.doc["steps"][1]["message"], "skipped: mmc-probe not found");
    EXPECT_EQ(made.bundle.results.seq_read_mb_s.value_or(0), 21.5);
    EXPECT_EQ(made.doc["tools"]["mmc-bench"], "0.1.0");
}

TEST(QualifyBundle, DocumentsOfToolsWithoutAPartAreKeptWhole)
{
    Outcome o;
    o.steps = {record("watch", "mmc-watch", BundlePart::document, StepState::ok, 0, "", {{"tool", "mmc-watch"}, {"events", 3}})};
    const auto made = make_bundle(o, {"", "", json::object(), "2026-12-01T18:00:00Z"});
    EXPECT_EQ(made.doc["documents"]["watch"]["events"], 3);
}

TEST(QualifyBundle, TheProbesDocumentsGoToTheProbePart)
{
    Outcome o;
    o.steps = {record("geometry", "mmc-probe", BundlePart::probe, StepState::ok, 0, "",
                      {{"tool", "mmc-probe"}, {"subcommand", "geometry"}, {"page_size", 16384}, {"au_size", 4194304}, {"confidence", "high"}}),
               record("capacity", "mmc-probe", BundlePart::probe, StepState::ok, 10, "the card is fake (limbo): 64 MiB of 256 MiB usable",
                      {{"tool", "mmc-probe"}, {"command", "capacity"}, {"verdict", "limbo"}, {"usable_bytes", 67108864}})};
    const auto made = make_bundle(o, {"", "", json::object(), "2026-12-01T18:00:00Z"});
    EXPECT_FALSE(made.doc.contains("documents"));
    EXPECT_EQ(made.doc["probe"]["geometry"]["au_size"], 4194304);
    EXPECT_EQ(made.doc["probe"]["capacity"]["verdict"], "limbo");
    // A capacity verdict's exit status is kept; the step worked.
    EXPECT_EQ(made.doc["steps"][1]["exit_status"], 10);
    EXPECT_EQ(made.doc["steps"][1]["ok"], true);
    EXPECT_EQ(made.doc["partial"], false);
    ASSERT_TRUE(made.bundle.capacity);
    EXPECT_EQ(made.bundle.capacity->usable_bytes, 67108864u);
}

TEST(QualifyBundle, WriteNeverReplacesAnExistingBundle)
{
    const fs::path dir = fs::temp_directory_path() / ("qualify-bundle-" + std::to_string(::getpid()));
    Outcome o;
    const auto made = make_bundle(o, {"card", "host", json::object(), "2026-12-01T18:00:00Z"});
    const auto first = write_bundle(dir.string(), made).path;
    const auto second = write_bundle(dir.string(), made).path;
    EXPECT_NE(first, second);
    EXPECT_NO_THROW(mmc::report::load_bundle(first));
    EXPECT_EQ(mmc::report::load_bundle(second).card.label, "card");
    fs::remove_all(dir);
}

TEST(QualifyBundle, HealthGoesToItsOwnPart)
{
    Outcome o;
    const json health = {{"tool", "mmc-health"},
                         {"verdict", "unknown"},
                         {"cards", json::array({{{"verdict", "unknown"}, {"wear", json::array()}}})}};
    o.steps = {record("health", "mmc-health", BundlePart::health, StepState::ok, 6, "", health)};
    const auto made = make_bundle(o, {"card X", "host Y", json::object(), "2026-12-01T18:00:00Z"});
    EXPECT_EQ(made.doc["health"], health);
    EXPECT_FALSE(made.doc.contains("documents")) << "health has a part: no longer kept among the others";
    EXPECT_EQ(made.doc["steps"][0]["exit_status"], 6);
    ASSERT_TRUE(made.bundle.health_figures);
    EXPECT_EQ(made.bundle.health_figures->verdict, "unknown");
}

TEST(QualifyBundle, TheTuneStepsDocumentsGoToTheTunePart)
{
    Outcome o;
    const json bus = {{"tool", "mmc-tune"}, {"subcommand", "bus"}, {"live_trials", true},
                      {"start", {{"mode", "HS"}, {"clock_hz", 50000000}}}, {"before_mb_s", 22.1},
                      {"trials", json::array({{{"mode", "HS"}, {"verdict", "clean"}}})},
                      {"chosen", {{"mode", "HS"}, {"clock_hz", 50000000}, {"mb_s", 22.9}}}};
    const json queue = {{"tool", "mmc-tune"}, {"subcommand", "queue"},
                        {"result", {{"scheduler", "none"}, {"read_ahead_kb", 512}, {"verdict", "better"}}}};
    o.steps = {record("tune-bus", "mmc-tune", BundlePart::tune, StepState::ok, 0, "", bus),
               record("tune-queue", "mmc-tune", BundlePart::tune, StepState::ok, 0, "", queue)};
    const auto made = make_bundle(o, {"card", "host", json::object(), "2026-12-01T18:00:00Z"});
    EXPECT_EQ(made.doc["tune"]["bus"], bus);
    EXPECT_EQ(made.doc["tune"]["queue"], queue);
    EXPECT_FALSE(made.doc.contains("documents"));
    ASSERT_TRUE(made.bundle.tune_bus);
    EXPECT_EQ(made.bundle.tune_bus->before_mb_s, 22.1);
    EXPECT_EQ(made.bundle.tune_bus->chosen_mb_s, 22.9);
    ASSERT_TRUE(made.bundle.tune_queue);
    EXPECT_EQ(made.bundle.tune_queue->verdict, "better");
}
