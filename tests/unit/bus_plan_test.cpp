// mmc-tune bus's planner and persistent forms, on evidence as the doctor
// takes it: the modes card and host share with what limits each, the caps
// a trial sets (one mapping, bus/mode_caps), the safety rule for a card in
// use, the kernel that cannot trial live, and per kind of host what keeps
// a mode after a reboot and what it cannot say.
#include "bus/doctor.h"
#include "bus/mode_caps.h"
#include "tune/bus_persist.h"
#include "tune/bus_plan.h"

#include <gtest/gtest.h>

using namespace mmc::tune;
using mmc::bus::Mode;
using mmc::regs::CardFamily;

namespace {

mmc::bus::Evidence sd_evidence(const char* timing, uint64_t clock, std::optional<uint32_t> caps, const char* kernel)
{
    mmc::bus::Evidence e;
    e.host = "mmc1";
    e.ios.clock_hz = clock;
    e.ios.power_mode = 2;
    e.ios.bus_width_bits = 4;
    e.ios.timing = timing;
    e.caps = caps;
    if (caps) e.caps2 = 0;
    e.kernel_version = kernel;
    e.card = CardFamily::sd;
    e.s18a = true;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25, Mode::sdr50, Mode::sdr104, Mode::ddr50};
    return e;
}

BusPlan plan(const mmc::bus::Evidence& e, std::string in_use = {}, bool force = false)
{
    BusPlanInput in;
    in.evidence = e;
    in.diagnosis = mmc::bus::diagnose(e);
    in.live = true;
    in.card_in_use = std::move(in_use);
    in.force = force;
    return plan_bus(in);
}

std::vector<std::string> modes(const BusPlan& p, bool trialled_only = false)
{
    std::vector<std::string> out;
    for (const auto& s : p.steps)
        if (!trialled_only || s.trialled) out.emplace_back(mmc::bus::to_string(s.mode));
    return out;
}

} // namespace

TEST(BusModeCaps, EachModeSetsItsBitsAndClearsTheFasterOnes)
{
    using mmc::bus::caps_bit;
    using mmc::bus::caps2_bit;
    const uint32_t start = 0x400f0007 | caps_bit("UHS_DDR50");
    const uint32_t uhs = 0x1f << 16;
    auto sd = [&](Mode m) { return mmc::bus::caps_for_mode(m, {start, 0}, CardFamily::sd)->caps; };
    EXPECT_EQ(sd(Mode::sdr104) & uhs, uhs);
    EXPECT_EQ(sd(Mode::ddr50) & uhs, uhs & ~caps_bit("UHS_SDR104"));
    EXPECT_EQ(sd(Mode::sdr50) & uhs, caps_bit("UHS_SDR12") | caps_bit("UHS_SDR25") | caps_bit("UHS_SDR50"));
    EXPECT_EQ(sd(Mode::hs) & uhs, 0u);
    EXPECT_TRUE(sd(Mode::hs) & caps_bit("SD_HIGHSPEED"));
    EXPECT_EQ(sd(Mode::legacy), start & ~uhs & ~caps_bit("SD_HIGHSPEED"));
    EXPECT_EQ(sd(Mode::legacy) & caps_bit("MMC_HIGHSPEED"), caps_bit("MMC_HIGHSPEED")) << "an SD trial leaves the MMC bits";
    // Every change is within what mmc_caps_set accepts.
    for (const Mode m : {Mode::sdr104, Mode::ddr50, Mode::sdr50, Mode::sdr25, Mode::hs, Mode::legacy})
        EXPECT_EQ((sd(m) ^ start) & ~mmc::bus::writable_caps_bits().caps, 0u) << mmc::bus::to_string(m);
    // eMMC: HS200 in caps2, HS400 on top; HS400ES only where the host has it.
    const auto hs200 = mmc::bus::caps_for_mode(Mode::hs200, {0x40000147, caps2_bit("HS400_1_8V") | caps2_bit("HS200_1_8V_SDR")}, CardFamily::mmc);
    EXPECT_EQ(hs200->caps2, caps2_bit("HS200_1_8V_SDR"));
    EXPECT_FALSE(mmc::bus::caps_for_mode(Mode::hs400es, {0x40000147, 0}, CardFamily::mmc));
    EXPECT_EQ(mmc::bus::caps_change({0, 0}, {caps_bit("UHS_SDR104"), caps2_bit("HS200_1_8V_SDR")}),
              (std::vector<std::string>{"+UHS_SDR104", "+HS200_1_8V_SDR"}));
}

