// Pasted text as people paste it: web archives and some forums show a paste
// with its line breaks lost, the lines joined by single blanks. Every pasted
// reader - the ios dump, device-tree source, flashbench ladders (and the
// kernel log, in bus_kernel_log_test.cpp) - reads each fixture so joined the
// same as the original, or says it cannot.
#include "bus/device_tree.h"
#include "bus/ios.h"
#include "probe/flashbench_text.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

using namespace mmc::bus;
using nlohmann::json;

std::string file_text(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path + " (run the tests from the repository root)");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The lines joined by single blanks, as an archive shows them.
std::string joined(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
        out += text[i] == '\n' ? ' ' : text[i];
    }
    return out;
}

// ---- ios -------------------------------------------------------------------

void expect_same(const Ios& a, const Ios& b, const std::string& what)
{
    EXPECT_EQ(a.host, b.host) << what;
    EXPECT_EQ(a.clock_hz, b.clock_hz) << what;
    EXPECT_EQ(a.actual_clock_hz, b.actual_clock_hz) << what;
    EXPECT_EQ(a.vdd, b.vdd) << what;
    EXPECT_EQ(a.vdd_text, b.vdd_text) << what;
    EXPECT_EQ(a.power_mode, b.power_mode) << what;
    EXPECT_EQ(a.power_text, b.power_text) << what;
    EXPECT_EQ(a.bus_width_bits, b.bus_width_bits) << what;
    EXPECT_EQ(a.timing_code, b.timing_code) << what;
    EXPECT_EQ(a.timing, b.timing) << what;
    EXPECT_EQ(a.signal_voltage_v, b.signal_voltage_v) << what;
    EXPECT_EQ(a.driver_type, b.driver_type) << what;
    EXPECT_EQ(a.errors.size(), b.errors.size()) << what;
}

std::vector<std::pair<std::string, std::string>> ios_fixtures()
{
    std::vector<std::pair<std::string, std::string>> out;
    std::ifstream in("tests/data/ios.json");
    for (const auto& e : json::parse(in)) out.emplace_back(e.at("board").get<std::string>().substr(0, 50), e.at("ios").get<std::string>());
    std::ifstream l("tests/data/bus/labelled.json");
    const json labelled = json::parse(l);
    for (const auto& c : labelled.at("cases")) out.emplace_back(c.at("id").get<std::string>(), c.at("posted").at("ios").get<std::string>());
    return out;
}

TEST(JoinedPaste, EveryIosFixtureReadsTheSame)
{
    std::size_t snapshots = 0;
    for (const auto& [name, text] : ios_fixtures()) {
        const auto a = parse_ios(text);
        const auto b = parse_ios(joined(text));
        ASSERT_EQ(a.size(), b.size()) << name;
        for (std::size_t i = 0; i < a.size(); ++i) expect_same(a[i], b[i], name + " #" + std::to_string(i));
        snapshots += a.size();
    }
    EXPECT_GE(snapshots, ios_fixtures().size());
}

TEST(JoinedPaste, IosKeysInsideOtherKeysOrValuesStartNoLine)
{
    const auto one = parse_ios("clock: 52000000 Hz actual clock: 50000000 Hz timing spec: 1 (mmc high-speed) driver type: 0 (driver type B)");
    ASSERT_EQ(one.size(), 1u); // "clock:" inside "actual clock:" is no second snapshot
    EXPECT_EQ(one[0].clock_hz, 52000000u);
    EXPECT_EQ(one[0].actual_clock_hz, 50000000u);
    EXPECT_EQ(one[0].timing, "mmc high-speed");
    EXPECT_EQ(one[0].driver_type, "driver type B");
    // Mail quote marks before each key.
    const auto quoted = parse_ios("> > clock: 52000000 Hz > > vdd: 21 (3.3 ~ 3.4 V) > > timing spec: 1 (mmc high-speed)");
    ASSERT_EQ(quoted.size(), 1u);
    EXPECT_EQ(quoted[0].clock_hz, 52000000u);
    EXPECT_EQ(quoted[0].vdd, 21);
    EXPECT_EQ(quoted[0].timing, "mmc high-speed");
    EXPECT_TRUE(quoted[0].errors.empty());
    // grep's prefixes, two hosts, all on one line.
    const auto two = parse_ios("/sys/kernel/debug/mmc0/ios:clock: 50000000 Hz /sys/kernel/debug/mmc0/ios:timing spec: 2 (sd high-speed) "
                               "/sys/kernel/debug/mmc1/ios:clock: 200000000 Hz /sys/kernel/debug/mmc1/ios:timing spec: 9 (mmc HS200)");
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].host, "mmc0");
    EXPECT_EQ(two[1].host, "mmc1");
    EXPECT_EQ(two[1].timing, "mmc HS200");
}

TEST(JoinedPaste, HostileIosLinesStayLinear)
{
    std::string keys;
    for (int i = 0; i < 100000; ++i) keys += "vdd: 21 (3.3 ~ 3.4 V) ";
    EXPECT_EQ(parse_ios(keys).size(), 1u);
    // "clock:" after "actual" starts no line, however many blanks between.
    std::string actual;
    for (int i = 0; i < 100000; ++i) actual += "actual          clock: ";
    EXPECT_TRUE(parse_ios(actual).empty());
    EXPECT_TRUE(parse_ios(std::string(3'000'000, ' ') + "x").empty());
}

// ---- device-tree source ------------------------------------------------------

