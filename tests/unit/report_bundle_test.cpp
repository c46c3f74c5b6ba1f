// libmmc/report/bundle: the bundle's JSON both ways, loading bundles with
// parts missing or of the wrong shape, refusing what is not a bundle, and
// safe file names.
#include "report/bundle.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace {

using namespace mmc::report;

json minimal()
{
    return json::parse(R"({"format": "mmckit-bundle", "format_version": 1, "kind": "measured"})");
}

TEST(ReportBundle, RoundTripKeepsEveryPart)
{
    Bundle b;
    b.kind = BundleKind::imported;
    b.created = "2026-11-03T10:15:00Z";
    b.card = {"SanDisk Ultra A1 32GB", "SanDisk", "SC32G", "0x1234abcd", 31914983424ull, CardType::sd, {"C10", "U1", "V10", "A1"}, std::nullopt, "", false};
    b.host = {"Raspberry Pi 4, DDR50", "sdhci-iproc", "DDR50", "6.1.0"};
    Source s;
    s.title = "A study";
    s.method = "dd";
    s.units = "MiB/s";
    s.conversion = "MB/s = MiB/s x 1.048576";
    s.results_as_published = {{"seq_read", {{"value", 17.36}, {"unit", "MiB/s"}}}};
    s.row = {{"card", "X"}, {"seq_read_mib_s", 17.36}};
    b.source = s;
    b.results.seq_read_mb_s = 18.2;
    b.results.rand_write_iops["4k"] = 843;
    b.verdicts.push_back({"A1 random read 4 KiB QD1", 1500, std::nullopt, VerdictUnit::iops, VerdictResult::not_applicable, "no read test", std::nullopt});
    b.error = "I/O errors";
    b.registers = {{"tool", "mmc-info"}};
    b.bench = json::array({json{{"tool", "mmc-bench"}}});
    b.steps.push_back({"bench", false, "exit 1"});
    b.tools = {{"mmc-report", "0.1.0"}};

    const json j = to_json(b);
    EXPECT_EQ(j["format"], "mmckit-bundle");
    EXPECT_EQ(j["format_version"], 1);
    EXPECT_FALSE(j["results"].contains("seq_write_mb_s")) << "a missing figure is absent, not 0";
    EXPECT_TRUE(j["verdicts"][0]["measured"].is_null());

    const Bundle r = from_json(json::parse(j.dump()));
    EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
    EXPECT_EQ(r.kind.value, BundleKind::imported);
    EXPECT_EQ(r.created, b.created);
    EXPECT_EQ(r.card.label, b.card.label);
    EXPECT_EQ(r.card.serial, "0x1234abcd");
    EXPECT_EQ(r.card.capacity_bytes, 31914983424ull);
    EXPECT_EQ(r.card.classes.app_perf_class, "A1");
    EXPECT_EQ(r.host.bus_mode, "DDR50");
    ASSERT_TRUE(r.source);
    EXPECT_EQ(r.source->conversion, s.conversion);
    EXPECT_EQ(r.source->results_as_published["seq_read"]["value"], 17.36);
    EXPECT_EQ(r.source->row["card"], "X");
    EXPECT_EQ(r.results.seq_read_mb_s, 18.2);
    EXPECT_FALSE(r.results.seq_write_mb_s);
    EXPECT_EQ(r.results.rand_write_iops.at("4k"), 843);
    ASSERT_EQ(r.verdicts.size(), 1u);
    EXPECT_EQ(r.verdicts[0].required, 1500);
    EXPECT_FALSE(r.verdicts[0].measured);
    EXPECT_EQ(r.error, "I/O errors");
    EXPECT_EQ(r.registers["tool"], "mmc-info");
    EXPECT_EQ(r.bench.size(), 1u);
    ASSERT_EQ(r.steps.size(), 1u);
    EXPECT_FALSE(r.steps[0].ok);
    EXPECT_EQ(r.tools["mmc-report"], "0.1.0");
    EXPECT_EQ(to_json(r).dump(), j.dump()) << "a second round trip changes nothing";
}

