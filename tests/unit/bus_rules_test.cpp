// The doctor's rules (bus/doctor.h), each on a case it decides and on one
// where it must not decide (or must decide otherwise). The evidence is
// written as a live system gives it: the ios dump, the host's device-tree
// node as DTS, the kernel log's lines, the card's registers.
#include "bus/doctor.h"
#include "bus/soc_limits.h"

#include <gtest/gtest.h>

namespace {

using namespace mmc::bus;
using mmc::regs::CardFamily;

Ios ios_of(const std::string& text)
{
    auto all = parse_ios(text);
    EXPECT_EQ(all.size(), 1u) << text;
    return all.empty() ? Ios{} : all.front();
}

std::string ios_text(const std::string& clock, const std::string& timing, const std::string& width = "2 (4 bits)",
                     const std::string& actual = "")
{
    return "clock:\t\t" + clock + " Hz\n" + (actual.empty() ? "" : "actual clock:\t" + actual + " Hz\n") +
           "vdd:\t\t21 (3.3 ~ 3.4 V)\nbus mode:\t2 (push-pull)\npower mode:\t2 (on)\nbus width:\t" + width +
           "\ntiming spec:\t" + timing + "\n";
}

DeviceTree dt_of(const std::string& dts)
{
    const auto parsed = parse_dts(dts);
    EXPECT_TRUE(parsed.host) << parsed.error;
    return parsed.host.value_or(DeviceTree{});
}

Evidence evidence(const std::string& ios, CardFamily family)
{
    Evidence e;
    e.host = "mmc0";
    e.ios = ios_of(ios);
    e.card = family;
    return e;
}

void with_log(Evidence& e, const std::string& log)
{
    e.log = parse_kernel_log(log, {e.host});
    e.kernel_message = e.log->card_message;
}

const std::string sd_hs = ios_text("50000000", "2 (sd high-speed)");
// An SD host whose node offers every UHS mode, with a 1.8 V-capable regulator.
const std::string uhs_node = R"(/ {
    vcc_sd: regulator-sd { regulator-min-microvolt = <1800000>; regulator-max-microvolt = <3300000>; };
    mmc@fe2b0000 { compatible = "vendor,soc-sdhci"; bus-width = <4>; cap-sd-highspeed; sd-uhs-sdr50;
                   sd-uhs-sdr104; vqmmc-supply = <&vcc_sd>; };
};)";

// ---- 1. standard-capacity SD cards --------------------------------------

TEST(BusRuleStandardCapacity, AnSdCardStopsAtHighSpeed)
{
    Evidence e = evidence(sd_hs, CardFamily::sd);
    e.dt = dt_of(uhs_node);
    e.kernel_message = "mmc0: new high speed SD card at address b368";
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::card);
    EXPECT_EQ(d.mechanism, Mechanism::mode);
    EXPECT_EQ(d.card_best_mode, Mode::hs);
    ASSERT_FALSE(d.decided_by.empty());
    EXPECT_NE(d.decided_by.front().find("standard-capacity"), std::string::npos) << d.decided_by.front();
}

TEST(BusRuleStandardCapacity, TwoGigabytesOrLessIsStandardCapacity)
{
    Evidence e = evidence(sd_hs, CardFamily::sd);
    e.dt = dt_of(uhs_node);
    e.capacity_bytes = 1'977'614'336; // "SU02G 1.84 GiB"
    EXPECT_EQ(diagnose(e).limit, Limit::card);
}

TEST(BusRuleStandardCapacity, AnSdhcCardIsNotDecidedByIt)
{
    Evidence e = evidence(sd_hs, CardFamily::sd);
    e.dt = dt_of(uhs_node);
    e.kernel_message = "mmc0: new high speed SDHC card at address aaaa";
    e.capacity_bytes = 31'914'983'424;
    const auto d = diagnose(e);
    EXPECT_NE(d.limit, Limit::card); // an SDHC card may well do UHS: its registers would tell
    EXPECT_FALSE(d.card_best_mode);
}

// ---- 2. a clock below max-frequency is not max-frequency's doing ---------

