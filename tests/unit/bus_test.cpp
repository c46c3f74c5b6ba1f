// libmmc/bus: the ios parser, caps names, the mode table and the doctor.
// Checked against tests/data/ios.json: first the real dumps of the corpus
// (boards, with the conclusion their source reached), then facts of the
// kernel format notes, marked "kind": "format-fact" with what they were
// built from. The lab facts come from the SD capture in tests/data/sysfs.
#include "bus/doctor.h"

#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace {

using namespace mmc::bus;
using mmc::regs::CardFamily;
using nlohmann::json;

const json& ios_corpus()
{
    static const json corpus = [] {
        const std::string path = "tests/data/ios.json";
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot open " + path + " (run the tests from the repository root)");
        return json::parse(in);
    }();
    return corpus;
}

const json& entry(std::size_t index) { return ios_corpus().at(index); }
std::string ios_text(std::size_t index) { return entry(index).at("ios").get<std::string>(); }

std::string read_file(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path + " (run the tests from the repository root)");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

uint32_t hex32(const std::string& text) { return static_cast<uint32_t>(std::stoul(text, nullptr, 16)); }

Ios parse_one(const std::string& text)
{
    const auto all = parse_ios(text);
    EXPECT_EQ(all.size(), 1u) << text;
    return all.empty() ? Ios{} : all.front();
}

// The evidence a pasted corpus entry gives: its ios, caps, caps2, kernel.
Evidence evidence_of(const json& e)
{
    Evidence ev;
    ev.ios = parse_one(e.at("ios").get<std::string>());
    ev.host = ev.ios.host;
    if (e.contains("caps") && e["caps"].is_string()) ev.caps = hex32(e["caps"]);
    if (e.contains("caps2") && e["caps2"].is_string()) ev.caps2 = hex32(e["caps2"]);
    if (e.contains("kernel") && e["kernel"].is_string()) ev.kernel_version = e["kernel"];
    return ev;
}

testing::AssertionResult has_finding(const Diagnosis& d, std::string_view text)
{
    std::string all;
    for (const auto& f : d.findings) {
        if (f.text.find(text) != std::string::npos) return testing::AssertionSuccess();
        all += "\n  [" + std::string(mmc::bus::to_string(f.severity)) + "] " + f.text;
    }
    return testing::AssertionFailure() << "no finding contains \"" << text << "\"; findings:" << all;
}

testing::AssertionResult suggests(const Diagnosis& d, std::string_view text)
{
    std::string all;
    for (const auto& s : d.suggestions) {
        if (s.find(text) != std::string::npos) return testing::AssertionSuccess();
        all += "\n  " + s;
    }
    return testing::AssertionFailure() << "no suggestion contains \"" << text << "\"; suggestions:" << all;
}

// Tabs expanded to spaces with 8-column stops, as some copies have them.
std::string expand_tabs(std::string_view text)
{
    std::string out;
    std::size_t col = 0;
    for (char c : text) {
        if (c == '\t') {
            do out += ' ';
            while (++col % 8);
        } else {
            out += c;
            col = c == '\n' ? 0 : col + 1;
        }
    }
    return out;
}

std::string prefix_lines(std::string_view text, std::string_view prefix)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        const auto end = nl == std::string_view::npos ? text.size() : nl + 1;
        out += std::string(prefix) + std::string(text.substr(pos, end - pos));
        pos = end;
    }
    return out;
}

void expect_same_ios(const Ios& a, const Ios& b)
{
    EXPECT_EQ(a.clock_hz, b.clock_hz);
    EXPECT_EQ(a.actual_clock_hz, b.actual_clock_hz);
    EXPECT_EQ(a.vdd, b.vdd);
    EXPECT_EQ(a.vdd_text, b.vdd_text);
    EXPECT_EQ(a.power_mode, b.power_mode);
    EXPECT_EQ(a.bus_width_bits, b.bus_width_bits);
    EXPECT_EQ(a.timing_code, b.timing_code);
    EXPECT_EQ(a.timing, b.timing);
    EXPECT_EQ(a.signal_voltage_v, b.signal_voltage_v);
    EXPECT_EQ(a.driver_type, b.driver_type);
    EXPECT_EQ(a.unparsed, b.unparsed);
}

// ---- Ios ----------------------------------------------------------------

TEST(IosCorpus, EveryDumpParses)
{
    int real = 0;
    for (const auto& e : ios_corpus()) {
        SCOPED_TRACE(e.at("board").get<std::string>());
        const auto all = parse_ios(e.at("ios").get<std::string>());
        ASSERT_EQ(all.size(), 1u);
        const Ios& i = all.front();
        EXPECT_TRUE(i.unparsed.empty()) << i.unparsed.front();
        EXPECT_FALSE(i.timing.empty());
        EXPECT_TRUE(i.timing_code);
        if (e.contains("kind")) continue; // the format facts quote only some lines
        ++real;
        EXPECT_TRUE(i.clock_hz);
        EXPECT_TRUE(i.vdd);
        EXPECT_FALSE(i.vdd_text.empty());
        EXPECT_TRUE(i.power_mode);
        EXPECT_TRUE(i.bus_width_bits);
        EXPECT_TRUE(i.signal_voltage_v);
        EXPECT_EQ(i.driver_type, "driver type B");
        EXPECT_TRUE(mode_name(i));
    }
    EXPECT_EQ(real, 10);
}

TEST(IosParse, KernelFormatWithTabs)
{
    const Ios i = parse_one(ios_text(0));
    EXPECT_EQ(i.clock_hz, 50000000u);
    EXPECT_EQ(i.actual_clock_hz, 50000000u);
    EXPECT_EQ(i.vdd, 21);
    EXPECT_EQ(i.vdd_text, "3.3 ~ 3.4 V");
    EXPECT_EQ(i.power_mode, 2);
    EXPECT_EQ(i.power_text, "on");
    EXPECT_EQ(i.bus_width_bits, 4);
    EXPECT_EQ(i.timing_code, 7);
    EXPECT_EQ(i.timing, "sd uhs DDR50");
    EXPECT_EQ(i.signal_voltage_v, 1.8);
    EXPECT_EQ(i.driver_type, "driver type B");
    EXPECT_TRUE(i.host.empty());
}

TEST(IosParse, TabsExpandedToSpaces)
{
    for (std::size_t index : {0u, 1u, 2u, 7u}) {
        const std::string text = entry(index).at("ios");
        SCOPED_TRACE(index);
        const Ios tabs = parse_one(text);
        const Ios spaces = parse_one(expand_tabs(text));
        expect_same_ios(tabs, spaces);
    }
    // The RK3328 entry arrived with spaces already.
    const Ios rk = parse_one(ios_text(3));
    EXPECT_EQ(rk.clock_hz, 150000000u);
    EXPECT_EQ(rk.timing, "sd uhs SDR104");
    EXPECT_EQ(rk.signal_voltage_v, 1.8);
}

TEST(IosParse, LowVoltageVddPrintsWithADash)
{
    const Ios i = parse_one(ios_text(8));
    EXPECT_EQ(i.vdd, 7);
    EXPECT_EQ(i.vdd_text, "1.65 - 1.95 V");
    EXPECT_EQ(i.bus_width_bits, 8);
}

TEST(IosParse, PoweredOffSnapshot)
{
    const Ios i = parse_one(ios_text(4));
    EXPECT_TRUE(i.powered_off());
    EXPECT_EQ(i.clock_hz, 0u);
    EXPECT_EQ(i.vdd, 0);
    EXPECT_EQ(i.vdd_text, "invalid");
    EXPECT_EQ(i.bus_width_bits, 1);
    EXPECT_EQ(i.timing, "legacy");
}

TEST(IosParse, MissingActualClock)
{
    const Ios i = parse_one(ios_text(5));
    EXPECT_EQ(i.clock_hz, 50000000u);
    EXPECT_FALSE(i.actual_clock_hz);
}