TEST(ReportBundle, NoResultsAtAll)
{
    const Bundle b = from_json(minimal());
    EXPECT_TRUE(b.results.empty());
    EXPECT_TRUE(b.verdicts.empty());
    EXPECT_TRUE(b.steps.empty());
    EXPECT_TRUE(b.registers.is_null());
    EXPECT_FALSE(b.source);
    EXPECT_EQ(b.card.label, "unnamed card");
    EXPECT_EQ(b.host.label, "unnamed host");
    EXPECT_TRUE(b.warnings.empty());
}

TEST(ReportBundle, OnlyARead)
{
    json doc = minimal();
    doc["results"] = {{"seq_read_mb_s", 22.4}};
    const Bundle b = from_json(doc);
    EXPECT_EQ(b.results.seq_read_mb_s, 22.4);
    EXPECT_FALSE(b.results.seq_write_mb_s);
    EXPECT_TRUE(b.results.rand_read_iops.empty());
    EXPECT_FALSE(b.results.empty());
}

TEST(ReportBundle, ImportedWithoutRegistersOrVerdicts)
{
    json doc = minimal();
    doc["kind"] = "imported";
    doc["card"] = {{"label", "ATP 2GB"}};
    doc["host"] = {{"label", "OLPC XO"}};
    doc["source"] = {{"title", "OLPC XO and ASUS Eee PC SD card performance"}, {"units", "MiB/s"}};
    doc["results"] = {{"seq_write_mb_s", 0.755}};
    const Bundle b = from_json(doc);
    EXPECT_EQ(b.kind.value, BundleKind::imported);
    ASSERT_TRUE(b.source);
    EXPECT_EQ(b.source->units, "MiB/s");
    EXPECT_TRUE(b.registers.is_null());
    EXPECT_TRUE(b.bus.is_null());
    EXPECT_TRUE(b.verdicts.empty());
    EXPECT_TRUE(b.warnings.empty());
}

TEST(ReportBundle, WrongTypesAreDroppedWithAWarning)
{
    json doc = minimal();
    doc["results"] = {{"seq_read_mb_s", "fast"}, {"rand_read_iops", {{"4k", 1500}, {"512k", 40}}}};
    doc["verdicts"] = {"not an object", {{"claim", "A1"}, {"result", "maybe"}}};
    doc["registers"] = "cid=...";
    doc["steps"] = {{{"name", "info"}, {"ok", "yes"}}};
    const Bundle b = from_json(doc);
    EXPECT_FALSE(b.results.seq_read_mb_s);
    EXPECT_EQ(b.results.rand_read_iops.at("4k"), 1500);
    EXPECT_EQ(b.results.rand_read_iops.count("512k"), 0u);
    ASSERT_EQ(b.verdicts.size(), 1u);
    EXPECT_TRUE(b.registers.is_null());
    ASSERT_EQ(b.steps.size(), 1u);
    EXPECT_FALSE(b.steps[0].ok) << "only true is ok";
    std::string all;
    for (const auto& w : b.warnings) all += w + "\n";
    EXPECT_NE(all.find("results.seq_read_mb_s: not a number"), std::string::npos) << all;
    EXPECT_NE(all.find("512k"), std::string::npos) << all;
    EXPECT_NE(all.find("verdicts[0]: not an object"), std::string::npos) << all;
    EXPECT_NE(all.find("result 'maybe'"), std::string::npos) << all;
    EXPECT_NE(all.find("registers: not an object"), std::string::npos) << all;
}