const std::string sdr104_node_150 = R"(/ { mmc@fe2b0000 { compatible = "vendor,soc-dw-mshc"; bus-width = <4>;
    max-frequency = <150000000>; cap-sd-highspeed; sd-uhs-sdr104; }; };)";

TEST(BusRuleClockBelowMaxFrequency, ARequestBelowItIsTheHosts)
{
    Evidence e = evidence(ios_text("100000000", "6 (sd uhs SDR104)"), CardFamily::sd);
    e.dt = dt_of(sdr104_node_150);
    e.kernel_message = "mmc0: new ultra high speed SDR104 SDXC card at address aaaa";
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::host);
    EXPECT_EQ(d.mechanism, Mechanism::clock);
    ASSERT_FALSE(d.findings.empty());
    EXPECT_NE(d.findings.front().text.find("max-frequency does not explain it"), std::string::npos) << d.findings.front().text;
}

TEST(BusRuleClockBelowMaxFrequency, ARequestAtItIsMaxFrequencys)
{
    // At max-frequency, on a controller the SoC table does not know: the
    // SoC or the board set it, and the doctor says it cannot tell which.
    Evidence e = evidence(ios_text("150000000", "6 (sd uhs SDR104)"), CardFamily::sd);
    e.dt = dt_of(sdr104_node_150);
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::unknown);
    EXPECT_NE(d.would_decide.find(".dtsi"), std::string::npos) << d.would_decide;
}

TEST(BusRuleClockBelowMaxFrequency, AFastTimingStillAt52MHzIsASwitchNotDone)
{
    Evidence e = evidence(ios_text("52000000", "9 (mmc HS200)", "3 (8 bits)"), CardFamily::mmc);
    e.dt = dt_of(R"(/ { mmc@1 { compatible = "vendor,soc-sdhci"; bus-width = <8>; max-frequency = <200000000>;
        mmc-hs200-1_8v; non-removable; }; };)");
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::host);
    EXPECT_NE(d.findings.front().text.find("had not completed"), std::string::npos) << d.findings.front().text;
    // With the card's "new" line in the log the switch is done: only the source clock is left.
    e.kernel_message = "mmc0: new HS200 MMC card at address 0001";
    const auto done = diagnose(e);
    EXPECT_EQ(done.limit, Limit::host);
    EXPECT_EQ(done.findings.front().text.find("had not completed"), std::string::npos) << done.findings.front().text;
}

// ---- 3. tuning in the kernel log ----------------------------------------

const std::string no_uhs_node = R"(/ { mmc@fe2b0000 { compatible = "vendor,soc-sdhci"; bus-width = <4>;
    cap-sd-highspeed; }; };)";

TEST(BusRuleTuningInTheLog, ATuningFailureProvesATunedModeAndNamesTuning)
{
    Evidence e = evidence(sd_hs, CardFamily::sd);
    e.dt = dt_of(no_uhs_node);
    with_log(e, "[    2.1] mmc0: tuning execution failed: -110\n[    2.3] mmc0: new high speed SDXC card at address 59b4\n");
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::tuning);
    EXPECT_EQ(d.host_best_mode, Mode::sdr50); // more than the node lists: the controller's own caps
    ASSERT_FALSE(d.decided_by.empty());
    EXPECT_NE(d.decided_by.front().find("tuning execution failed"), std::string::npos);
}

TEST(BusRuleTuningInTheLog, AnotherHostsTuningDecidesNothing)
{
    Evidence e = evidence(sd_hs, CardFamily::sd);
    e.dt = dt_of(no_uhs_node);
    with_log(e, "[    2.1] mmc1: tuning execution failed: -110\n[    2.3] mmc0: new high speed SDXC card at address 59b4\n");
    const auto d = diagnose(e);
    EXPECT_NE(d.limit, Limit::tuning);
    EXPECT_EQ(d.host_best_mode, Mode::hs); // only what the node lists
}

