// The evidence beyond ios: the host's device-tree node in each form people
// have it (DTS fragment, dtc -I dtb / -I fs output, a copied or live node
// directory), the kernel log's events, the SoC table, and the size cap on
// every user-named input.
#include "bus/device_tree.h"
#include "bus/kernel_log.h"
#include "bus/soc_limits.h"
#include "cli/input.h"
#include "dev/bus_evidence.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

namespace {

using namespace mmc::bus;
namespace fs = std::filesystem;

const std::string dt_dir = "tests/data/dt/";

std::string read_file(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path + " (run the tests from the repository root)");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

DeviceTree dts(const std::string& file, std::string_view select = {})
{
    const auto parsed = parse_dts(read_file(dt_dir + file), select);
    EXPECT_TRUE(parsed.host) << file << ": " << parsed.error;
    return parsed.host.value_or(DeviceTree{});
}

// The facts every form of the ROC-RK3328-CC SD node must give.
void expect_roc_cc_sd(const DeviceTree& dt, bool regulator_found = true)
{
    EXPECT_EQ(dt.node, "mmc@ff500000");
    EXPECT_EQ(dt.compatible, (std::vector<std::string>{"rockchip,rk3328-dw-mshc", "rockchip,rk3288-dw-mshc"}));
    EXPECT_EQ(dt.max_frequency, 150000000u);
    EXPECT_EQ(dt.bus_width, 4u);
    EXPECT_EQ(dt.status, "okay");
    for (const char* f : {"cap-sd-highspeed", "sd-uhs-sdr12", "sd-uhs-sdr25", "sd-uhs-sdr50", "sd-uhs-sdr104", "disable-wp"})
        EXPECT_TRUE(dt.has(f)) << f;
    EXPECT_FALSE(dt.has("no-1-8-v"));
    EXPECT_TRUE(dt.has_vqmmc_supply);
    ASSERT_EQ(dt.vqmmc.has_value(), regulator_found);
    if (regulator_found) {
        EXPECT_EQ(dt.vqmmc->name, "vcc_sdio");
        EXPECT_EQ(dt.vqmmc->min_microvolt, 1800000u);
        EXPECT_EQ(dt.vqmmc->max_microvolt, 3300000u);
        EXPECT_TRUE(dt.vqmmc->reaches_1v8());
    }
}

TEST(DeviceTreeDts, BoardFileWithOverlayReferenceMerges)
{
    // rk3328.dtsi's node plus the board's "&sdmmc { }": one node, the
    // board's status and properties win, the label resolves the regulator.
    const DeviceTree dt = dts("rk3328-roc-cc.dts");
    expect_roc_cc_sd(dt);
    EXPECT_EQ(dt.label, "sdmmc");
    EXPECT_EQ(dt.vqmmc->node, "vcc_sdio");
    EXPECT_EQ(dt.overlay_target(), "&sdmmc");
}

TEST(DeviceTreeDts, DtcOutputOfTheDtbResolvesPhandles)
{
    const DeviceTree dt = dts("rk3328-roc-cc.dtc-dtb.dts");
    expect_roc_cc_sd(dt);
    EXPECT_EQ(dt.vqmmc->node, "sdmmcio-regulator");
    EXPECT_EQ(dt.overlay_target(), "&{/mmc@ff500000}");
}

TEST(DeviceTreeDts, DtcOutputOfAFilesystemTree)
{
    expect_roc_cc_sd(dts("rk3328-roc-cc.dtc-fs.dts"));
}

TEST(DeviceTreeDir, CopiedTreeFindsTheRegulatorByPhandle)
{
    const DeviceTree dt = mmc::dev::read_device_tree_dir(dt_dir + "rk3328-roc-cc.fs/mmc@ff500000", "copy");
    expect_roc_cc_sd(dt);
    EXPECT_EQ(dt.path, "/mmc@ff500000");
    EXPECT_EQ(dt.source, "copy");
}

TEST(DeviceTreeDir, CopiedSingleNodeSaysTheRegulatorIsOutside)
{
    char tmpl[] = "/tmp/mmckit-dt-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    const fs::path dir = fs::path(tmpl) / "mmc@ff500000";
    fs::copy(dt_dir + "rk3328-roc-cc.fs/mmc@ff500000", dir, fs::copy_options::recursive);
    const DeviceTree dt = mmc::dev::read_device_tree_dir(dir, dir.string());
    expect_roc_cc_sd(dt, false);
    ASSERT_EQ(dt.notes.size(), 1u);
    EXPECT_NE(dt.notes[0].find("outside this copied node"), std::string::npos);
    EXPECT_THROW(mmc::dev::read_device_tree_dir(fs::path(tmpl) / "missing", "missing"), std::runtime_error);
    fs::remove_all(tmpl);
}

TEST(DeviceTreeDts, AllFormsAgree)
{
    const DeviceTree a = dts("rk3328-roc-cc.dts"), b = dts("rk3328-roc-cc.dtc-dtb.dts"), c = dts("rk3328-roc-cc.dtc-fs.dts");
    const DeviceTree d = mmc::dev::read_device_tree_dir(dt_dir + "rk3328-roc-cc.fs/mmc@ff500000", "copy");
    for (const DeviceTree* x : {&b, &c, &d}) {
        auto sorted = [](std::vector<std::string> v) {
            std::sort(v.begin(), v.end());
            return v;
        };
        EXPECT_EQ(sorted(x->flags), sorted(a.flags));
        EXPECT_EQ(x->compatible, a.compatible);
        EXPECT_EQ(x->max_frequency, a.max_frequency);
        EXPECT_EQ(x->vqmmc->min_microvolt, a.vqmmc->min_microvolt);
    }
}

TEST(DeviceTreeDts, CorpusFragmentsParse)
{
    const DeviceTree phytium = dts("phytium-e2000q.dts");
    EXPECT_EQ(phytium.max_frequency, 50000000u);
    EXPECT_EQ(phytium.compatible, std::vector<std::string>{"phytium,mci"});
    const DeviceTree s0 = dts("rock-s0-emmc.dts");
    EXPECT_EQ(s0.bus_width, 8u);
    EXPECT_EQ(s0.max_frequency, 150000000u);
    EXPECT_TRUE(s0.flags.empty());
    const DeviceTree odin = dts("ayn-odin2-sd-before.dts");
    EXPECT_EQ(odin.max_sd_hs_hz, 37500000u);
    EXPECT_TRUE(odin.has_vqmmc_supply);
    EXPECT_FALSE(odin.vqmmc); // the regulator is not in the fragment
    EXPECT_EQ(odin.notes.size(), 1u);
    const DeviceTree rk3399 = dts("roc-rk3399-pc-emmc.dts");
    EXPECT_TRUE(rk3399.has("mmc-hs200-1_8v"));
    EXPECT_FALSE(rk3399.has("mmc-hs400-1_8v"));
    EXPECT_EQ(rk3399.status, "okay");
}

TEST(DeviceTreeDts, ChoosingTheHostNode)
{
    const std::string two = "/ { sdmmc: mmc@fe310000 { compatible = \"rockchip,rk3399-dw-mshc\"; bus-width = <4>; };\n"
                            "     sdhci: mmc@fe330000 { compatible = \"arasan,sdhci-5.1\"; bus-width = <8>; };\n"
                            "     pwrseq { compatible = \"mmc-pwrseq-simple\"; }; };";
    const auto none = parse_dts(two);
    EXPECT_FALSE(none.host);
    EXPECT_NE(none.error.find("several MMC host nodes (mmc@fe310000, mmc@fe330000)"), std::string::npos) << none.error;
    EXPECT_EQ(parse_dts(two, "sdhci").host->bus_width, 8u);
    EXPECT_EQ(parse_dts(two, "fe310000").host->bus_width, 4u);
    EXPECT_EQ(parse_dts(two, "mmc@fe330000").host->bus_width, 8u);
    EXPECT_EQ(parse_dts(two, "/mmc@fe310000").host->bus_width, 4u);
    const auto missing = parse_dts(two, "emmc");
    EXPECT_NE(missing.error.find("no MMC host node 'emmc' (there are: mmc@fe310000, mmc@fe330000)"), std::string::npos);
    // A disabled node gives way to the enabled one.
    const auto enabled = parse_dts("/ { mmc@1 { bus-width = <4>; status = \"disabled\"; }; mmc@2 { bus-width = <8>; }; };");
    ASSERT_TRUE(enabled.host);
    EXPECT_EQ(enabled.host->node, "mmc@2");
    EXPECT_FALSE(parse_dts("/ { cpus { cpu@0 { }; }; };").host);
}

TEST(DeviceTreeDts, PreprocessorCommentsAndDeletedProperties)
{
    const auto p = parse_dts("#include \"rk3328.dtsi\"\n#define X 1\n/dts-v1/;\n"
                             "&sdmmc {\n  #address-cells = <1>; // a comment { ;\n  /* mmc-hs400-1_8v; */\n"
                             "  sd-uhs-sdr104;\n  max-frequency = <(150 * 1000000)>;\n  /delete-property/ sd-uhs-sdr104;\n"
                             "  cap-sd-highspeed;\n};\n");
    ASSERT_TRUE(p.host) << p.error;
    EXPECT_EQ(p.host->node, "&sdmmc");
    EXPECT_EQ(p.host->label, "sdmmc");
    EXPECT_EQ(p.host->flags, std::vector<std::string>{"cap-sd-highspeed"});
    EXPECT_FALSE(p.host->max_frequency); // an expression is no number
    ASSERT_EQ(p.host->notes.size(), 1u);
    EXPECT_NE(p.host->notes[0].find("not a plain number"), std::string::npos);
}

TEST(DeviceTreeDts, HostileTextIsRefusedOrIgnoredInLinearTime)
{
    EXPECT_NE(parse_dts(std::string(100000, '{')).error.find("nested deeper than 64"), std::string::npos);
    std::string many;
    for (int i = 0; i < 200000; ++i) many += "n{};";
    EXPECT_NE(parse_dts(many).error.find("more than 100000 nodes"), std::string::npos);
    EXPECT_FALSE(parse_dts(std::string(4'000'000, '<')).host);
    EXPECT_FALSE(parse_dts(std::string(4'000'000, '"')).host);
    const auto cut = parse_dts("mmc@1 { bus-width = <4>; compatible = \"unterminated");
    ASSERT_TRUE(cut.host);
    EXPECT_EQ(cut.host->bus_width, 4u);
    ASSERT_EQ(cut.host->notes.size(), 1u);
    EXPECT_NE(cut.host->notes[0].find("the text ends inside this node"), std::string::npos);
    std::string props = "mmc@1 {";
    for (int i = 0; i < 5000; ++i) props += "p" + std::to_string(i) + ";";
    EXPECT_NE(parse_dts(props + "};").error.find("more than 1000 properties"), std::string::npos);
}

TEST(SocLimits, TableRowsAndLookup)
{
    DeviceTree dt;
    dt.compatible = {"rockchip,rk3328-dw-mshc", "rockchip,rk3288-dw-mshc"};
    const SocLimit* row = soc_limit(dt);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->compatible, "rockchip,rk3328-dw-mshc"); // the most specific first
    EXPECT_EQ(row->clock_hz, 150e6);
    EXPECT_TRUE(row->clock_is_limit);
    EXPECT_NE(row->source.find("rk3328.dtsi"), std::string_view::npos);
    EXPECT_EQ(row->best_mode.sd, Mode::sdr104); // one best mode per family: dw_mmc has no HS400
    EXPECT_EQ(row->best_mode.mmc, Mode::hs200);
    dt.compatible = {"vendor,unknown-mmc"};
    EXPECT_FALSE(soc_limit(dt));
}

