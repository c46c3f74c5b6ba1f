// libmmc/report/make_bundle: a measured bundle from the tools' JSON in
// tests/data/report (mmc-info and mmc-bus of the lab's SD capture with a real
// SanDisk card's CID, CSD and SSR; mmc-info of the eMMC board capture;
// mmc-bench documents in the contract's shape), and what happens when an
// input is missing or wrong.
#include "report/make_bundle.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace {

using namespace mmc::report;

const std::string data = "tests/data/report/";

MakeInputs sd_inputs()
{
    MakeInputs in;
    in.info = read_tool_doc(data + "sd-info.json", "mmc-info");
    in.bus = read_tool_doc(data + "sd-bus.json", "mmc-bus");
    in.erase = read_tool_doc(data + "erase.json", "mmc-erase");
    in.bench.push_back(read_tool_doc(data + "bench-iozone.json", "mmc-bench"));
    in.bench.push_back(read_tool_doc(data + "bench-a1.json", "mmc-bench"));
    in.environment = {{"hostname", "sdlab"}, {"machine", "QEMU Standard PC"}, {"kernel", "6.1.0-local"}};
    in.created = "2026-11-03T10:15:00Z";
    return in;
}

TEST(ReportMakeBundle, FixturesRead)
{
    for (const char* f : {"sd-info.json", "emmc-info.json"}) EXPECT_EQ(read_tool_doc(data + f, "mmc-info").error, "") << f;
    EXPECT_EQ(read_tool_doc(data + "sd-bus.json", "mmc-bus").error, "");
    EXPECT_EQ(read_tool_doc(data + "erase.json", "mmc-erase").error, "");
    EXPECT_EQ(read_tool_doc(data + "bench-iozone.json", "mmc-bench").error, "");
}

TEST(ReportMakeBundle, CardFromTheRegisters)
{
    const Bundle b = make_bundle(sd_inputs());
    EXPECT_EQ(b.kind.value, BundleKind::measured);
    EXPECT_EQ(b.created, "2026-11-03T10:15:00Z");
    EXPECT_EQ(b.card.manufacturer, "SanDisk");
    EXPECT_EQ(b.card.product, "SL16G");
    EXPECT_EQ(b.card.serial, "0x0eace07e");
    EXPECT_EQ(b.card.capacity_bytes, 15931539456ull);
    EXPECT_EQ(b.card.type.value, CardType::sd);
    EXPECT_EQ(b.card.classes.speed_class, "C10");
    EXPECT_EQ(b.card.classes.uhs_speed_grade, "U0");
    EXPECT_EQ(b.card.classes.video_speed_class, "not supported");
    EXPECT_EQ(b.card.classes.app_perf_class, "A1");
    EXPECT_EQ(b.card.label, "SanDisk SL16G 16GB");
    EXPECT_EQ(b.registers["tool"], "mmc-info");
    EXPECT_TRUE(b.registers["registers"].contains("ssr"));
}

TEST(ReportMakeBundle, HostFromTheBusDoctor)
{
    const Bundle b = make_bundle(sd_inputs());
    EXPECT_EQ(b.host.controller, "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)");
    EXPECT_EQ(b.host.bus_mode, "HS");
    EXPECT_EQ(b.host.kernel, "6.1.0-26-amd64") << "the kernel the benchmark ran on";
    EXPECT_EQ(b.host.label, "QEMU Standard PC, HS");
    EXPECT_EQ(b.bus["host"], "mmc0");
    EXPECT_EQ(b.bus["ceiling_mb_s"], 13.0);
    EXPECT_EQ(b.erase["tool"], "mmc-erase");
}