TEST(IosParse, TruncatedFirstKey)
{
    // The Radxa E20C mail starts "lock:" (the "c" lost in the paste).
    std::string text = ios_text(1);
    ASSERT_EQ(text.rfind("clock:", 0), 0u);
    text.erase(0, 1);
    const Ios i = parse_one(text);
    EXPECT_EQ(i.clock_hz, 50000000u);
    EXPECT_EQ(i.actual_clock_hz, 50000000u);
    EXPECT_EQ(i.timing, "sd high-speed");
}

TEST(IosParse, GrepPrefixedLinesNameTheirHosts)
{
    const std::string text = prefix_lines(expand_tabs(ios_text(0)), "/sys/kernel/debug/mmc0/ios:") +
                             prefix_lines(ios_text(2), "/sys/kernel/debug/mmc1/ios:");
    const auto all = parse_ios(text);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].host, "mmc0");
    EXPECT_EQ(all[0].timing, "sd uhs DDR50");
    EXPECT_TRUE(all[0].unparsed.empty());
    EXPECT_EQ(all[1].host, "mmc1");
    EXPECT_EQ(all[1].actual_clock_hz, 41666667u);

    // The vendor SDIO host whose debugfs directory is "sdio".
    const Ios sdio = parse_one(ios_text(11));
    EXPECT_EQ(sdio.host, "sdio");
    EXPECT_EQ(sdio.timing, "sd uhs SDR104");
    EXPECT_EQ(sdio.timing_code, 6);
}

TEST(IosParse, GrepPrefixWithoutClockStillSplitsByHost)
{
    const auto all = parse_ios("/sys/kernel/debug/mmc0/ios:timing spec:\t9 (mmc HS200)\n"
                               "/sys/kernel/debug/mmc1/ios:timing spec:\t2 (sd high-speed)\n");
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].host, "mmc0");
    EXPECT_EQ(all[0].timing, "mmc HS200");
    EXPECT_EQ(all[1].host, "mmc1");
    EXPECT_EQ(all[1].timing, "sd high-speed");
}

TEST(IosParse, SeveralHostsInOneText)
{
    // cat /sys/kernel/debug/mmc*/ios on the Pi 4: SD slot, then SDIO Wi-Fi.
    const auto all = parse_ios(ios_text(0) + ios_text(2));
    ASSERT_EQ(all.size(), 2u);
    expect_same_ios(all[0], parse_one(ios_text(0)));
    expect_same_ios(all[1], parse_one(ios_text(2)));
}

TEST(IosParse, MailQuotesAndIndentation)
{
    // The RK3328 dump was quoted "> > " in the mail.
    const std::string text = ios_text(3);
    expect_same_ios(parse_one(prefix_lines(text, "> > ")), parse_one(text));
    expect_same_ios(parse_one(prefix_lines(text, "    ")), parse_one(text));
}

TEST(IosParse, WindowsLineEndings)
{
    std::string text;
    for (char c : ios_text(0)) text += c == '\n' ? std::string("\r\n") : std::string(1, c);
    expect_same_ios(parse_one(text), parse_one(ios_text(0)));
}

TEST(IosParse, OldestKernelHasNoSignalVoltage)
{
    // 2.6/3.0 printed no signal voltage or driver type lines.
    const Ios i = parse_one("clock:\t\t50000000 Hz\nvdd:\t\t20 (3.2 ~ 3.3 V)\nbus mode:\t2 (push-pull)\n"
                            "chip select:\t0 (don't care)\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\n"
                            "timing spec:\t2 (sd high-speed)\n");
    EXPECT_FALSE(i.signal_voltage_v);
    EXPECT_TRUE(i.driver_type.empty());
    EXPECT_EQ(mode_name(i), Mode::hs);
}

TEST(IosParse, TimingComesFromTheTextNotTheNumber)
{
    // v3.7 numbered SDR104 as 4.
    const Ios i = parse_one("timing spec:\t4 (sd uhs SDR104)\n");
    EXPECT_EQ(i.timing_code, 4);
    EXPECT_EQ(mode_name(i), Mode::sdr104);
}

TEST(IosParse, UnderstoodAndUnparsedLines)
{
    const auto all = parse_ios("root@board:~# cat /sys/kernel/debug/mmc0/ios\nclock:\t\t400000 Hz\nsomething else\n\n");
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].clock_hz, 400000u);
    EXPECT_EQ(all[0].unparsed, std::vector<std::string>{"something else"});
    EXPECT_TRUE(parse_ios("").empty());
    EXPECT_TRUE(parse_ios("no ios here\n").empty());
}

// Pasted text is untrusted: no recursion on its length, no number taken
// from a value that is not one.
TEST(IosInput, OneVeryLongLineNeitherCrashesNorParses)
{
    // std::regex recursed once per character and overflowed the stack.
    const std::string line = "clock: " + std::string(4'000'000, 'x');
    const auto all = parse_ios(line);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_FALSE(all[0].clock_hz);
    EXPECT_FALSE(all[0].errors.empty());
    EXPECT_TRUE(parse_ios(std::string(4'000'000, '>') + "x").empty());
    const auto prefixed = parse_ios(std::string(1'000'000, 'a') + "ios:timing spec:\t2 (sd high-speed)\n");
    ASSERT_EQ(prefixed.size(), 1u);
    EXPECT_EQ(prefixed[0].timing, "sd high-speed");
}

TEST(IosInput, AbsurdClocksAreRejectedWithTheLine)
{
    for (const char* bad : {"clock:\t\t1e400 Hz\n", "clock:\t\t99999999999999999999999 Hz\n", "clock:\t\t-5 Hz\n",
                            "clock:\t\t5000000000 Hz\n", "actual clock:\t12abc Hz\n", "clock:\t\t Hz\n"}) {
        SCOPED_TRACE(bad);
        const auto all = parse_ios(std::string(bad) + "timing spec:\t2 (sd high-speed)\n");
        ASSERT_EQ(all.size(), 1u);
        EXPECT_FALSE(all[0].clock_hz);
        EXPECT_FALSE(all[0].actual_clock_hz);
        ASSERT_EQ(all[0].errors.size(), 1u);
        EXPECT_NE(all[0].errors[0].find("line 1:"), std::string::npos) << all[0].errors[0];
        EXPECT_NE(all[0].errors[0].find("clock"), std::string::npos) << all[0].errors[0];
    }
    // A real value stays clean: no error, the exact number.
    const Ios i = parse_one("clock:\t\t4294967 Hz\n");
    EXPECT_TRUE(i.errors.empty());
    EXPECT_EQ(i.clock_hz, 4294967u);
}

TEST(KernelVersion, OnlyVersionsAreVersions)
{
    for (const char* good : {"5.10", "6.1.0-57-amd64", "4.9.140", "4.4.0-rc1", "3.0", "6.12.3+rpt-rpi-v8"})
        EXPECT_TRUE(is_kernel_version(good)) << good;
    for (const char* bad : {"", "banana", "5", "5.", ".10", "5.10 ; rm", "99999.1", "1e400", "5.x", "v5.10"})
        EXPECT_FALSE(is_kernel_version(bad)) << bad;
}

// ---- Caps ---------------------------------------------------------------

TEST(CapsDecode, Am62xWorkedExample)
{
    const json& am62x = entry(12);
    ASSERT_EQ(am62x.at("caps"), "0x4000114b");
    EXPECT_EQ(decode_caps(hex32(am62x["caps"]), "5.10"),
              (std::vector<std::string>{"4_BIT_DATA", "MMC_HIGHSPEED", "SDIO_IRQ", "8_BIT_DATA", "NONREMOVABLE", "1_8V_DDR", "CMD23"}));
    EXPECT_EQ(decode_caps2(hex32(am62x["caps2"]), "5.10"),
              (std::vector<std::string>{"SDIO_IRQ_NOTHREAD", "NO_WRITE_PROTECT", "CQE"}));
}