TEST(SocLimits, ANodeSetApartByItsUnitAddress)
{
    // rk3528.dtsi: sdmmc (mmc@ffc30000) at 150 MHz, the same controller's
    // SDIO nodes at 200 MHz.
    DeviceTree dt;
    dt.compatible = {"rockchip,rk3528-dw-mshc", "rockchip,rk3288-dw-mshc"};
    dt.node = "mmc@ffc30000";
    const SocLimit* slot = soc_limit(dt);
    ASSERT_TRUE(slot);
    EXPECT_EQ(slot->clock_hz, 150e6);
    dt.node = "mmc@ffc10000";
    const SocLimit* sdio = soc_limit(dt);
    ASSERT_TRUE(sdio);
    EXPECT_EQ(sdio->clock_hz, 200e6);
    dt.node = "&sdmmc"; // a label: the unit address is unknown, the general row answers
    ASSERT_TRUE(soc_limit(dt));
    EXPECT_EQ(soc_limit(dt)->clock_hz, 200e6);
}

// ---- kernel log ---------------------------------------------------------

TEST(KernelLog, EachEventKindFromKernelWording)
{
    struct Case {
        const char* line;
        LogEventKind kind;
    };
    const Case cases[] = {
        {"[    3.101] mmc1: tuning execution failed: -5", LogEventKind::tuning_failed},
        {"[    3.102] mmc1: Tuning failed, falling back to fixed sampling clock", LogEventKind::tuning_failed},
        {"[    3.103] mmc1: Tuning timeout, falling back to fixed sampling clock", LogEventKind::tuning_failed},
        {"[    3.104] dwmmc_rockchip fe320000.mmc: All phases bad!", LogEventKind::tuning_failed},
        {"[    3.105] mmc1: ddr50 tuning failed", LogEventKind::tuning_failed},
        {"[    3.106] mmc1: Switching to 1.8V signalling voltage failed, retrying with S18R set to 0", LogEventKind::voltage_switch_failed},
        {"[    3.107] mmc1: 1.8V regulator output did not become stable", LogEventKind::voltage_switch_failed},
        {"[    3.108] mmc1: Signal voltage switch failed, power cycling card", LogEventKind::voltage_switch_failed},
        {"[    3.109] mmc1: problem reading switch capabilities, performance might suffer", LogEventKind::card_unsupported},
        {"[    3.110] mmc1: card lacks mandatory switch function, performance might suffer", LogEventKind::card_unsupported},
        {"[    3.111] mmc1: card does not support SD 1.8V", LogEventKind::card_unsupported},
        {"[    3.112] mmc1: mmc_select_hs400 failed, error -110", LogEventKind::mode_switch_failed},
        {"[    3.113] mmc1: mmc_select_hs200 failed, error -84", LogEventKind::mode_switch_failed},
        {"[    3.114] mmc1: switch to bus width 8 failed", LogEventKind::mode_switch_failed},
        {"[    3.115] mmcblk1: error -84 transferring data, sector 4096, nr 8, cmd response 0x900, card status 0xb00",
         LogEventKind::crc_error},
        {"[    3.116] mmc1: data CRC error", LogEventKind::crc_error},
        {"[    3.117] mmc1: reducing clock to 100000000 Hz after CRC errors", LogEventKind::step_down},
    };
    std::string log = "[    1.000] mmcblk1: mmc1:aaaa SD32G 29.7 GiB\n";
    for (const auto& c : cases) log += std::string(c.line) + "\n";
    const KernelLog k = parse_kernel_log(log, {"mmc1", "fe320000.mmc"});
    ASSERT_EQ(k.events.size(), std::size(cases));
    for (std::size_t i = 0; i < std::size(cases); ++i) {
        SCOPED_TRACE(cases[i].line);
        EXPECT_EQ(k.events[i].kind, cases[i].kind) << log_event_name(k.events[i].kind);
        EXPECT_EQ(k.events[i].line, i + 2);
        EXPECT_EQ(k.events[i].text.rfind("[", 0), std::string::npos); // the timestamp is gone
    }
}