TEST(BusPlan, FastestFirstDownToLegacyWithTheDoctorsWords)
{
    const auto p = plan(sd_evidence("sd uhs DDR50", 50'000'000, 0x400f0007 | (1u << 20), "6.12.9"));
    EXPECT_TRUE(p.live_trials) << p.live_trials_reason;
    EXPECT_EQ(modes(p), (std::vector<std::string>{"SDR104", "DDR50", "SDR50", "SDR25", "HS", "legacy"}));
    EXPECT_TRUE(p.steps[1].in_use);
    EXPECT_EQ(p.steps[1].limited_by, "in use now");
    EXPECT_TRUE(p.steps[0].above_in_use);
    EXPECT_NE(p.steps[0].limited_by.find(std::string(mmc::bus::to_string(mmc::bus::diagnose(sd_evidence("sd uhs DDR50", 50'000'000,
                                                                                                        0x400f0007 | (1u << 20), "6.12.9"))
                                                                               .limit))),
              std::string::npos);
    EXPECT_NE(p.steps[2].limited_by.find("step-down"), std::string::npos);
    EXPECT_EQ(p.steps[0].trial.rfind("set caps 0x401f0007 caps2 0x00000000, re-initialise the card", 0), 0u) << p.steps[0].trial;
    EXPECT_NE(p.steps[1].trial.find("(-UHS_SDR104)"), std::string::npos) << p.steps[1].trial;
}

TEST(BusPlan, ACardInUseTrialsOnlyAtOrBelowTheModeInUseUnlessForced)
{
    const auto e = sd_evidence("sd uhs SDR50", 100'000'000, 0x400f0007, "6.12.9");
    const auto p = plan(e, "mmcblk1p2 is mounted on /");
    EXPECT_EQ(modes(p, true), (std::vector<std::string>{"SDR50", "SDR25", "HS", "legacy"}));
    EXPECT_NE(p.steps[0].trial.find("mmcblk1p2 is mounted on /"), std::string::npos);
    EXPECT_NE(p.steps[0].trial.find("--force"), std::string::npos);
    const auto forced = plan(e, "mmcblk1p2 is mounted on /", true);
    EXPECT_EQ(modes(forced, true).front(), "SDR104");
}

TEST(BusPlan, AKernelBefore64PlansButCannotTrial)
{
    const auto p = plan(sd_evidence("sd high-speed", 50'000'000, 0x400f0007, "6.1.0-27-amd64"));
    EXPECT_FALSE(p.live_trials);
    EXPECT_EQ(p.live_trials_reason, "this kernel (6.1.0-27-amd64) cannot trial modes live; 6.4 or later can");
    EXPECT_FALSE(p.steps.empty());
    EXPECT_EQ(p.steps[0].trial.rfind("would set caps", 0), 0u);
    BusPlanInput in;
    in.evidence = sd_evidence("sd high-speed", 50'000'000, 0x400f0007, "");
    in.diagnosis = mmc::bus::diagnose(in.evidence);
    in.live = true;
    in.caps_not_writable = "/sys/kernel/debug/mmc1/caps is read-only (mode 0400): this kernel cannot set caps";
    EXPECT_EQ(plan_bus(in).live_trials_reason, in.caps_not_writable);
}

TEST(BusPlan, NoOneEightVoltsMeansNoUhsTrial)
{
    auto e = sd_evidence("sd high-speed", 50'000'000, 0x400f0007, "6.12");
    mmc::bus::DeviceTree dt;
    dt.node = "mmc@fe320000";
    dt.path = "/mmc@fe320000";
    dt.flags = {"no-1-8-v", "cap-sd-highspeed"};
    e.dt = dt;
    const auto p = plan(e);
    EXPECT_EQ(modes(p), (std::vector<std::string>{"HS", "legacy"}));
    EXPECT_EQ(modes(p, true), (std::vector<std::string>{"HS", "legacy"}));
    // The UHS modes are the doctor's ruled-out ones, each with its reason.
    ASSERT_EQ(p.ruled_out.size(), 4u);
    EXPECT_EQ(p.ruled_out[0].mode, Mode::sdr104);
    EXPECT_NE(p.ruled_out[0].reason.find("no-1-8-v"), std::string::npos) << p.ruled_out[0].reason;
}