TEST(CapsDecode, LabHosts)
{
    EXPECT_EQ(decode_caps(0x4000000f, "6.1.0"),
              (std::vector<std::string>{"4_BIT_DATA", "MMC_HIGHSPEED", "SD_HIGHSPEED", "SDIO_IRQ", "CMD23"}));
    EXPECT_EQ(decode_caps2(0x00024000, "6.1.0"), (std::vector<std::string>{"NO_PRESCAN_POWERUP", "SDIO_IRQ_NOTHREAD"}));
    EXPECT_EQ(decode_caps(0x4000010f, "6.1.0"),
              (std::vector<std::string>{"4_BIT_DATA", "MMC_HIGHSPEED", "SD_HIGHSPEED", "SDIO_IRQ", "NONREMOVABLE", "CMD23"}));
    EXPECT_EQ(decode_caps2(0x00020000, "6.1.0"), std::vector<std::string>{"SDIO_IRQ_NOTHREAD"});
    // The CM4 eMMC fixture: HS200 at 1.8 V, 8 bits.
    EXPECT_EQ(decode_caps2(0x00000020, ""), std::vector<std::string>{"HS200_1_8V_SDR"});
}

TEST(CapsDecode, OldKernelLayoutBefore4_11)
{
    // Bits 11 and 15-19: DDR and UHS on 4.4, shifted by one since 4.11.
    const uint32_t caps = 0x000f8800;
    EXPECT_EQ(decode_caps(caps, "4.4.0"),
              (std::vector<std::string>{"1_8V_DDR", "UHS_SDR12", "UHS_SDR25", "UHS_SDR50", "UHS_SDR104", "UHS_DDR50"}));
    EXPECT_EQ(decode_caps(caps, "5.10"),
              (std::vector<std::string>{"3_3V_DDR", "BUS_WIDTH_TEST", "UHS_SDR12", "UHS_SDR25", "UHS_SDR50", "UHS_SDR104"}));
    EXPECT_EQ(decode_caps(1u << 10 | 1u << 13, "4.9.140"), (std::vector<std::string>{"ERASE", "POWER_OFF_CARD"}));
    EXPECT_EQ(decode_caps(1u << 13, "6.1"), std::vector<std::string>{"1_2V_DDR"});
    // caps2 lost the packed-command bits in the same cycle.
    EXPECT_EQ(decode_caps2(0x3000, "4.4.0"), (std::vector<std::string>{"PACKED_RD", "PACKED_WR"}));
    EXPECT_EQ(decode_caps2(0x3000, "5.10"), (std::vector<std::string>{"bit 12", "bit 13"}));
}

TEST(CapsDecode, KernelVersionSelectsTheLayout)
{
    EXPECT_TRUE(kernel_before("4.10.17", 4, 11));
    EXPECT_TRUE(kernel_before("3.18.31-vendor", 4, 11));
    EXPECT_FALSE(kernel_before("4.11.0", 4, 11));
    EXPECT_FALSE(kernel_before("6.1.0-57-amd64", 4, 11));
    EXPECT_FALSE(kernel_before("5.10", 4, 11));
    EXPECT_FALSE(kernel_before("", 4, 11)); // empty: the current layout
    EXPECT_FALSE(kernel_before("linux", 4, 11));
    EXPECT_FALSE(kernel_before("6", 4, 11));
}

TEST(CapsDecode, UnknownBitsByNumber)
{
    EXPECT_EQ(decode_caps(1u << 26, ""), std::vector<std::string>{"bit 26"});
    EXPECT_EQ(decode_caps2(1u << 29 | 1u << 1, ""), (std::vector<std::string>{"bit 1", "bit 29"}));
    EXPECT_EQ(decode_caps2(1u << 23, "4.4"), std::vector<std::string>{"bit 23"}); // CQE came in 4.15
    EXPECT_TRUE(decode_caps(0, "").empty());
}

TEST(CapsDecode, SpeedBitsOfCaps2)
{
    // MMC_CAP2_HSX00_1_8V, then with bit 5 cleared as in the commit that made
    // caps2 writable (timing dropped from HS200 to DDR52).
    EXPECT_EQ(decode_caps2(0x00008020, ""), (std::vector<std::string>{"HS200_1_8V_SDR", "HS400_1_8V"}));
    EXPECT_EQ(decode_caps2(0x00008020 & ~(1u << 5), ""), std::vector<std::string>{"HS400_1_8V"});
    EXPECT_EQ(decode_caps2(0x00100000 | 0x00010040, ""),
              (std::vector<std::string>{"HS200_1_2V_SDR", "HS400_1_2V", "HS400_ES"}));
}

// ---- Modes --------------------------------------------------------------

TEST(ModesName, EveryTimingText)
{
    const std::vector<std::pair<std::string, Mode>> cases{
        {"legacy", Mode::legacy},      {"sd high-speed", Mode::hs},       {"sd uhs SDR12", Mode::sdr12},
        {"sd uhs SDR25", Mode::sdr25}, {"sd uhs SDR50", Mode::sdr50},     {"sd uhs SDR104", Mode::sdr104},
        {"sd uhs DDR50", Mode::ddr50}, {"mmc high-speed", Mode::mmc_hs},  {"mmc DDR52", Mode::ddr52},
        {"mmc HS200", Mode::hs200},    {"mmc HS400", Mode::hs400},        {"mmc HS400 enhanced strobe", Mode::hs400es},
    };
    for (const auto& [text, mode] : cases) {
        Ios i;
        i.timing = text;
        i.power_mode = 2;
        EXPECT_EQ(mode_name(i), mode) << text;
    }
}

// The words the views and the JSON print: the same as before the modes were typed.
TEST(ModesName, EveryModeHasItsWord)
{
    const std::vector<std::pair<Mode, std::string>> words{
        {Mode::legacy, "legacy"}, {Mode::hs, "HS"},         {Mode::sdr12, "SDR12"},   {Mode::sdr25, "SDR25"},
        {Mode::sdr50, "SDR50"},   {Mode::sdr104, "SDR104"}, {Mode::ddr50, "DDR50"},   {Mode::hs26, "HS26"},
        {Mode::mmc_hs, "MMC-HS"}, {Mode::ddr52, "DDR52"},   {Mode::hs200, "HS200"},   {Mode::hs400, "HS400"},
        {Mode::hs400es, "HS400ES"}, {Mode::off, "off"},
    };
    for (const auto& [mode, word] : words) EXPECT_EQ(to_string(mode), word);
}

TEST(ModesName, OffAndUnnamed)
{
    EXPECT_EQ(mode_name(parse_one(ios_text(4))), Mode::off);
    Ios i;
    i.timing = "invalid";
    EXPECT_EQ(mode_name(i), std::nullopt);
    EXPECT_EQ(mode_name(Ios{}), std::nullopt);
}

TEST(ModesCeiling, FixedByTheIssue)
{
    EXPECT_EQ(mode_ceiling_mb_s(Mode::hs), 25);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::sdr50), 50);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::ddr50), 50);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::sdr104), 104);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::ddr52), 104);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::hs200), 200);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::hs400), 400);
}

TEST(ModesCeiling, EveryMode)
{
    EXPECT_EQ(mode_ceiling_mb_s(Mode::sdr12), 12.5);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::sdr25), 25);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::mmc_hs), 52); // 52 MHz x 8 bits
    EXPECT_EQ(mode_ceiling_mb_s(Mode::hs26), 26);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::hs400es), 400);
    EXPECT_FALSE(mode_ceiling_mb_s(Mode::off));
}

TEST(ModesCeiling, LegacyDependsOnTheFamily)
{
    EXPECT_EQ(mode_ceiling_mb_s(Mode::legacy), 12.5);                // SD default speed: 25 MHz x 4 bits
    EXPECT_EQ(mode_ceiling_mb_s(Mode::legacy, CardFamily::sd), 12.5);
    EXPECT_EQ(mode_ceiling_mb_s(Mode::legacy, CardFamily::mmc), 26); // MMC: 26 MHz x 8 bits
    EXPECT_EQ(mode_ceiling_mb_s(Mode::hs200, CardFamily::mmc), 200);
}