TEST(KernelLog, OnlyThisHostsLines)
{
    const std::string log = "[ 1.0] mmc0: new HS200 MMC card at address 0001\n"
                            "[ 1.1] mmcblk0: mmc0:0001 AJTD4R 14.6 GiB\n"
                            "[ 1.2] mmc1: new high speed SDHC card at address aaaa\n"
                            "[ 1.3] mmcblk1: mmc1:aaaa SD16G 14.8 GiB\n"
                            "[ 2.0] mmc0: tuning execution failed: -5\n"
                            "[ 2.1] mmcblk1: error -84 transferring data\n"
                            "[ 2.2] dwmmc_rockchip fe320000.mmc: All phases bad!\n"
                            "[ 2.3] sdhci-arasan fe330000.mmc: Tuning failed\n"
                            "[ 3.0] mmc1: new ultra high speed SDR104 SDHC card at address 0007\n";
    const KernelLog sd = parse_kernel_log(log, {"mmc1", "fe320000.mmc"});
    EXPECT_EQ(sd.card_message, "mmc1: new ultra high speed SDR104 SDHC card at address 0007"); // the newest
    ASSERT_EQ(sd.events.size(), 2u);
    EXPECT_EQ(sd.events[0].kind, LogEventKind::crc_error); // mmcblk1 is mmc1's
    EXPECT_EQ(sd.events[1].text, "dwmmc_rockchip fe320000.mmc: All phases bad!");
    const KernelLog emmc = parse_kernel_log(log, {"mmc0", "fe330000.mmc"});
    ASSERT_EQ(emmc.events.size(), 2u);
    EXPECT_EQ(emmc.events[0].text, "mmc0: tuning execution failed: -5");
    EXPECT_EQ(emmc.card_message, "mmc0: new HS200 MMC card at address 0001");
    // The kernel's own buffer (klogctl) has each line's level first.
    const KernelLog klog = parse_kernel_log("<6>[   19.014309] mmc0: new high speed SDHC card at address 4567\n"
                                            "<3>[   20.1] mmc0: tuning execution failed: -110\n",
                                            {"mmc0"});
    EXPECT_EQ(klog.card_message, "mmc0: new high speed SDHC card at address 4567");
    ASSERT_EQ(klog.events.size(), 1u);
    EXPECT_EQ(klog.events[0].text, "mmc0: tuning execution failed: -110");
    // A log given for one pasted dump: every MMC line counts.
    EXPECT_EQ(parse_kernel_log(log, {}).events.size(), 4u);
    // Nothing about MMC, a long line, a binary blob: no events, no crash.
    EXPECT_TRUE(parse_kernel_log(std::string(3'000'000, 'm') + "\n" + std::string(1000, '\0'), {"mmc0"}).events.empty());
}