TEST(BusPersist, AnOverlayAddsTheModeAndSaysWhatItCannotDelete)
{
    auto e = sd_evidence("sd uhs SDR50", 100'000'000, std::nullopt, "6.12");
    mmc::bus::DeviceTree dt;
    dt.node = "mmc@fe320000";
    dt.path = "/mmc@fe320000";
    dt.flags = {"sd-uhs-sdr50", "cap-sd-highspeed"};
    e.dt = dt;
    auto f = persistent_forms(e, {CardFamily::sd, Mode::sdr104, 150'000'000, Mode::sdr50, {}});
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].kind, "dt-overlay");
    EXPECT_NE(f[0].text.find("target-path = \"/mmc@fe320000\";"), std::string::npos);
    EXPECT_NE(f[0].text.find("\t\t\tsd-uhs-sdr104;\n"), std::string::npos);
    EXPECT_NE(f[0].text.find("max-frequency = <150000000>;"), std::string::npos);
    EXPECT_EQ(f[0].cannot_express, "");
    // A step-down from SDR104 to DDR50: the node's sd-uhs-sdr104 cannot be deleted.
    e.dt->flags.push_back("sd-uhs-sdr104");
    f = persistent_forms(e, {CardFamily::sd, Mode::ddr50, std::nullopt, Mode::sdr104, {}});
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].kind, "dts-edit");
    EXPECT_EQ(f[0].text, "&{/mmc@fe320000} {\n\t/delete-property/ sd-uhs-sdr104;\n};\n");
    // To high speed: no-1-8-v says it, as a property to add.
    f = persistent_forms(e, {CardFamily::sd, Mode::hs, std::nullopt, Mode::sdr104, {}});
    EXPECT_NE(f[0].text.find("no-1-8-v;"), std::string::npos);
    EXPECT_EQ(f[0].cannot_express, "");
    // No-1-8-v in the way of a UHS mode.
    e.dt->flags = {"no-1-8-v"};
    f = persistent_forms(e, {CardFamily::sd, Mode::sdr50, std::nullopt, Mode::hs, {}});
    ASSERT_EQ(f.size(), 2u);
    EXPECT_NE(f[0].cannot_express.find("remove no-1-8-v"), std::string::npos);
    EXPECT_NE(f[1].text.find("/delete-property/ no-1-8-v;\n\tsd-uhs-sdr50;"), std::string::npos) << f[1].text;
    // The mode in use at its own clock: nothing to keep.
    EXPECT_TRUE(persistent_forms(e, {CardFamily::sd, Mode::hs, std::nullopt, Mode::hs, {}}).empty());
}

TEST(BusPersist, APciHostGetsTheGlobalModuleOption)
{
    auto e = sd_evidence("sd uhs SDR104", 208'000'000, 0x400f0007, "6.12");
    e.dt_absent = true;
    e.pci_id = "1217:8621";
    auto f = persistent_forms(e, {CardFamily::sd, Mode::hs, std::nullopt, Mode::sdr104, {}});
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].kind, "module-option");
    EXPECT_NE(f[0].text.find("sdhci.debug_quirks2=0x4"), std::string::npos);
    EXPECT_EQ(f[0].scope.rfind("global to every SDHCI host on this machine, not only mmc1; the command line: the boot loader", 0), 0u) << f[0].scope;
    f = persistent_forms(e, {CardFamily::sd, Mode::sdr104, 150'000'000, Mode::sdr104, {}});
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].text, "");
    EXPECT_NE(f[0].cannot_express.find("no module option caps the clock"), std::string::npos);
}

TEST(BusPersist, RaspberryPiSdhostTakesTheDocumentedDtparam)
{
    mmc::bus::Evidence e = sd_evidence("sd high-speed", 50'000'000, std::nullopt, "6.6");
    mmc::bus::DeviceTree dt;
    dt.node = "mmc@7e202000";
    dt.path = "/soc/mmc@7e202000";
    dt.compatible = {"brcm,bcm2835-sdhost"};
    e.dt = dt;
    const auto f = persistent_forms(e, {CardFamily::sd, Mode::hs, 41'666'666, Mode::hs, {}});
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[1].kind, "config.txt");
    EXPECT_EQ(f[1].text, "dtparam=sd_overclock=41\n");
}