TEST(ModesSpec, ClockWidthAndEdges)
{
    const auto sdr104 = mode_spec(Mode::sdr104);
    ASSERT_TRUE(sdr104);
    EXPECT_EQ(sdr104->clock_hz, 208e6);
    EXPECT_EQ(sdr104->width_bits, 4);
    EXPECT_FALSE(sdr104->ddr);
    for (const Mode ddr : {Mode::ddr50, Mode::ddr52, Mode::hs400, Mode::hs400es}) EXPECT_TRUE(mode_spec(ddr)->ddr) << to_string(ddr);
    for (const Mode sdr : {Mode::hs, Mode::sdr50, Mode::mmc_hs, Mode::hs200}) EXPECT_FALSE(mode_spec(sdr)->ddr) << to_string(sdr);
    EXPECT_FALSE(mode_spec(Mode::off));
    EXPECT_EQ(mode_spec(Mode::mmc_hs)->width_bits, 8);
}

// ---- Doctor: the corpus, case by case -----------------------------------

// The entry's DT fragment (tests/data/dt/...), parsed as --dt would.
std::optional<DeviceTree> dt_of(const json& e)
{
    if (!e.contains("dt_fragment")) return std::nullopt;
    const auto parsed = parse_dts(read_file(e.at("dt_fragment").get<std::string>()));
    EXPECT_TRUE(parsed.host) << parsed.error;
    return parsed.host;
}

struct CorpusCase {
    std::size_t index;
    std::string board; // the entry's board starts with this
    std::function<void(Evidence&)> add;  // what the entry says beyond ios and its DT fragment
    Mode mode;
    std::optional<double> mode_ceiling, clock_ceiling, ceiling;
    std::string limit;   // the verdict: the thread's cause, or unknown where the published evidence cannot decide
    std::string finding; // the finding that leads
};

void sd(Evidence& e) { e.card = CardFamily::sd; }
void emmc(Evidence& e) { e.card = CardFamily::mmc; }

// Each case's expectations come from reading the entry's "diagnosis" and
// "thread_cause"; the DT facts come from the entry's fragment.
const std::vector<CorpusCase>& corpus_cases()
{
    static const std::vector<CorpusCase> cases{
        // Pi 4 default: DDR50 at full 50 MHz. The thread says the Pi 4 tops
        // out at DDR50 (the host), but published neither caps nor DT: unknown.
        {0, "Raspberry Pi 4 Model B (BCM2711, sdhci-iproc", sd, Mode::ddr50, 50, 50, 50, "unknown",
         "either the host or the card stops at DDR50"},
        // sdhci.debug_quirks2=4 is SDHCI_QUIRK2_NO_1_8_V, the quirk no-1-8-v sets.
        {1, "Raspberry Pi 4 Model B (BCM2711, mmc0 = SD slot), cmdline sdhci.debug_quirks2=4",
         [](Evidence& e) {
             e.card = CardFamily::sd;
             e.dt = DeviceTree{};
             e.dt->flags = {"no-1-8-v"};
         },
         Mode::hs, 25, 25, 25, "board", "the board has no 1.8 V I/O (no-1-8-v, signal voltage 3.30 V), so UHS modes are impossible"},
        // mmc1 is the SDIO Wi-Fi: no verdict on storage speed.
        {2, "Raspberry Pi 4 Model B, mmc1 (SDIO",
         [](Evidence& e) {
             e.host = "mmc1";
             e.sdio = true;
         },
         Mode::hs, 25, 41666667.0 * 4 / 8 / 1e6, std::nullopt, "not storage", "mmc1 is an SDIO function (such as Wi-Fi), not storage"},
        // SDR104 at 150 MHz: rk3328.dtsi's own max-frequency, a SoC limit.
        {3, "Firefly/Libre ROC-RK3328-CC", sd, Mode::sdr104, 104, 75, 75, "host",
         "max-frequency (150 MHz) caps the clock at 150 MHz; SDR104 runs up to 208 MHz: the SoC's own limit"},
        {4, "BeagleBoard-X15 (TI AM572x, sdhci-omap), kernel >= 5.16", sd, Mode::off, std::nullopt, std::nullopt, std::nullopt,
         "powered off", "card powered off (runtime PM)"},
        // Active: HS at its full 50 MHz; the source names no limiting side.
        {5, "BeagleBoard-X15 (TI AM572x), same slot", sd, Mode::hs, 25, 25, 25, "unknown", "either the host or the card stops at HS"},
        // max-frequency = 50 MHz, below the 100 MHz the controller ran: the board's.
        {6, "Phytium E2000Q", sd, Mode::sdr104, 104, 25, 25, "board",
         "max-frequency (50 MHz) caps the clock at 50 MHz; SDR104 runs up to 208 MHz: the board's device tree sets it below"},
        // DDR52: the board's DT names no HS200 for a controller that has it.
        {7, "Radxa ROCK S0", emmc, Mode::ddr52, 104, 49.152 * 8 * 2 / 8, 49.152 * 8 * 2 / 8, "board",
         "the device tree names no HS200 or HS400 mode (no mmc-hs200-*/mmc-hs400-* property)"},
        // HS400 removed from the board's DT on purpose: HS200.
        {8, "Firefly ROC-RK3399-PC", emmc, Mode::hs200, 200, 200, 200, "board",
         "the device tree names no HS400 mode (no mmc-hs400-* property)"},
        // HS400ES at 198 MHz: the bus is fine (the slowdown was CQE).
        {9, "Sipeed LicheePi 4A", emmc, Mode::hs400es, 400, 396, 396, "none", "the bus runs HS400ES at its full clock"},
        // The Odin 2's DT clamps SD high speed and declares no UHS mode.
        // Paraphrased dumps: no bus width line, so no clock ceiling.
        {15, "AYN Odin 2 (Qualcomm SM8550, sdhci-msm", sd, Mode::hs, 25, std::nullopt, 25, "board",
         "the device tree names no UHS mode (no sd-uhs-* property)"},
        // After the fix: SDR104 at 202 of 208 MHz is full speed.
        {16, "AYN Odin 2 (Qualcomm SM8550), same slot after", sd, Mode::sdr104, 104, std::nullopt, 104, "none",
         "the bus runs SDR104 at its full clock"},
    };
    return cases;
}

void expect_near(const std::optional<double>& got, const std::optional<double>& want, const char* what)
{
    ASSERT_EQ(got.has_value(), want.has_value()) << what;
    if (want) {
        EXPECT_NEAR(*got, *want, 0.01) << what;
    }
}

Evidence corpus_evidence(const CorpusCase& c)
{
    const json& e = entry(c.index);
    Evidence ev = evidence_of(e);
    if (auto dt = dt_of(e)) ev.dt = dt;
    c.add(ev);
    return ev;
}

TEST(DoctorCorpus, EachCaseAgreesWithItsDiagnosis)
{
    ASSERT_EQ(corpus_cases().size(), 12u);
    for (const auto& c : corpus_cases()) {
        const json& e = entry(c.index);
        SCOPED_TRACE(e.at("board").get<std::string>());
        ASSERT_EQ(e.at("board").get<std::string>().rfind(c.board, 0), 0u) << "corpus order changed";
        const Diagnosis d = diagnose(corpus_evidence(c));
        EXPECT_EQ(d.mode, c.mode);
        expect_near(d.mode_ceiling_mb_s, c.mode_ceiling, "mode ceiling");
        expect_near(d.clock_ceiling_mb_s, c.clock_ceiling, "clock ceiling");
        expect_near(d.ceiling_mb_s, c.ceiling, "ceiling");
        EXPECT_EQ(mmc::bus::to_string(d.limit), c.limit);
        EXPECT_TRUE(has_finding(d, c.finding));
        ASSERT_FALSE(d.findings.empty());
        // The key finding leads.
        EXPECT_NE(d.findings.front().text.find(c.finding), std::string::npos) << d.findings.front().text;
    }
}