TEST(BusRuleTuningInTheLog, TheCardLinesModeProvesAFallback)
{
    // Nothing known of either side, but the card was set up in SDR104.
    Evidence e = evidence(sd_hs, CardFamily::sd);
    with_log(e, "[    2.3] mmc0: new ultra high speed SDR104 SDXC card at address 59b4\n");
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::unknown); // a fallback, and the log names no cause
    ASSERT_FALSE(d.findings.empty());
    EXPECT_NE(d.findings.front().text.find("both sides reached SDR104 once"), std::string::npos) << d.findings.front().text;
    EXPECT_NE(d.would_decide.find("kernel log"), std::string::npos) << d.would_decide;
    // A high-speed card line proves nothing beyond the mode that runs.
    with_log(e, "[    2.3] mmc0: new high speed SDXC card at address 59b4\n");
    const auto hs = diagnose(e);
    EXPECT_NE(hs.findings.front().text.find("either the host or the card stops at HS"), std::string::npos) << hs.findings.front().text;
}

// ---- 4. SoC-table rows on the most specific compatible -------------------

TEST(BusRuleSocTable, AFallbackCompatiblePicksNoRow)
{
    DeviceTree dt;
    dt.compatible = {"vendor,newsoc-dw-mshc", "rockchip,rk3288-dw-mshc"};
    EXPECT_FALSE(soc_limit(dt));
    dt.compatible = {"rockchip,rk3288-dw-mshc"};
    EXPECT_TRUE(soc_limit(dt));
}

const std::string sdr104_at = "6 (sd uhs SDR104)";

TEST(BusRuleSocTable, ABoardRaisingTheSocsMaxFrequencyIsTheBoards)
{
    Evidence e = evidence(ios_text("180000000", sdr104_at), CardFamily::sd);
    e.dt = dt_of(R"(/ { mmc@ff500000 { compatible = "rockchip,rk3328-dw-mshc", "rockchip,rk3288-dw-mshc"; bus-width = <4>;
        max-frequency = <180000000>; sd-uhs-sdr104; }; };)");
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::board);
    EXPECT_EQ(d.mechanism, Mechanism::clock);
}

TEST(BusRuleSocTable, TheSocsOwnValueIsTheHosts)
{
    Evidence e = evidence(ios_text("150000000", sdr104_at), CardFamily::sd);
    e.dt = dt_of(R"(/ { mmc@ff500000 { compatible = "rockchip,rk3328-dw-mshc", "rockchip,rk3288-dw-mshc"; bus-width = <4>;
        max-frequency = <150000000>; sd-uhs-sdr104; }; };)");
    EXPECT_EQ(diagnose(e).limit, Limit::host);
    // The same node with a compatible the table lacks before the fallback: undecided.
    e.dt->compatible = {"vendor,newsoc-dw-mshc", "rockchip,rk3288-dw-mshc"};
    EXPECT_EQ(diagnose(e).limit, Limit::unknown);
}

// ---- 5. PCI hosts -------------------------------------------------------

Evidence uhs_card_in_hs()
{
    Evidence e = evidence(sd_hs, CardFamily::sd);
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25, Mode::sdr50, Mode::sdr104, Mode::ddr50};
    return e;
}

TEST(BusRulePciHost, APciHostInTheLogLimitsWhereTheCardDoesMore)
{
    Evidence e = uhs_card_in_hs();
    with_log(e, "[    1.0] mmc0: SDHCI controller on PCI [0000:00:1e.6] using ADMA 64-bit\n"
                "[    2.0] mmc0: new high speed SDXC card at address 59b4\n");
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::host);
    bool said = false;
    for (const auto& f : d.findings) said |= f.text.find("PCI controller (PCI [0000:00:1e.6]") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST(BusRulePciHost, WithoutThePciLineTheHostIsUnknown)
{
    Evidence e = uhs_card_in_hs();
    with_log(e, "[    2.0] mmc0: new high speed SDXC card at address 59b4\n");
    EXPECT_EQ(diagnose(e).limit, Limit::unknown); // the host, or a fallback: nothing tells
}

TEST(BusRulePciHost, APciHostWithAnUnknownCardIsUndecided)
{
    Evidence e = evidence(sd_hs, CardFamily::sd);
    e.dt_absent = true;
    e.pci_id = "1217:8621";
    EXPECT_EQ(diagnose(e).limit, Limit::unknown); // the card may stop at high speed itself
}