TEST(ReportMakeBundle, ResultsFromTheBenchJobs)
{
    const Bundle b = make_bundle(sd_inputs());
    // Sequential: the 16M jobs of the iozone run, not the 512k sustained write of the a1 run.
    EXPECT_EQ(b.results.seq_read_mb_s, 12.6);
    EXPECT_EQ(b.results.seq_write_mb_s, 10.2);
    // Random: 1k and 16k from iozone; 4k from the later a1 run; not the QD32 job, not the job with an error.
    EXPECT_EQ(b.results.rand_read_iops.at("1k"), 2100);
    EXPECT_EQ(b.results.rand_write_iops.at("1k"), 310);
    EXPECT_EQ(b.results.rand_read_iops.at("4k"), 1650);
    EXPECT_EQ(b.results.rand_write_iops.at("4k"), 460);
    EXPECT_EQ(b.results.rand_read_iops.at("16k"), 720);
    EXPECT_EQ(b.results.rand_write_iops.at("16k"), 260);
    ASSERT_EQ(b.bench.size(), 2u);
    ASSERT_EQ(b.verdicts.size(), 4u);
    EXPECT_EQ(b.verdicts[1].claim, "A1 random write 4 KiB QD1");
    EXPECT_EQ(b.verdicts[1].result.value, VerdictResult::fail);
    EXPECT_EQ(b.verdicts[1].required, 500);
    EXPECT_EQ(b.verdicts[1].measured, 460);
    EXPECT_EQ(b.verdicts[1].unit.value, VerdictUnit::iops);
    EXPECT_FALSE(b.verdicts[3].measured);
    EXPECT_EQ(b.verdicts[3].result.value, VerdictResult::not_applicable);
}

TEST(ReportMakeBundle, ToolsAndSteps)
{
    MakeInputs in = sd_inputs();
    in.steps = {parse_step("info:ok:"), parse_step("bench:fail:mmc-bench exited 1: A1 write")};
    const Bundle b = make_bundle(in);
    for (const char* t : {"mmc-info", "mmc-bus", "mmc-erase", "mmc-bench", "mmc-report"}) EXPECT_EQ(b.tools[t], "0.1.0") << t;
    ASSERT_EQ(b.steps.size(), 2u);
    EXPECT_TRUE(b.steps[0].ok);
    EXPECT_EQ(b.steps[1].message, "mmc-bench exited 1: A1 write");
}

TEST(ReportMakeBundle, BadInputsAreFailedStepsNotErrors)
{
    const auto dir = std::filesystem::temp_directory_path() / "report_make_bundle_test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "empty.json") << "";
    std::ofstream(dir / "junk.json") << "mmc-bench: /dev/mmcblk0: Permission denied\n";
    MakeInputs in;
    in.info = read_tool_doc((dir / "missing.json").string(), "mmc-info");
    in.bus = read_tool_doc(data + "sd-info.json", "mmc-bus"); // the wrong tool's output
    in.erase = read_tool_doc((dir / "empty.json").string(), "mmc-erase");
    in.bench.push_back(read_tool_doc((dir / "junk.json").string(), "mmc-bench"));
    in.bench.push_back(read_tool_doc(data + "bench-iozone.json", "mmc-bench"));
    in.created = "2026-11-03T10:15:00Z";
    const Bundle b = make_bundle(in);
    ASSERT_EQ(b.steps.size(), 4u);
    for (const auto& s : b.steps) EXPECT_FALSE(s.ok) << s.name;
    EXPECT_EQ(b.steps[0].name, "load mmc-info");
    EXPECT_NE(b.steps[0].message.find("missing.json: No such file"), std::string::npos) << b.steps[0].message;
    EXPECT_NE(b.steps[1].message.find("not mmc-bus -J output (\"tool\": \"mmc-info\")"), std::string::npos) << b.steps[1].message;
    EXPECT_NE(b.steps[2].message.find("empty"), std::string::npos) << b.steps[2].message;
    EXPECT_NE(b.steps[3].message.find("not JSON"), std::string::npos) << b.steps[3].message;
    EXPECT_TRUE(b.registers.is_null());
    EXPECT_TRUE(b.bus.is_null());
    EXPECT_TRUE(b.erase.is_null());
    EXPECT_EQ(b.bench.size(), 1u);
    // What the benchmark knew still names the card and host.
    EXPECT_EQ(b.card.product, "SL16G");
    EXPECT_EQ(b.card.capacity_bytes, 15931539456ull);
    EXPECT_EQ(b.host.bus_mode, "HS");
    EXPECT_EQ(b.results.seq_read_mb_s, 12.6);
    std::filesystem::remove_all(dir);
}

TEST(ReportMakeBundle, NothingAtAll)
{
    MakeInputs in;
    in.created = "2026-11-03T10:15:00Z";
    const Bundle b = make_bundle(in);
    EXPECT_EQ(b.card.label, "unknown card");
    EXPECT_EQ(b.host.label, "unknown host");
    EXPECT_TRUE(b.results.empty());
    EXPECT_TRUE(b.steps.empty());
    const Bundle again = from_json(to_json(b));
    EXPECT_TRUE(again.warnings.empty());
}