// The doctor against the corpus's forum threads: where the thread states a cause, the verdict
// names it or says unknown - never the other side - and says what decided.
TEST(DoctorCorpus, VerdictNamesTheThreadsCauseNeverTheWrongSide)
{
    int named = 0;
    for (const auto& c : corpus_cases()) {
        const json& e = entry(c.index);
        SCOPED_TRACE(e.at("board").get<std::string>());
        ASSERT_TRUE(e.contains("thread_cause"));
        const std::string cause = e.at("thread_cause");
        const Diagnosis d = diagnose(corpus_evidence(c));
        if (d.limit == mmc::bus::Limit::unknown) {
            EXPECT_FALSE(d.would_decide.empty()) << "unknown must say what would decide";
        } else {
            EXPECT_EQ(mmc::bus::to_string(d.limit), cause) << "names the wrong side";
            if (d.limit != mmc::bus::Limit::not_storage && d.limit != mmc::bus::Limit::powered_off) {
                EXPECT_FALSE(d.decided_by.empty());
            }
            if (e.contains("dt_fragment")) ++named;
        }
    }
    // Every entry with its DT facts published gets the thread's cause.
    int with_dt = 0;
    for (const auto& c : corpus_cases()) with_dt += entry(c.index).contains("dt_fragment");
    EXPECT_EQ(named, with_dt);
    EXPECT_GE(with_dt, 6);
}

const CorpusCase& corpus_case(std::size_t index)
{
    for (const auto& c : corpus_cases())
        if (c.index == index) return c;
    throw std::runtime_error("no corpus case " + std::to_string(index));
}

TEST(DoctorCorpus, TheDetailsEachDiagnosisMentions)
{
    // Pi 4 SDIO: requested 50 MHz, the divider gives 41.67.
    Evidence pi_sdio = corpus_evidence(corpus_case(2));
    EXPECT_TRUE(has_finding(diagnose(pi_sdio), "clock 41.667 MHz actual for 50 MHz requested"));
    EXPECT_FALSE(diagnose(pi_sdio).card_best_mode);

    // X15: no actual clock line, so the requested clock counts.
    EXPECT_TRUE(has_finding(diagnose(corpus_evidence(corpus_case(5))), "the driver reports no actual clock"));

    // ROCK S0: 49.152 MHz actual of 52 is DDR52 at full speed, not a limit;
    // the controller has HS200 (the SoC table) and the board's DT names none.
    const Diagnosis s0 = diagnose(corpus_evidence(corpus_case(7)));
    EXPECT_TRUE(has_finding(s0, "clock 49.152 MHz for DDR52's 52 MHz: full speed within the divider's granularity, not a limit"));
    EXPECT_EQ(s0.host_best_mode, Mode::ddr52);
    EXPECT_EQ(mmc::bus::to_string(s0.mechanism), "mode");
    EXPECT_TRUE(suggests(s0, "mmc-hs200-1_8v"));
    EXPECT_TRUE(suggests(s0, "only if the eMMC's I/O is powered at 1.8 V"));
    ASSERT_EQ(s0.decided_by.size(), 2u);
    EXPECT_NE(s0.decided_by[0].find("RK3308"), std::string::npos) << s0.decided_by[0];

    // Phytium: the board's DT caps the clock; the overlay names its value.
    const Diagnosis phytium = diagnose(corpus_evidence(corpus_case(6)));
    EXPECT_EQ(mmc::bus::to_string(phytium.mechanism), "clock");
    EXPECT_TRUE(suggests(phytium, "&{/mmc@28001000} { max-frequency = <100000000>; }"));
    EXPECT_TRUE(suggests(phytium, "watch the kernel log for CRC errors"));
    EXPECT_EQ(phytium.host_best_mode, Mode::sdr104); // proven by the running mode, not named in the DT

    // RK3328: the SoC's own 150 MHz; the advice is not a DT overlay.
    const Diagnosis rk = diagnose(corpus_evidence(corpus_case(3)));
    EXPECT_EQ(mmc::bus::to_string(rk.mechanism), "clock");
    EXPECT_TRUE(suggests(rk, "the SoC limits this controller"));
    EXPECT_FALSE(suggests(rk, "overlay"));
    ASSERT_FALSE(rk.decided_by.empty());
    EXPECT_NE(rk.decided_by.back().find("rk3328.dtsi"), std::string::npos);

    // Pi 4 with the quirk: the way back to UHS.
    const Diagnosis quirk = diagnose(corpus_evidence(corpus_case(1)));
    EXPECT_TRUE(suggests(quirk, "no-1-8-v"));
    EXPECT_EQ(quirk.host_best_mode, Mode::hs);
    EXPECT_EQ(mmc::bus::to_string(quirk.mechanism), "signal voltage");

    // Odin 2: both the clamp and the missing UHS modes are the board's.
    const Diagnosis odin = diagnose(corpus_evidence(corpus_case(15)));
    EXPECT_TRUE(has_finding(odin, "max-sd-hs-hz (37.5 MHz) caps the clock at 37.5 MHz"));
    EXPECT_TRUE(suggests(odin, "&sdhc_2"));
}

TEST(DoctorCorpus, HostCapsNameTheHostOnlyWhereTheBoardIsRuledOut)
{
    // Not in the corpus: the Pi 4 dump with caps that offer DDR50 but no
    // SDR104 (a made-up value to show what caps add).
    Evidence e = evidence_of(entry(0));
    e.card = CardFamily::sd;
    e.caps = 0x00170007; // 4_BIT_DATA, MMC/SD_HIGHSPEED, UHS_SDR12, SDR25, SDR50, DDR50
    e.kernel_version = "5.10";
    // caps alone: the controller's abilities and the DT's properties together.
    Diagnosis d = diagnose(e);
    EXPECT_EQ(d.host_best_mode, Mode::ddr50);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_NE(d.would_decide.find("device-tree node"), std::string::npos) << d.would_decide;
    EXPECT_TRUE(has_finding(d, "the host offers UHS only up to DDR50 (caps has no UHS_SDR104)"));
    // A host with no device tree (PCI): the caps are the controller's.
    e.dt_absent = true;
    d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "host");
    EXPECT_EQ(mmc::bus::to_string(d.mechanism), "mode");
    // A DT that asks for SDR104 the caps lack: the driver dropped it.
    e.dt_absent = false;
    e.dt = DeviceTree{};
    e.dt->flags = {"sd-uhs-sdr104"};
    d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "host");
    ASSERT_FALSE(d.decided_by.empty());
    EXPECT_NE(d.decided_by.front().find("the driver dropped it"), std::string::npos);
    // A DT without it, for a controller the SoC table does not know: unknown.
    e.dt->flags = {};
    e.dt->compatible = {"vendor,unknown-sdhci"};
    d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_NE(d.would_decide.find("vendor,unknown-sdhci"), std::string::npos) << d.would_decide;
    // The Pi 4's EMMC2, which the table knows stops at DDR50: the host.
    e.dt->compatible = {"brcm,bcm2711-emmc2"};
    d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "host");
}

// ---- Doctor: traps --------------------------------------------------------

TEST(DoctorTraps, SdioHostsAreNotStorage)
{
    // Named by the debugfs directory alone.
    const Diagnosis named = diagnose(evidence_of(entry(11)));
    EXPECT_TRUE(named.sdio);
    EXPECT_FALSE(named.card); // an SDIO function has no storage family
    EXPECT_EQ(mmc::bus::to_string(named.limit), "not storage");
    EXPECT_FALSE(named.ceiling_mb_s);
    EXPECT_TRUE(has_finding(named, "the host whose debugfs directory is named sdio is an SDIO function"));

    // SpacemiT K1 Wi-Fi: SDR104, 187.5 of 204.8 MHz.
    Evidence k1 = evidence_of(entry(14));
    k1.sdio = true;
    const Diagnosis d = diagnose(k1);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "not storage");
    EXPECT_EQ(d.mode, Mode::sdr104);
    EXPECT_FALSE(d.ceiling_mb_s);
    EXPECT_TRUE(suggests(d, "cable or riser"));

    // The kernel's announcement says SDIO too.
    Evidence msg = evidence_of(entry(2));
    msg.kernel_message = "mmc1: new high speed SDIO card at address 0001";
    EXPECT_EQ(mmc::bus::to_string(diagnose(msg).limit), "not storage");
}