void expect_same(const DtsParse& a, const DtsParse& b, const std::string& what)
{
    ASSERT_EQ(a.host.has_value(), b.host.has_value()) << what << ": " << a.error << " / " << b.error;
    EXPECT_EQ(a.candidates, b.candidates) << what;
    if (!a.host) return;
    const auto& x = *a.host;
    const auto& y = *b.host;
    EXPECT_EQ(x.node, y.node) << what;
    EXPECT_EQ(x.label, y.label) << what;
    EXPECT_EQ(x.path, y.path) << what;
    EXPECT_EQ(x.compatible, y.compatible) << what;
    EXPECT_EQ(x.max_frequency, y.max_frequency) << what;
    EXPECT_EQ(x.max_sd_hs_hz, y.max_sd_hs_hz) << what;
    EXPECT_EQ(x.overclock_50_mhz, y.overclock_50_mhz) << what;
    EXPECT_EQ(x.bus_width, y.bus_width) << what;
    EXPECT_EQ(x.flags, y.flags) << what;
    EXPECT_EQ(x.has_vqmmc_supply, y.has_vqmmc_supply) << what;
    EXPECT_EQ(x.vqmmc.has_value(), y.vqmmc.has_value()) << what;
    if (x.vqmmc && y.vqmmc) {
        EXPECT_EQ(x.vqmmc->min_microvolt, y.vqmmc->min_microvolt) << what;
        EXPECT_EQ(x.vqmmc->max_microvolt, y.vqmmc->max_microvolt) << what;
    }
    EXPECT_EQ(x.status, y.status) << what;
    EXPECT_EQ(x.notes, y.notes) << what;
}

TEST(JoinedPaste, EveryDeviceTreeFixtureReadsTheSame)
{
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator("tests/data/dt")) {
        const auto& p = entry.path();
        if (p.extension() != ".dts") continue;
        const std::string text = file_text(p.string());
        const auto a = parse_dts(text);
        EXPECT_TRUE(a.host || !a.candidates.empty()) << p << ": " << a.error;
        expect_same(a, parse_dts(joined(text)), p.filename().string());
        for (const auto& node : a.candidates) expect_same(parse_dts(text, node), parse_dts(joined(text), node), p.filename().string() + " " + node);
        ++files;
    }
    EXPECT_GE(files, 10);
}

TEST(JoinedPaste, ACommentBeforeANodeEndsWhereTheNodeBegins)
{
    const std::string dts = "// The board's SD slot; see https://example.org/a//b = not a property\n"
                            "#include <dt-bindings/gpio/gpio.h>\n"
                            "&sdmmc { // UHS-I: needs the 1.8 V regulator\n"
                            "  bus-width = <4>; // four lines\n"
                            "  max-frequency = <150000000>;\n"
                            "  sd-uhs-sdr104;\n"
                            "  vqmmc-supply = <&vccio_sd>;\n"
                            "};\n";
    const auto a = parse_dts(dts), b = parse_dts(joined(dts));
    expect_same(a, b, "commented overlay");
    ASSERT_TRUE(b.host) << b.error;
    EXPECT_EQ(b.host->max_frequency, 150000000u);
    EXPECT_TRUE(b.host->has("sd-uhs-sdr104"));
}

TEST(JoinedPaste, WhatCannotBeToldIsSaid)
{
    // A #define's value has no end without its line break.
    const auto d = parse_dts("#define SPEED 150000000 / { mmc@1 { max-frequency = <SPEED>; }; };");
    EXPECT_FALSE(d.host);
    EXPECT_NE(d.error.find("lost its line breaks"), std::string::npos) << d.error;
    // With its line breaks it reads.
    EXPECT_TRUE(parse_dts("#define SPEED 150000000\n/ { mmc@1 { max-frequency = <150000000>; }; };").host);
}

TEST(JoinedPaste, HostileDeviceTreeTextStaysLinear)
{
    std::string comments;
    for (int i = 0; i < 200000; ++i) comments += "// a b c ";
    EXPECT_FALSE(parse_dts(comments).host);
    std::string words;
    for (int i = 0; i < 200000; ++i) words += "// x: y ";
    EXPECT_FALSE(parse_dts(words).host);
    std::string blanks = "// " + std::string(3'000'000, ' ') + "x";
    EXPECT_FALSE(parse_dts(blanks).host);
}

// ---- flashbench -a ladders ---------------------------------------------------

TEST(JoinedPaste, EveryFlashbenchOutputReadsTheSame)
{
    std::ifstream in("tests/data/flashbench/outputs.json");
    int compared = 0;
    const json all = json::parse(in);
    for (const auto& e : all.at("outputs")) {
        if (e.value("test", std::string()) != "-a") continue; // --open-au runs are no ladder
        const std::string text = e.at("output");
        const auto a = mmc::probe::parse_flashbench(text);
        const auto b = mmc::probe::parse_flashbench(joined(text));
        ASSERT_EQ(a.ladder.rows.size(), b.ladder.rows.size()) << e.at("id");
        for (std::size_t i = 0; i < a.ladder.rows.size(); ++i) {
            EXPECT_EQ(a.ladder.rows[i].align, b.ladder.rows[i].align) << e.at("id");
            EXPECT_EQ(a.ladder.rows[i].pre_ns, b.ladder.rows[i].pre_ns) << e.at("id");
            EXPECT_EQ(a.ladder.rows[i].on_ns, b.ladder.rows[i].on_ns) << e.at("id");
            EXPECT_EQ(a.ladder.rows[i].post_ns, b.ladder.rows[i].post_ns) << e.at("id");
        }
        EXPECT_EQ(a.blocksize, b.blocksize) << e.at("id");
        ++compared;
    }
    EXPECT_GE(compared, 5);
}

} // namespace