TEST(ReportMakeBundle, EmmcCapacityFromExtCsd)
{
    MakeInputs in;
    in.info = read_tool_doc(data + "emmc-info.json", "mmc-info");
    in.created = "2026-11-03T10:15:00Z";
    in.host_label = "Raspberry Pi CM4";
    const Bundle b = make_bundle(in);
    EXPECT_EQ(b.card.type.value, CardType::mmc);
    EXPECT_EQ(b.card.manufacturer, "Samsung");
    EXPECT_EQ(b.card.product, "M8G1GC");
    EXPECT_EQ(b.card.capacity_bytes, 62537072640ull) << "EXT_CSD SEC_COUNT, not the CSD placeholder";
    EXPECT_EQ(b.card.label, "Samsung M8G1GC 64GB");
    EXPECT_EQ(b.card.classes.speed_class, "") << "an eMMC has no SD status";
    EXPECT_EQ(b.host.label, "Raspberry Pi CM4");
    EXPECT_EQ(b.host.controller, "sdhci-iproc");
}

TEST(ReportMakeBundle, CardListWithoutRegisters)
{
    MakeInputs in;
    in.info = ToolDoc{"mmc-info", "list.json",
                      json::parse(R"({"tool": "mmc-info", "version": "0.1.0", "cards": [{"host": "mmc0", "type": "SD",
                                      "name": "QEMU!", "capacity_bytes": 4294967296}]})"),
                      ""};
    in.created = "2026-11-03T10:15:00Z";
    const Bundle b = make_bundle(in);
    EXPECT_EQ(b.card.product, "QEMU!");
    EXPECT_EQ(b.card.capacity_bytes, 4294967296ull);
    ASSERT_EQ(b.steps.size(), 1u);
    EXPECT_NE(b.steps[0].message.find("without registers"), std::string::npos);
}

TEST(ReportMakeBundle, Steps)
{
    const Step a = parse_step("erase:ok:discarded 4 GiB");
    EXPECT_EQ(a.name, "erase");
    EXPECT_TRUE(a.ok);
    EXPECT_EQ(a.message, "discarded 4 GiB");
    const Step b = parse_step("bench:fail:mmc-bench: /dev/mmcblk0: busy");
    EXPECT_FALSE(b.ok);
    EXPECT_EQ(b.message, "mmc-bench: /dev/mmcblk0: busy") << "the message keeps its colons";
    EXPECT_EQ(parse_step("info:ok").message, "");
    EXPECT_THROW(parse_step("info"), std::invalid_argument);
    EXPECT_THROW(parse_step(":ok:x"), std::invalid_argument);
    EXPECT_THROW(parse_step("info:maybe:x"), std::invalid_argument);
}

TEST(ReportMakeBundle, NominalCapacity)
{
    EXPECT_EQ(nominal_capacity(15931539456ull), "16GB");
    EXPECT_EQ(nominal_capacity(62537072640ull), "64GB");
    EXPECT_EQ(nominal_capacity(4294967296ull), "4GB");
    EXPECT_EQ(nominal_capacity(127865454592ull), "128GB");
    EXPECT_EQ(nominal_capacity(1977614336ull), "2GB");
    EXPECT_EQ(nominal_capacity(507510784ull), "512MB");
    EXPECT_EQ(nominal_capacity(3100000000ull), "3.1GB");
}

TEST(ReportMakeBundle, ResultsOnlyFromUsableJobs)
{
    const auto docs = std::vector<json>{json::parse(R"({"tool": "mmc-bench", "jobs": [
        {"name": "a", "rw": "read", "block_size": 4194304, "ios": 0, "mb_s": 0, "iops": 0},
        {"name": "b", "rw": "read", "block_size": 4096, "ios": 10, "mb_s": 5.5, "iops": 1342},
        {"name": "c", "rw": "randwrite", "block_size": 8192, "ios": 10, "mb_s": 1, "iops": 122},
        {"name": "d", "rw": "trim", "block_size": 4096, "ios": 10, "mb_s": 1, "iops": 10},
        "junk"]})")};
    const Results r = results_from_bench(docs);
    EXPECT_EQ(r.seq_read_mb_s, 5.5) << "a job with no I/O gives no figure";
    EXPECT_FALSE(r.seq_write_mb_s);
    EXPECT_TRUE(r.rand_write_iops.empty()) << "8k is not a column of the table";
}

} // namespace