TEST(ReportBundle, NotABundleIsRefused)
{
    EXPECT_THROW(from_json(json::array()), NotABundle);
    EXPECT_THROW(from_json(json::parse(R"({"hello": 1})")), NotABundle);
    try {
        from_json(json::parse(R"({"tool": "mmc-bench", "version": "0.1.0"})"));
        FAIL() << "an mmc-bench document is not a bundle";
    } catch (const NotABundle& e) {
        EXPECT_NE(std::string(e.what()).find("mmc-bench output"), std::string::npos) << e.what();
    }
    json newer = minimal();
    newer["format_version"] = 2;
    try {
        from_json(newer);
        FAIL() << "a newer format is refused, not misread";
    } catch (const NotABundle& e) {
        EXPECT_NE(std::string(e.what()).find("version 2 is newer"), std::string::npos) << e.what();
    }
    json unversioned = minimal();
    unversioned.erase("format_version");
    EXPECT_EQ(from_json(unversioned).warnings.size(), 1u);
}

TEST(ReportBundle, LoadBundleNamesTheFile)
{
    const auto dir = std::filesystem::temp_directory_path() / "report_bundle_test";
    std::filesystem::create_directories(dir);
    const auto good = dir / "good.json", bad = dir / "bad.json";
    std::ofstream(good) << minimal().dump();
    std::ofstream(bad) << "{not json";
    EXPECT_EQ(load_bundle(good).path, good.string());
    try {
        load_bundle(bad);
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("bad.json: not JSON"), std::string::npos) << e.what();
    }
    try {
        load_bundle(dir / "missing.json");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
    }
    std::filesystem::remove_all(dir);
}

TEST(ReportBundle, SafeNameParts)
{
    EXPECT_EQ(safe_name_part("SanDisk Ultra A1 32GB", 48, "card"), "sandisk-ultra-a1-32gb");
    EXPECT_EQ(safe_name_part("ODROID N1 (RK3399), SDR104", 48, "host"), "odroid-n1-rk3399-sdr104");
    EXPECT_EQ(safe_name_part("../../etc/passwd", 48, "x"), "etc-passwd");
    EXPECT_EQ(safe_name_part("..", 48, "card"), "card");
    EXPECT_EQ(safe_name_part("/", 48, "card"), "card");
    EXPECT_EQ(safe_name_part("", 48, "host"), "host");
    EXPECT_EQ(safe_name_part(".hidden", 48, "x"), "hidden");
    EXPECT_EQ(safe_name_part("a\nb\tc;rm -rf $HOME", 48, "x"), "a-b-c-rm-rf-home");
    EXPECT_EQ(safe_name_part("Kodak SD High Perf.", 48, "x"), "kodak-sd-high-perf");
    EXPECT_EQ(safe_name_part("Ünïcödé kärte", 48, "x"), "n-c-d-k-rte");
    EXPECT_EQ(safe_name_part(std::string(200, 'a'), 48, "x").size(), 48u);
    EXPECT_EQ(safe_name_part("abc" + std::string(60, '-') + "def", 10, "x"), "abc-def");
}

TEST(ReportBundle, FileNameIsSafeAndTimed)
{
    Bundle b;
    b.card.label = "SanDisk SL16G 16GB";
    b.host.label = "Raspberry Pi 4 Model B Rev 1.4, DDR50";
    b.created = "2026-11-03T10:15:00Z";
    EXPECT_EQ(bundle_file_name(b), "sandisk-sl16g-16gb-raspberry-pi-4-model-b-rev-1.4-ddr50-20261103T101500Z.json");
    b.card.label = "../../x";
    b.host.label = "";
    b.created = "";
    const std::string name = bundle_file_name(b);
    EXPECT_EQ(name, "x-host-undated.json");
    b.card.label = std::string(300, 'c');
    b.host.label = std::string(300, 'h');
    b.created = "2026-11-03T10:15:00Z";
    EXPECT_LE(bundle_file_name(b).size(), 48u + 1 + 48 + 1 + 16 + 5);
    for (const char c : bundle_file_name(b)) EXPECT_NE(c, '/');
}

TEST(ReportBundle, Iso8601)
{
    EXPECT_EQ(iso8601_utc(0), "1970-01-01T00:00:00Z");
    EXPECT_EQ(iso8601_utc(1793700900), "2026-11-03T10:15:00Z");
}

} // namespace