TEST(DoctorTraps, PoweredOffCardGetsNoVerdict)
{
    Evidence e = evidence_of(entry(4));
    e.host = "mmc0";
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.mode, Mode::off);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "powered off");
    EXPECT_FALSE(d.mode_ceiling_mb_s);
    EXPECT_FALSE(d.clock_ceiling_mb_s);
    EXPECT_FALSE(d.ceiling_mb_s);
    ASSERT_EQ(d.findings.size(), 1u);
    EXPECT_TRUE(suggests(d, "/sys/kernel/debug/mmc0/ios while reading the card, e.g. during dd"));
}

TEST(DoctorTraps, AbsurdActualClockIsIgnored)
{
    // RZ/G3L: "actual clock: 8 Hz" for a 150 MHz HS400ES bus.
    const Diagnosis d = diagnose(evidence_of(entry(10)));
    EXPECT_EQ(d.card, CardFamily::mmc); // from the timing
    EXPECT_EQ(d.mode, Mode::hs400es);
    EXPECT_EQ(d.mode_ceiling_mb_s, 400);
    EXPECT_EQ(d.clock_ceiling_mb_s, 300); // 150 MHz x 8 bits x 2
    EXPECT_EQ(d.ceiling_mb_s, 300);
    // 150 MHz requested, no device tree given: the controller's f_max or a
    // max-frequency, unknown until the DT tells.
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_EQ(mmc::bus::to_string(d.mechanism), "clock");
    EXPECT_NE(d.would_decide.find("max-frequency"), std::string::npos);
    EXPECT_TRUE(has_finding(d, "actual clock 8 Hz is impossible for a 150 MHz request"));
    EXPECT_TRUE(has_finding(d, "clock 150 MHz, below HS400ES's 200 MHz"));
}

TEST(DoctorTraps, TruncatedTabExpandedAndPrefixedDumpsDiagnoseAlike)
{
    Evidence plain = evidence_of(entry(1));
    std::string text = ios_text(1);
    text.erase(0, 1); // "lock:"
    Evidence truncated = plain;
    truncated.ios = parse_one(text);
    Evidence spaces = plain;
    spaces.ios = parse_one(expand_tabs(ios_text(1)));
    Evidence grep = plain;
    grep.ios = parse_one(prefix_lines(ios_text(1), "/sys/kernel/debug/mmc0/ios:"));
    const Diagnosis want = diagnose(plain);
    EXPECT_EQ(want.clock_ceiling_mb_s, 25);
    for (const Evidence* e : {&truncated, &spaces, &grep}) {
        const Diagnosis d = diagnose(*e);
        EXPECT_EQ(d.mode, want.mode);
        EXPECT_EQ(d.clock_ceiling_mb_s, want.clock_ceiling_mb_s);
        EXPECT_EQ(d.limit, want.limit);
    }
    EXPECT_EQ(diagnose(grep).host, "mmc0");
}

TEST(DoctorTraps, SeveralHostsDiagnosedOneByOne)
{
    const auto all = parse_ios(ios_text(0) + ios_text(3));
    ASSERT_EQ(all.size(), 2u);
    Evidence a, b;
    a.ios = all[0];
    b.ios = all[1];
    EXPECT_EQ(diagnose(a).mode, Mode::ddr50);
    EXPECT_EQ(diagnose(a).card, CardFamily::sd); // from the timing
    EXPECT_EQ(diagnose(b).mode, Mode::sdr104);
    EXPECT_EQ(diagnose(b).ceiling_mb_s, 75);
}

TEST(DoctorTraps, MissingActualClockUsesTheRequest)
{
    Evidence e = evidence_of(entry(6)); // Phytium: no actual clock line
    EXPECT_FALSE(e.ios.actual_clock_hz);
    EXPECT_EQ(diagnose(e).clock_ceiling_mb_s, 25);
}

TEST(DoctorTraps, OldKernelCapsLayout)
{
    // SDR50 running, card listing SDR104; caps bits 15-18 set. On 4.4 that is
    // UHS_SDR12..SDR104 (the host offers SDR104, so the bus fell back); read
    // with the 4.11+ layout it is BUS_WIDTH_TEST, SDR12..SDR50 (host limits).
    Evidence e;
    e.ios = parse_one("clock:\t\t100000000 Hz\nactual clock:\t100000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\n"
                      "timing spec:\t5 (sd uhs SDR50)\nsignal voltage:\t1 (1.80 V)\n");
    e.card = CardFamily::sd;
    e.caps = 0x00078005;
    e.s18a = true;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25, Mode::sdr50, Mode::sdr104};

    e.kernel_version = "4.4.0";
    const Diagnosis old_kernel = diagnose(e);
    EXPECT_EQ(old_kernel.host_best_mode, Mode::sdr104);
    EXPECT_EQ(old_kernel.card_best_mode, Mode::sdr104);
    EXPECT_EQ(mmc::bus::to_string(old_kernel.limit), "unknown");
    EXPECT_TRUE(has_finding(old_kernel, "the host offers SDR104 and the card SDR104, but the bus runs SDR50"));

    e.kernel_version = "5.10";
    e.dt_absent = true; // a PCI host: the caps are the controller's
    const Diagnosis new_kernel = diagnose(e);
    EXPECT_EQ(new_kernel.host_best_mode, Mode::sdr50);
    EXPECT_EQ(mmc::bus::to_string(new_kernel.limit), "host");
    EXPECT_TRUE(has_finding(new_kernel, "the host offers UHS only up to SDR50 (caps has no UHS_SDR104)"));
}

TEST(DoctorTraps, Caps2OfKernelsBeforeHs400AreNotTrusted)
{
    // A 3.10 vendor kernel: caps2 bit 15 was SANITIZE then, not HS400_1_8V.
    Evidence e;
    e.ios = parse_one("clock:\t\t200000000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t9 (mmc HS200)\n");
    e.card = CardFamily::mmc;
    e.caps = 0x00000143;
    e.caps2 = 0x00008020;
    e.kernel_version = "3.10.49";
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.host_best_mode, Mode::hs200);
    EXPECT_TRUE(has_finding(d, "predates mainline HS400"));
    e.kernel_version = "5.15";
    EXPECT_EQ(diagnose(e).host_best_mode, Mode::hs400);
}

TEST(DoctorTraps, Am62xWorkedExample)
{
    const Diagnosis d = diagnose(evidence_of(entry(12)));
    EXPECT_EQ(d.card, CardFamily::mmc);
    EXPECT_EQ(d.mode, Mode::ddr52);
    EXPECT_EQ(d.host_best_mode, Mode::ddr52); // matches the timing
    EXPECT_EQ(d.mode_ceiling_mb_s, 104);
    EXPECT_FALSE(d.clock_ceiling_mb_s); // the fact gives no clock line
    // caps lack HS200; whether the controller or the board's DT left it out,
    // only the DT (not published) would tell.
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_NE(d.would_decide.find("mmc-hs200-1_8v"), std::string::npos) << d.would_decide;
    EXPECT_TRUE(has_finding(d, "the host offers no HS200 or HS400 (caps2 has no HS200_*/HS400_* bits)"));
    EXPECT_EQ(d.caps_names, (std::vector<std::string>{"4_BIT_DATA", "MMC_HIGHSPEED", "SDIO_IRQ", "8_BIT_DATA", "NONREMOVABLE",
                                                      "1_8V_DDR", "CMD23", "SDIO_IRQ_NOTHREAD", "NO_WRITE_PROTECT", "CQE"}));
}

TEST(DoctorTraps, EmmcDdrAt3v3)
{
    // i.MX uSDHC with MMC_CAP_3_3V_DDR: DDR52 at 3.30 V, full clock.
    const Diagnosis d = diagnose(evidence_of(entry(13)));
    EXPECT_EQ(d.mode, Mode::ddr52);
    EXPECT_EQ(d.mode_ceiling_mb_s, 104);
    EXPECT_EQ(d.clock_ceiling_mb_s, 104);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
}