// ---- 6. driver-specific clock properties --------------------------------

// A card that stops at high speed itself (OCR S18A=0) in a host that does
// too: the mode is no shortfall, so the clock's cause leads.
TEST(BusRuleDriverClock, Overclock50EqualToTheClockIsTheBoards)
{
    Evidence e = evidence(ios_text("50000000", "2 (sd high-speed)", "2 (4 bits)", "40000000"), CardFamily::sd);
    e.s18a = false;
    e.dt = dt_of(R"(/ { mmc@7e202000 { compatible = "brcm,bcm2835-sdhost"; bus-width = <4>; brcm,overclock-50 = <40>; }; };)");
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::board);
    EXPECT_EQ(d.mechanism, Mechanism::clock);
    ASSERT_FALSE(d.decided_by.empty());
    EXPECT_NE(d.decided_by.front().find("brcm,overclock-50 = <40>"), std::string::npos) << d.decided_by.front();
}

TEST(BusRuleDriverClock, ADividerBelowTheSettingIsNotTheBoards)
{
    // 250 MHz / 6: the divider cannot make the 50 MHz asked for.
    Evidence e = evidence(ios_text("50000000", "2 (sd high-speed)", "2 (4 bits)", "41666666"), CardFamily::sd);
    e.s18a = false;
    e.dt = dt_of(R"(/ { mmc@7e202000 { compatible = "brcm,bcm2835-sdhost"; bus-width = <4>; brcm,overclock-50 = <63>; }; };)");
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::host);
    EXPECT_EQ(d.mechanism, Mechanism::clock);
}

TEST(BusRuleDriverClock, MaxSdHsHzEqualToTheClockIsTheBoards)
{
    Evidence e = evidence(ios_text("37500000", "2 (sd high-speed)"), CardFamily::sd);
    e.dt = dt_of(R"(/ { mmc@8804000 { compatible = "qcom,sm8550-sdhci", "qcom,sdhci-msm-v5"; bus-width = <4>;
        max-sd-hs-hz = <37500000>; max-frequency = <202000000>; }; };)");
    e.s18a = false;
    const auto d = diagnose(e);
    EXPECT_EQ(d.limit, Limit::board);
    EXPECT_EQ(d.mechanism, Mechanism::clock);
    // A clock that is not the property's: the property does not explain it.
    e.ios = ios_of(ios_text("25000000", "2 (sd high-speed)"));
    EXPECT_EQ(diagnose(e).limit, Limit::host);
}

// ---- the device-tree parser and the log ---------------------------------

TEST(BusRuleDeviceTree, AHostsChildNodeIsNoSecondHost)
{
    const auto parsed = parse_dts(R"(/ { mmc@fe310000 { compatible = "vendor,soc-dw-mshc"; bus-width = <4>; non-removable;
        #address-cells = <1>; #size-cells = <0>;
        wifi@1 { reg = <1>; compatible = "marvell,sd8997-sdio"; }; }; };)");
    ASSERT_TRUE(parsed.host) << parsed.error;
    EXPECT_EQ(parsed.host->node, "mmc@fe310000");
    EXPECT_EQ(parsed.candidates.size(), 1u);
    // Two sibling hosts still ask to pick.
    EXPECT_FALSE(parse_dts("/ { mmc@1 { bus-width = <4>; }; mmc@2 { bus-width = <8>; }; };").host);
}

TEST(BusRuleKernelLog, TheHostsALogNames)
{
    const auto hosts = hosts_in_log("[ 1.0] mmc0: new HS200 MMC card at address 0001\n[ 1.1] mmcblk0: mmc0:0001 AJTD4R 14.6 GiB\n"
                                    "[ 2.0] mmc1: new high speed SDHC card at address aaaa\n");
    EXPECT_EQ(hosts, (std::vector<std::string>{"mmc0", "mmc1"}));
    EXPECT_TRUE(hosts_in_log("sdhci: Secure Digital Host Controller Interface driver\n").empty());
}

} // namespace