// ---- input caps -----------------------------------------------------------

TEST(ReadInput, CapsTheSizeAndNamesTheFile)
{
    try {
        mmc::cli::read_input("/dev/zero", 1 << 20, "ios dump");
        FAIL() << "/dev/zero was read";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "/dev/zero: more than 1 MiB; no ios dump is that large");
    }
    EXPECT_EQ(mmc::cli::read_input(dt_dir + "phytium-e2000q.dts", 1 << 20, "x"), read_file(dt_dir + "phytium-e2000q.dts"));
    try {
        mmc::cli::read_input("/nonexistent/ios", 100, "x");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "/nonexistent/ios: No such file or directory");
    }
}

} // namespace

// A tree built with dtc -@ lists its labels under /__symbols__ (label ->
// path): the live tree's node gets its label from there, so an overlay can
// target it by label; without the entry, no label is made up.
TEST(DeviceTreeDir, LabelFromTheTreesSymbols)
{
    char tmpl[] = "/tmp/mmckit-dt-XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    const fs::path root = fs::path(tmpl) / "base";
    fs::copy(dt_dir + "rk3328-roc-cc.fs", root, fs::copy_options::recursive);
    EXPECT_EQ(mmc::dev::read_device_tree_dir(root / "mmc@ff500000", "live").label, "");
    fs::create_directories(root / "__symbols__");
    const auto property = [&](const char* name, const std::string& value) {
        std::ofstream(root / "__symbols__" / name, std::ios::binary) << value << '\0';
    };
    property("sdmmc", "/mmc@ff500000");
    property("sdmmc_ext", "/mmc@ff5f0000");
    property("vcc_sd", "/sdmmc-regulator");
    const DeviceTree dt = mmc::dev::read_device_tree_dir(root / "mmc@ff500000", "live");
    EXPECT_EQ(dt.label, "sdmmc");
    EXPECT_TRUE(dt.label_in_symbols);
    EXPECT_EQ(dt.path, "/mmc@ff500000");
    expect_roc_cc_sd(dt);
    // Two labels on one node: the first by name, every time.
    property("mmc0", "/mmc@ff500000");
    EXPECT_EQ(mmc::dev::read_device_tree_dir(root / "mmc@ff500000", "live").label, "mmc0");
    fs::remove_all(tmpl);
}