TEST(DoctorTraps, UnnamedTimingAndGatedClock)
{
    Evidence invalid;
    invalid.ios = parse_one("clock:\t\t100000000 Hz\npower mode:\t2 (on)\ntiming spec:\t11 (invalid)\n");
    const Diagnosis d = diagnose(invalid);
    EXPECT_EQ(d.mode, std::nullopt);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_FALSE(d.ceiling_mb_s);
    EXPECT_TRUE(has_finding(d, "timing \"invalid\" (11)"));

    Evidence gated;
    gated.ios = parse_one("clock:\t\t0 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\n");
    const Diagnosis g = diagnose(gated);
    EXPECT_EQ(g.mode, Mode::hs);
    EXPECT_FALSE(g.clock_ceiling_mb_s);
    EXPECT_EQ(g.ceiling_mb_s, 25);
    EXPECT_TRUE(has_finding(g, "clock is gated"));
}

// ---- Doctor: the lab ------------------------------------------------------

TEST(DoctorLab, SdCard)
{
    // The emulated SD card as the lab captured it (kernel 6.1).
    const std::string dir = "tests/data/sysfs/sd-qemu/sys/kernel/debug/mmc0/";
    Evidence e;
    e.host = "mmc0";
    e.ios = parse_one(read_file(dir + "ios"));
    ASSERT_EQ(e.ios.clock_hz, 50000000u);
    ASSERT_EQ(e.ios.actual_clock_hz, 26000000u);
    ASSERT_EQ(e.ios.timing, "sd high-speed");
    e.caps = hex32(read_file(dir + "caps"));
    e.caps2 = hex32(read_file(dir + "caps2"));
    ASSERT_EQ(e.caps, 0x4000000fu);
    ASSERT_EQ(e.caps2, 0x00024000u);
    e.kernel_version = "6.1.0";
    e.card = CardFamily::sd;
    e.s18a = false;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25};
    e.dt_absent = true; // sdhci-pci: no device-tree node

    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.mode, Mode::hs);
    EXPECT_EQ(d.mode_ceiling_mb_s, 25);
    EXPECT_EQ(d.clock_ceiling_mb_s, 13);
    EXPECT_EQ(d.ceiling_mb_s, 13);
    EXPECT_EQ(d.host_best_mode, Mode::hs);
    EXPECT_EQ(d.card_best_mode, Mode::hs);
    // Neither a UHS card nor a UHS host alone would help; the clock would,
    // and the clock is the controller's: its divider cannot make 50 MHz.
    EXPECT_EQ(mmc::bus::to_string(d.limit), "host");
    EXPECT_EQ(mmc::bus::to_string(d.mechanism), "clock");
    EXPECT_TRUE(has_finding(d, "clock 26 MHz actual for 50 MHz requested, below HS's 50 MHz: the controller's divider"));
    ASSERT_FALSE(d.decided_by.empty());
    EXPECT_EQ(d.decided_by.front(), "ios: actual clock 26 MHz for 50 MHz requested");
    EXPECT_TRUE(has_finding(d, "the host offers no UHS mode (caps has no UHS_* bits)"));
    EXPECT_TRUE(has_finding(d, "the card reports no UHS support (OCR S18A=0, CMD6 lists only SDR12, SDR25)"));
    for (const auto& f : d.findings)
        if (f.text.find("UHS") != std::string::npos) {
            EXPECT_EQ(f.severity, Severity::limit) << f.text;
        }
    EXPECT_TRUE(suggests(d, "UHS-I card"));
    EXPECT_TRUE(suggests(d, "another host controller or reader may clock closer"));
}

TEST(DoctorLab, EmmcCard)
{
    Evidence e;
    e.host = "mmc1";
    e.ios = parse_one("clock:\t\t52000000 Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\nchip select:\t0 (don't care)\n"
                      "power mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t1 (mmc high-speed)\n"
                      "signal voltage:\t0 (3.30 V)\ndriver type:\t0 (driver type B)\n");
    e.caps = 0x4000010f;
    e.caps2 = 0x00020000;
    e.kernel_version = "6.1.0";
    e.card = CardFamily::mmc;
    e.device_type = 0x03;

    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.mode, Mode::mmc_hs);
    EXPECT_EQ(d.mode_ceiling_mb_s, 52);
    EXPECT_EQ(d.clock_ceiling_mb_s, 26); // 52 MHz x 4 bits
    EXPECT_EQ(d.ceiling_mb_s, 26);
    EXPECT_EQ(d.card_best_mode, Mode::mmc_hs);
    EXPECT_EQ(d.host_best_mode, Mode::mmc_hs);
    // An 8-bit bus alone would double the ceiling; a better card alone would
    // not. Without the DT, host and board cannot be told apart.
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_EQ(mmc::bus::to_string(d.mechanism), "bus width");
    EXPECT_NE(d.would_decide.find("bus-width"), std::string::npos);
    EXPECT_TRUE(has_finding(d, "the host has no 8-bit bus: caps has no 8_BIT_DATA"));
    EXPECT_TRUE(has_finding(d, "the card is limited to HS52 by its DEVICE_TYPE 0x03"));
    EXPECT_TRUE(has_finding(d, "the host offers no DDR52, HS200 or HS400"));
    // The board's DT wires 4 bits: the board.
    e.dt = DeviceTree{};
    e.dt->bus_width = 4;
    EXPECT_EQ(mmc::bus::to_string(diagnose(e).limit), "board");
    // A DT without a narrower bus-width: the controller offers no 8 bits.
    e.dt->bus_width.reset();
    EXPECT_EQ(mmc::bus::to_string(diagnose(e).limit), "host");
}

// ---- Doctor: who limits -------------------------------------------------

Evidence sd_hs_at_3v3()
{
    Evidence e;
    e.ios = parse_one("clock:\t\t50000000 Hz\nactual clock:\t50000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\n"
                      "timing spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\n");
    e.card = CardFamily::sd;
    e.caps = 0x000f0007; // 4_BIT_DATA, MMC/SD_HIGHSPEED, UHS_SDR12..SDR104
    return e;
}

TEST(DoctorLimit, CardWithoutUhs)
{
    Evidence e = sd_hs_at_3v3();
    e.s18a = false;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25};
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "card");
    EXPECT_EQ(d.host_best_mode, Mode::sdr104);
    EXPECT_TRUE(has_finding(d, "the card reports no UHS support"));
    EXPECT_FALSE(has_finding(d, "which this host does not")); // this host does ask for 1.8 V
    EXPECT_TRUE(suggests(d, "a UHS-I card (marked U1/U3"));
}

TEST(DoctorLimit, VoltageSwitchThatDidNotHappen)
{
    Evidence e = sd_hs_at_3v3();
    e.s18a = true;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25, Mode::sdr50, Mode::sdr104, Mode::ddr50};
    // Without the log or the regulator the cause is not known.
    Diagnosis d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_TRUE(has_finding(d, "at 3.30 V: the switch to 1.8 V signalling did not happen"));
    EXPECT_NE(d.would_decide.find("the kernel log"), std::string::npos);
    EXPECT_TRUE(suggests(d, "vqmmc-supply"));

    // The log shows the switch failing and the DT's regulator is fixed at 3.3 V: the board.
    e.log = parse_kernel_log("[    2.1] mmc0: Switching to 1.8V signalling voltage failed, retrying with S18R set to 0\n", {"mmc0"});
    e.dt = DeviceTree{};
    e.dt->has_vqmmc_supply = true;
    e.dt->vqmmc = Regulator{"vcc3v3_sd", "vcc3v3_sd", 3'300'000, 3'300'000};
    d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "board");
    EXPECT_EQ(mmc::bus::to_string(d.mechanism), "signal voltage");
    EXPECT_TRUE(has_finding(d, "vqmmc-supply vcc3v3_sd (\"vcc3v3_sd\") is fixed at 3.3 V"));

    // A switchable regulator and a tuning failure in the log: tuning.
    e.dt->vqmmc = Regulator{"vcc_sdio", "", 1'800'000, 3'300'000};
    e.log = parse_kernel_log("[    2.5] mmc0: tuning execution failed: -5\n[    2.6] mmc0: new high speed SDXC card at address aaaa\n",
                             {"mmc0"});
    d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "tuning");
    ASSERT_FALSE(d.decided_by.empty());
    EXPECT_EQ(d.decided_by.front(), "kernel log line 1: mmc0: tuning execution failed: -5");
    EXPECT_TRUE(suggests(d, "try another card"));

    // The card refusing a function: the card.
    e.log = parse_kernel_log("mmc0: problem reading switch capabilities, performance might suffer\n", {"mmc0"});
    EXPECT_EQ(mmc::bus::to_string(diagnose(e).limit), "card");

    // A log with nothing about this host: still unknown, and says so.
    e.log = parse_kernel_log("mmc1: tuning execution failed: -5\n", {"mmc0"});
    d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_NE(d.would_decide.find("names no tuning"), std::string::npos) << d.would_decide;
}

