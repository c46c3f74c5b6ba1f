// libmmc/report/store on SQLite in a temporary file: the schema and its
// migrations, ingest (stored once by content, rejections recorded with their
// reason), the columns pulled out of a measured bundle, the filters, and
// bundles read back from the store as load_paths reads the files.
#include "report/import.h"
#include "report/record.h"
#include "report/schema.h"
#include "report/store.h"
#include "report/tables.h"
#include "report/export.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

namespace {

using namespace mmc::report;
namespace fs = std::filesystem;

class TempDb {
public:
    TempDb()
    {
        char pattern[] = "/tmp/mmc-store-test.XXXXXX";
        dir_ = mkdtemp(pattern);
    }
    ~TempDb() { fs::remove_all(dir_); }
    std::string path() const { return dir_ + "/results.sqlite"; }

private:
    std::string dir_;
};

std::string bundle_text(const std::string& serial, const std::string& created = "2026-11-03T10:15:00Z")
{
    return json{{"format", "mmckit-bundle"},
                {"format_version", 1},
                {"kind", "measured"},
                {"created", created},
                {"card", {{"label", "Card " + serial}, {"product", "SL16G"}, {"serial", serial}}},
                {"host", {{"label", "Lab PC, HS"}, {"controller", "sdhci-pci"}, {"bus_mode", "HS"}}},
                {"results", {{"seq_read_mb_s", 12.6}}},
                {"verdicts", json::array({{{"claim", "A1"}, {"required", 1500}, {"measured", 1650}, {"unit", "IOPS"}, {"result", "pass"}, {"why", "x"}}})}}
        .dump(2);
}

std::string column(SqlConnection& db, const std::string& sql)
{
    const auto rows = db.query(sql);
    if (rows.empty() || rows[0].empty() || !rows[0][0]) return "NULL";
    return *rows[0][0];
}

TEST(ReportStore, NewDatabaseGetsTheCurrentSchema)
{
    TempDb t;
    auto db = open_sqlite(t.path());
    EXPECT_EQ(schema_version(*db), 0);
    EXPECT_EQ(migrate(*db), 0);
    EXPECT_EQ(schema_version(*db), current_schema_version());
    EXPECT_GE(current_schema_version(), 2);
    EXPECT_EQ(column(*db, "SELECT count(*) FROM schema_version"), "1");
    // Opening again applies nothing.
    EXPECT_EQ(migrate(*db), current_schema_version());
    EXPECT_EQ(column(*db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'bundles_created'"), "1");
}

TEST(ReportStore, OlderDatabaseIsMigratedKeepingItsRows)
{
    TempDb t;
    {
        auto db = open_sqlite(t.path());
        ASSERT_EQ(migrate(*db, 1), 0);
        EXPECT_EQ(schema_version(*db), 1);
        EXPECT_EQ(column(*db, "SELECT count(*) FROM sqlite_master WHERE name = 'bundles_created'"), "0");
        // A bundle stored by the version-1 code: the row it wrote.
        db->query("INSERT INTO bundles (content_hash, kind, created, ingested, source_path, card_label, host_label, bundle) "
                  "VALUES ('h1', 'measured', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'old.json', 'Old card', 'Old host', '{}')");
    }
    auto store = open_store(t.path());
    EXPECT_EQ(schema_version(store->connection()), current_schema_version());
    EXPECT_EQ(store->count("bundles"), 1);
    EXPECT_EQ(column(store->connection(), "SELECT card_label FROM bundles"), "Old card");
    EXPECT_EQ(column(store->connection(), "SELECT count(*) FROM sqlite_master WHERE name = 'bundles_created'"), "1");
}

TEST(ReportStore, NewerDatabaseIsRefused)
{
    TempDb t;
    {
        auto db = open_sqlite(t.path());
        migrate(*db);
        db->query("UPDATE schema_version SET version = ?", {int64_t{current_schema_version() + 1}});
    }
    try {
        open_store(t.path());
        FAIL() << "a newer schema was accepted";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("newer than this mmc-report knows"), std::string::npos) << e.what();
    }
}

TEST(ReportStore, AFailedMigrationLeavesNothing)
{
    TempDb t;
    auto db = open_sqlite(t.path());
    db->exec("CREATE TABLE bundles (x INTEGER)"); // in the way of step 1
    EXPECT_THROW(migrate(*db), StoreError);
    EXPECT_EQ(schema_version(*db), 0);
    EXPECT_EQ(column(*db, "SELECT count(*) FROM sqlite_master WHERE name IN ('verdicts', 'jobs', 'rejections')"), "0");
}

TEST(ReportStore, SameBundleTwiceIsStoredOnce)
{
    TempDb t;
    auto store = open_store(t.path());
    const auto first = store->ingest("a.json", bundle_text("0x1"));
    EXPECT_EQ(first.outcome, Outcome::stored);
    EXPECT_EQ(first.content_hash.size(), 64u);
    // The same content, differently indented and from another file.
    const auto again = store->ingest("b.json", json::parse(bundle_text("0x1")).dump());
    EXPECT_EQ(again.outcome, Outcome::duplicate);
    EXPECT_EQ(again.content_hash, first.content_hash);
    EXPECT_EQ(store->ingest("c.json", bundle_text("0x2")).outcome, Outcome::stored);
    EXPECT_EQ(store->count("bundles"), 2);
    EXPECT_EQ(store->count("verdicts"), 2);
    EXPECT_EQ(column(store->connection(), "SELECT source_path FROM bundles ORDER BY id"), "a.json");
}

TEST(ReportStore, RejectedBundlesAreRecordedWithTheirReason)
{
    TempDb t;
    auto store = open_store(t.path());
    auto r = store->ingest("cut.json", bundle_text("0x1").substr(0, 80));
    EXPECT_EQ(r.outcome, Outcome::rejected);
    EXPECT_NE(r.reason.find("not JSON"), std::string::npos) << r.reason;
    r = store->ingest("newer.json", R"({"format": "mmckit-bundle", "format_version": 99})");
    EXPECT_EQ(r.outcome, Outcome::rejected);
    EXPECT_NE(r.reason.find("version 99 is newer"), std::string::npos) << r.reason;
    r = store->ingest("tool.json", R"({"tool": "mmc-bench", "version": "0.1.0"})");
    EXPECT_EQ(r.outcome, Outcome::rejected);
    EXPECT_EQ(store->count("bundles"), 0);
    EXPECT_EQ(store->count("rejections"), 3);
    EXPECT_EQ(column(store->connection(), "SELECT reason FROM rejections WHERE source_path = 'tool.json'"),
              "not an mmckit bundle (mmc-bench output; mmc-report makes a bundle from it)");
}

// What a report would skip is refused at the door: a bundle nested past
// the report's cap (deep enough to overflow the stack of anything recursive)
// and a number no double holds.
TEST(ReportStore, WhatAReportWouldSkipIsRejected)
{
    TempDb t;
    auto store = open_store(t.path());
    auto nested = [](int depth) {
        return R"({"format": "mmckit-bundle", "card": {"label": "Deep"}, "tools": {"a": )" + std::string(depth, '[') +
               std::string(depth, ']') + "}}";
    };
    for (int depth : {100, 200000}) {
        const auto r = store->ingest("deep.json", nested(depth));
        EXPECT_EQ(r.outcome, Outcome::rejected) << depth;
        EXPECT_EQ(r.reason, "JSON nested deeper than 64 levels") << depth;
        EXPECT_TRUE(r.content_hash.empty());
    }
    EXPECT_EQ(store->ingest("shallow.json", nested(50)).outcome, Outcome::stored);
    const auto huge = store->ingest("huge.json", R"({"format": "mmckit-bundle", "results": {"seq_read_mb_s": 1e400}})");
    EXPECT_EQ(huge.outcome, Outcome::rejected);
    EXPECT_NE(huge.reason.find("a number no double can hold"), std::string::npos) << huge.reason;
    EXPECT_EQ(store->count("bundles"), 1);
    EXPECT_EQ(store->count("rejections"), 3);
    // Found in a directory, a too deep file is not taken for a tool's
    // output and ignored: it is rejected by name too.
    ImportSummary s;
    import_text(*store, "dir/deep.json", nested(100000), false, s);
    ASSERT_EQ(s.items.size(), 1u);
    EXPECT_EQ(s.items[0].outcome, Outcome::rejected);
    EXPECT_TRUE(s.ignored.empty());
}

TEST(ReportStore, MeasuredBundleColumns)
{
    // A bundle as mmc-qualify makes it: the tools' documents inside.
    json doc = json::parse(bundle_text("0x0eace07e"));
    doc["registers"] = {{"tool", "mmc-info"},
                        {"ios", {{"clock_hz", 50000000}}},
                        {"registers", {{"cid", {{"hex", "035344534c313647800eace07e00e801"}, {"decoded", {{"date", "2014-08"}}}}},
                                       {"csd", {{"hex", "400e00325b59000076b27f800a404001"}}}}}};
    doc["bus"] = {{"host", "mmc0"}, {"ios", {{"clock_hz", 50000000}, {"actual_clock_hz", 26000000}, {"bus_width_bits", 4}}}};
    doc["bench"] = json::array({{{"tool", "mmc-bench"},
                                 {"suite", "a1"},
                                 {"target", {{"path", "/dev/mmcblk0"}}},
                                 {"precondition", {{"method", "none"}}},
                                 {"jobs", json::array({{{"name", "randread-4k"}, {"rw", "randread"}, {"block_size", 4096}, {"iodepth", 1},
                                                        {"iops", 1650}, {"lat_us", {{"p50", 575.7}, {"p99", 1515.1}}}}})}}});
    doc["environment"] = {{"machine", "QEMU Standard PC"}};
    doc["tools"] = {{"mmc-report", "0.1.0"}};
    const std::string text = doc.dump(2);
    const BundleRecord r = make_record(text, "m.json", "2026-11-03T11:00:00Z");
    auto col = [&](const std::string& name) -> SqlValue {
        for (const auto& [n, v] : r.columns)
            if (n == name) return v;
        ADD_FAILURE() << "no column " << name;
        return {};
    };
    EXPECT_EQ(std::get<std::string>(col("cid_hex")), "035344534c313647800eace07e00e801");
    EXPECT_EQ(std::get<std::string>(col("card_date")), "2014-08");
    EXPECT_EQ(std::get<std::string>(col("card_serial")), "0x0eace07e");
    EXPECT_TRUE(std::holds_alternative<std::monostate>(col("ext_csd_hex")));
    EXPECT_EQ(std::get<std::string>(col("board")), "QEMU Standard PC");
    EXPECT_EQ(std::get<int64_t>(col("bus_clock_hz")), 50000000);
    EXPECT_EQ(std::get<int64_t>(col("bus_actual_clock_hz")), 26000000);
    EXPECT_EQ(std::get<std::string>(col("tool_version")), "0.1.0");
    EXPECT_EQ(std::get<std::string>(col("precondition")), R"([{"method":"none"}])");
    EXPECT_EQ(std::get<double>(col("seq_read_mb_s")), 12.6);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(col("rand_read_iops_4k")));
    EXPECT_TRUE(std::holds_alternative<std::monostate>(col("probe")));
    EXPECT_EQ(std::get<std::string>(col("bundle")), text);
    ASSERT_EQ(r.jobs.size(), 1u);
    EXPECT_EQ(std::get<double>(r.jobs[0][9]), 1650); // iops
    ASSERT_EQ(r.verdicts.size(), 1u);

    TempDb t;
    auto store = open_store(t.path());
    ASSERT_EQ(store->ingest("m.json", text).outcome, Outcome::stored);
    EXPECT_EQ(column(store->connection(), "SELECT lat_p99_us FROM jobs"), "1515.1");
    EXPECT_EQ(column(store->connection(), "SELECT bundle FROM bundles"), text); // byte for byte
}

TEST(ReportStore, Filters)
{
    TempDb t;
    auto store = open_store(t.path());
    store->ingest("1.json", bundle_text("0xaaaa", "2026-10-01T00:00:00Z"));
    store->ingest("2.json", bundle_text("0xbbbb", "2026-11-02T00:00:00Z"));
    store->ingest("3.json", bundle_text("0x50%_", "2026-11-03T00:00:00Z"));
    auto paths = [&](std::string card, std::string host = "", std::string since = "") {
        StoreFilter f;
        f.card = card;
        f.host = host;
        f.since = since;
        std::string s;
        for (const auto& b : store->bundles(f)) s += b.path + " ";
        return s;
    };
    EXPECT_EQ(paths(""), "1.json 2.json 3.json ");
    EXPECT_EQ(paths("0XBBBB"), "2.json ");            // ASCII case ignored
    EXPECT_EQ(paths("sl16g"), "1.json 2.json 3.json "); // the product
    EXPECT_EQ(paths("%_"), "3.json ");                  // LIKE's characters are literal
    EXPECT_EQ(paths("", "SDHCI"), "1.json 2.json 3.json "); // the controller
    EXPECT_EQ(paths("", "raspberry"), "");
    EXPECT_EQ(paths("", "", "2026-11-01"), "2.json 3.json ");
    EXPECT_EQ(paths("bbbb", "", "2026-11-03"), "");
    EXPECT_TRUE(valid_since("2026-11-01"));
    EXPECT_TRUE(valid_since("2026-11-01T10:15:00Z"));
    EXPECT_FALSE(valid_since("yesterday"));
}

TEST(ReportStore, ExamplesFromTheStoreReportAsFromTheFiles)
{
    const Loaded files = load_paths({"examples"});
    ASSERT_GT(files.bundles.size(), 50u) << "run from the repository root";
    TempDb t;
    auto store = open_store(t.path());
    for (const auto& b : files.bundles) ASSERT_EQ(store->ingest(b.path, read_file(b.path)).outcome, Outcome::stored) << b.path;
    const Loaded stored = load_stored(store->bundles());
    EXPECT_EQ(stored.warnings, files.warnings);
    const auto a = build_report(files.bundles), b = build_report(stored.bundles);
    EXPECT_EQ(csv_report(a), csv_report(b));
    EXPECT_EQ(json_report(a, files.warnings).dump(), json_report(b, stored.warnings).dump());
}

TEST(ReportStore, ImportSkipsToolOutputsAndRejectsTheRest)
{
    TempDb t;
    const fs::path dir = fs::path(t.path()).parent_path() / "in";
    fs::create_directories(dir / "sub");
    std::ofstream(dir / "a.json") << bundle_text("0x1");
    std::ofstream(dir / "sub" / "b.json") << bundle_text("0x2");
    std::ofstream(dir / "raw-bench.json") << R"({"tool": "mmc-bench"})"; // beside a bundle: not one
    std::ofstream(dir / "cut.json") << bundle_text("0x3").substr(0, 50);
    std::ofstream(dir / "notes.txt") << "not looked at";
    auto store = open_store(t.path());
    const auto s = import_paths(*store, {dir.string(), (dir / "missing.json").string()});
    ASSERT_EQ(s.items.size(), 3u); // in sorted path order
    EXPECT_EQ(s.items[0].path, (dir / "a.json").string());
    EXPECT_EQ(s.items[0].outcome, Outcome::stored);
    EXPECT_EQ(s.items[1].path, (dir / "cut.json").string());
    EXPECT_EQ(s.items[1].outcome, Outcome::rejected);
    EXPECT_NE(s.items[1].reason.find("not JSON"), std::string::npos) << s.items[1].reason;
    EXPECT_EQ(s.items[2].path, (dir / "sub" / "b.json").string());
    EXPECT_EQ(s.items[2].outcome, Outcome::stored);
    EXPECT_EQ(s.ignored, std::vector<std::string>{(dir / "raw-bench.json").string()});
    ASSERT_EQ(s.missing.size(), 1u);
    EXPECT_NE(s.missing[0].find("missing.json: No such file or directory"), std::string::npos);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(store->count("bundles"), 2);
    EXPECT_EQ(store->count("rejections"), 1);
}

TEST(ReportStore, NumberedPlaceholders)
{
    EXPECT_EQ(numbered_placeholders("INSERT INTO t (a, b) VALUES (?, ?)"), "INSERT INTO t (a, b) VALUES ($1, $2)");
    EXPECT_EQ(numbered_placeholders("SELECT '?' FROM t WHERE x LIKE ? ESCAPE '\\'"), "SELECT '?' FROM t WHERE x LIKE $1 ESCAPE '\\'");
}

TEST(ReportStore, Sha256)
{
    EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(content_hash(nlohmann::json::parse(R"({"b": 1, "a": [1, 2]})")),
              content_hash(nlohmann::json::parse("{\"a\":[1,2],\n \"b\":1}")));
}

} // namespace