// Kernel wording from drivers/mmc/core/sd.c (mmc_sd_switch_hs), as public
// boot logs print it: the card listed high speed and then did not switch,
// so the bus stays at default speed and the card is the cause.
TEST(DoctorLimit, CardThatRefusesHighSpeed)
{
    Evidence e;
    e.ios = parse_one("clock:\t\t25000000 Hz\nbus width:\t2 (4 bits)\ntiming spec:\t0 (legacy)\n"
                      "signal voltage:\t0 (3.30 V)\n");
    e.host = "mmc0";
    e.card = CardFamily::sd;
    e.caps = 0x00000007; // 4_BIT_DATA MMC_HIGHSPEED SD_HIGHSPEED
    e.kernel_version = "6.1";
    const std::string log = "[    4.852512] mmc0: Problem switching card into high-speed mode!\n"
                            "[    4.858909] mmc0: new SDHC card at address 0001\n";
    // Without the log: unknown.
    EXPECT_EQ(mmc::bus::to_string(diagnose(e).limit), "unknown");
    e.log = parse_kernel_log(log, {"mmc0"});
    ASSERT_EQ(e.log->events.size(), 1u);
    EXPECT_EQ(e.log->events.front().kind, LogEventKind::card_unsupported);
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "card");
    EXPECT_EQ(mmc::bus::to_string(d.mechanism), "mode");
    ASSERT_FALSE(d.decided_by.empty());
    EXPECT_EQ(d.decided_by.front(), "kernel log line 1: mmc0: Problem switching card into high-speed mode!");
    EXPECT_TRUE(suggests(d, "a different card"));
}

TEST(DoctorLimit, UhsHintWithoutCmd6)
{
    Evidence e = sd_hs_at_3v3();
    e.caps = 0x00000007; // no UHS
    e.uhs_speed_grade = 1;
    e.dt_absent = true;
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "host");
    EXPECT_EQ(d.card_best_mode, std::nullopt);
    EXPECT_TRUE(has_finding(d, "the card is UHS-I (SSR UHS speed grade U1)"));
    EXPECT_TRUE(suggests(d, "UHS-I capable host or reader"));
}

TEST(DoctorLimit, HostWithoutHs200)
{
    Evidence e;
    e.ios = parse_one("clock:\t\t52000000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t8 (mmc DDR52)\n"
                      "signal voltage:\t1 (1.80 V)\n");
    e.card = CardFamily::mmc;
    e.caps = 0x40001143; // 8-bit, MMC_HIGHSPEED, 1_8V_DDR
    e.device_type = 0x57;
    e.strobe_support = true;
    e.dt_absent = true;
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.card_best_mode, Mode::hs400es);
    EXPECT_EQ(d.host_best_mode, Mode::ddr52);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "host");
    EXPECT_TRUE(has_finding(d, "the card supports HS400ES (DEVICE_TYPE 0x57, STROBE_SUPPORT 1)"));
}

TEST(DoctorLimit, BusWidthFromTheDeviceTree)
{
    Evidence e;
    e.ios = parse_one("clock:\t\t200000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t9 (mmc HS200)\n");
    e.card = CardFamily::mmc;
    e.dt = DeviceTree{};
    e.dt->bus_width = 4;
    e.dt->flags = {"mmc-hs200-1_8v"};
    e.device_type = 0x17; // up to HS200
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.clock_ceiling_mb_s, 100);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "board");
    EXPECT_TRUE(has_finding(d, "device tree bus-width = <4>"));
    EXPECT_TRUE(suggests(d, "bus-width = <8>"));
}

TEST(DoctorLimit, NothingOnTheBusLimits)
{
    Evidence e;
    e.ios = parse_one(ios_text(9));
    e.card = CardFamily::mmc;
    e.caps = 0x40000147;   // 8-bit, MMC_HIGHSPEED, ...
    e.caps2 = 0x00108020;  // HS200_1_8V_SDR, HS400_1_8V, HS400_ES
    e.device_type = 0x57;
    e.strobe_support = true;
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.card_best_mode, Mode::hs400es);
    EXPECT_EQ(d.host_best_mode, Mode::hs400es);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "none");
    for (const auto& f : d.findings) EXPECT_NE(f.severity, Severity::limit) << f.text;
}

TEST(DoctorLimit, SameModeOnBothSidesNamesTheCard)
{
    // Host and card both stop at HS, clock at full speed: neither alone helps.
    Evidence e = sd_hs_at_3v3();
    e.caps = 0x00000007;
    e.s18a = false;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25};
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "card");
    EXPECT_TRUE(has_finding(d, "the host offers no UHS mode"));
    EXPECT_NE(d.findings.front().text.find("the card reports no UHS support"), std::string::npos);
}

TEST(DoctorLimit, Hs26CardHoldsTheClock)
{
    // An eMMC with DEVICE_TYPE 0x01 runs high-speed timing at 26 MHz.
    Evidence e;
    e.ios = parse_one("clock:\t\t26000000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\ntiming spec:\t1 (mmc high-speed)\n");
    e.card = CardFamily::mmc;
    e.caps = 0x40000147; // 8-bit, MMC_HIGHSPEED
    e.device_type = 0x01;
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.mode, Mode::mmc_hs);
    EXPECT_EQ(d.clock_ceiling_mb_s, 26);
    EXPECT_EQ(d.card_best_mode, Mode::hs26);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "card");
    EXPECT_TRUE(has_finding(d, "the card does high-speed timing only at 26 MHz (DEVICE_TYPE 0x01)"));
    EXPECT_TRUE(has_finding(d, "the card is limited to HS26 by its DEVICE_TYPE 0x01"));
}

TEST(DoctorLimit, DeviceTreeSuggestionsStartAboveTheRunningMode)
{
    const Diagnosis d = diagnose(corpus_evidence(corpus_case(8)));
    EXPECT_TRUE(suggests(d, "a device-tree overlay adding mmc-hs400-1_8v (on an 8-bit bus) to &sdhci"));
    EXPECT_FALSE(suggests(d, "mmc-hs200-1_8v"));
}

TEST(DoctorLimit, UhsCardStoppingAtSdr25InAHsHost)
{
    // Host HS only; the card's UHS tops out at SDR25 (the same 25 MB/s). The
    // tie is the host's: the card offers a mode the host does not.
    Evidence e = sd_hs_at_3v3();
    e.caps = 0x00000007;
    e.s18a = true;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25};
    e.uhs_speed_grade = 1;
    e.dt_absent = true;
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "host");
}

TEST(DoctorLimit, UnknownCardTypeIsNoVerdict)
{
    Evidence e;
    e.ios = parse_one("clock:\t\t25000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t0 (legacy)\n");
    const Diagnosis d = diagnose(e);
    EXPECT_EQ(d.mode, Mode::legacy);
    EXPECT_EQ(d.mode_ceiling_mb_s, 12.5);
    EXPECT_EQ(mmc::bus::to_string(d.limit), "unknown");
    EXPECT_TRUE(has_finding(d, "the card type is unknown"));
}

TEST(DoctorLimit, DeviceTreeHasMethod)
{
    DeviceTree dt;
    dt.flags = {"no-1-8-v", "sd-uhs-sdr104"};
    EXPECT_TRUE(dt.has("no-1-8-v"));
    EXPECT_FALSE(dt.has("sd-uhs-sdr50"));
}

} // namespace
