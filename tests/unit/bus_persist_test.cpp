// The cases of the issue that made mmc-tune bus and mmc-bus disagree, on
// the fixtures of tests/data/dt: what the doctor rules out and advises, and
// what is kept after a reboot (or the sentence why nothing is).
#include "bus/doctor.h"
#include "tune/bus_persist.h"
#include "tune/bus_plan.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace {

using namespace mmc::bus;
using mmc::regs::CardFamily;

std::string file_text(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path + " (run the tests from the repository root)");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Evidence evidence(const char* ios, const char* dts = nullptr)
{
    Evidence e;
    e.ios = parse_ios(ios).front();
    e.host = "mmc0";
    if (dts) e.dt = parse_dts(file_text(dts)).host;
    return e;
}

struct Outcome {
    Diagnosis d;
    mmc::tune::BusPlan plan;
    mmc::tune::Persistent kept;
};

Outcome run(const Evidence& e, bool force = false, const std::optional<mmc::tune::TrialRun>& trials = std::nullopt)
{
    mmc::tune::BusPlanInput in;
    in.evidence = e;
    in.diagnosis = diagnose(e);
    in.force = force;
    Outcome o{in.diagnosis, mmc::tune::plan_bus(in), {}};
    o.kept = mmc::tune::persistent_result(e, o.d, o.plan, trials);
    return o;
}

bool any_has(const std::vector<std::string>& lines, const std::string& text)
{
    for (const auto& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

const char* sd_hs = "clock:\t\t50000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\n";

} // namespace

TEST(BusPersistCases, RaspberryPi3NothingAboveHighSpeedIsOfferedOrKept)
{
    auto e = evidence(sd_hs, "tests/data/dt/rpi3-sdhost.dts");
    e.caps = 0xc0000027;
    e.caps2 = 0;
    e.kernel_version = "6.12";
    const auto o = run(e);
    ASSERT_FALSE(o.plan.steps.empty());
    EXPECT_EQ(o.plan.steps.front().mode, Mode::hs);
    ASSERT_EQ(o.plan.ruled_out.size(), 4u); // SDR104, DDR50, SDR50, SDR25
    EXPECT_EQ(o.plan.ruled_out.front().mode, Mode::sdr104);
    EXPECT_NE(o.plan.ruled_out.front().reason.find("BCM2835 sdhost"), std::string::npos) << o.plan.ruled_out.front().reason;
    // Two reasons: the table, and no regulator to switch the slot to 1.8 V.
    EXPECT_FALSE(o.plan.ruled_out.front().table_only());
    EXPECT_TRUE(o.kept.forms.empty());
    EXPECT_TRUE(o.kept.for_what.empty());
    EXPECT_NE(o.kept.none.find("the doctor names the host as the limit"), std::string::npos) << o.kept.none;
}

TEST(BusPersistCases, RaspberryPi4StopsAtDdr50AndForceMayTrialOnlyPastTheTable)
{
    const char* ddr50 = "clock:\t\t50000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t7 (sd uhs DDR50)\nsignal voltage:\t1 (1.80 V)\n";
    auto e = evidence(ddr50, "tests/data/dt/rpi4-emmc2.dts");
    e.caps = 0x40170007 | (1u << 20);
    e.caps2 = 0;
    e.kernel_version = "6.12";
    auto o = run(e);
    ASSERT_EQ(o.plan.ruled_out.size(), 1u);
    EXPECT_EQ(o.plan.ruled_out[0].mode, Mode::sdr104);
    EXPECT_TRUE(o.plan.ruled_out[0].table_only());
    EXPECT_EQ(o.plan.steps.front().mode, Mode::ddr50);
    // --force trials SDR104 past the row, saying so, and a clean trial of it is not kept.
    o = run(e, true);
    ASSERT_EQ(o.plan.steps.front().mode, Mode::sdr104);
    EXPECT_TRUE(o.plan.steps.front().past_table);
    EXPECT_NE(o.plan.steps.front().trial.find("past the SoC table's row (never kept)"), std::string::npos);
    mmc::tune::TrialRun trials;
    mmc::tune::Trial t;
    t.mode = Mode::sdr104;
    t.clean = true;
    trials.trials.push_back(t);
    trials.chosen = 0;
    const auto kept = mmc::tune::persistent_result(e, o.d, o.plan, trials);
    EXPECT_TRUE(kept.forms.empty());
    EXPECT_NE(kept.none.find("only under --force"), std::string::npos) << kept.none;
}

TEST(BusPersistCases, RockS0TheDoctorNeverAdvisesHs400OnAnHs200Controller)
{
    const char* ddr52 = "clock:\t\t52000000 Hz\nactual clock:\t49152000 Hz\npower mode:\t2 (on)\nbus width:\t3 (8 bits)\n"
                        "timing spec:\t8 (mmc DDR52)\nsignal voltage:\t1 (1.80 V)\n";
    const auto o = run(evidence(ddr52, "tests/data/dt/rock-s0-emmc.dts"));
    EXPECT_TRUE(ruled_out(o.d, Mode::hs400));
    EXPECT_TRUE(ruled_out(o.d, Mode::hs400es));
    EXPECT_FALSE(ruled_out(o.d, Mode::hs200));
    EXPECT_FALSE(any_has(o.d.suggestions, "hs400")) << "the doctor says up to HS200 and suggests an HS400 property";
    EXPECT_TRUE(any_has(o.d.suggestions, "mmc-hs200-1_8v"));
    // The persistent form is HS200's, untested, and sets no HS400 property.
    ASSERT_FALSE(o.kept.forms.empty()) << o.kept.none;
    EXPECT_EQ(o.kept.for_what, "HS200 (untested on this card: trial it with --apply first)");
    EXPECT_NE(o.kept.forms[0].text.find("mmc-hs200-1_8v;"), std::string::npos);
    EXPECT_EQ(o.kept.forms[0].text.find("hs400"), std::string::npos);
}

TEST(BusPersistCases, Odin2MaskAndClampAreDeletedAndTheNodeTargetedByItsLabel)
{
    const char* hs = "clock:\t\t37500000 Hz\ntiming spec:\t2 (sd high-speed)\nsignal voltage:\t0 (3.30 V)\n";
    const auto o = run(evidence(hs, "tests/data/dt/ayn-odin2-sd-before.dts"));
    EXPECT_EQ(o.d.limit, Limit::board);
    EXPECT_TRUE(any_has(o.d.decided_by, "sdhci-caps-mask")) << "the doctor never mentions sdhci-caps-mask";
    EXPECT_TRUE(any_has(o.d.suggestions, "sdhci-caps-mask deleted"));
    ASSERT_EQ(o.kept.forms.size(), 2u) << o.kept.none;
    EXPECT_EQ(o.kept.for_what, "SDR104 (untested on this card: trial it with --apply first)");
    const auto& overlay = o.kept.forms[0];
    EXPECT_EQ(overlay.kind, "dt-overlay");
    EXPECT_NE(overlay.text.find("target = <&sdhc_2>;"), std::string::npos) << overlay.text;
    EXPECT_EQ(overlay.text.find("target-path"), std::string::npos);
    for (const char* p : {"sd-uhs-sdr104;", "sdhci-caps-mask = <0x0 0x0>;", "max-sd-hs-hz = <50000000>;"})
        EXPECT_NE(overlay.text.find(p), std::string::npos) << p << " in\n" << overlay.text;
    const auto& edit = o.kept.forms[1];
    EXPECT_EQ(edit.kind, "dts-edit");
    EXPECT_NE(edit.text.find("&sdhc_2 {"), std::string::npos);
    EXPECT_NE(edit.text.find("/delete-property/ sdhci-caps-mask;"), std::string::npos) << edit.text;
    EXPECT_NE(edit.text.find("/delete-property/ max-sd-hs-hz;"), std::string::npos) << edit.text;
}

TEST(BusPersistCases, PhytiumClockRaisedToWhatTheControllerRuns)
{
    const char* sdr104 = "clock:\t\t50000000 Hz\npower mode:\t2 (on)\nbus width:\t2 (4 bits)\ntiming spec:\t6 (sd uhs SDR104)\n"
                         "signal voltage:\t1 (1.80 V)\n";
    const auto o = run(evidence(sdr104, "tests/data/dt/phytium-e2000q.dts"));
    ASSERT_EQ(o.kept.forms.size(), 1u) << o.kept.none;
    EXPECT_EQ(o.kept.for_what, "SDR104 at 100 MHz (untested on this card: trial it with --apply first)");
    EXPECT_NE(o.kept.forms[0].text.find("max-frequency = <100000000>;"), std::string::npos) << o.kept.forms[0].text;
}

TEST(BusPersistCases, WithoutADeviceTreeASentenceSaysWhyThereIsNoForm)
{
    const auto o = run(evidence(sd_hs));
    EXPECT_TRUE(o.kept.forms.empty());
    EXPECT_NE(o.kept.none.find("no device tree for mmc0 (--dt FILE"), std::string::npos) << o.kept.none;
}

// The Pi 4 held at high speed by sdhci.debug_quirks2=4 on its command line
// (the corpus's cloudmesh case): the doctor names the command line, the
// plan does not trial DDR50 under it, and the form is the option removed
// from cmdline.txt - no device-tree change.
TEST(BusPersistCases, RaspberryPi4HeldByTheQuirkGetsItsCommandLineEdit)
{
    auto e = evidence(sd_hs, "tests/data/dt/rpi4-emmc2.dts");
    e.card = CardFamily::sd;
    e.cmdline = parse_kernel_cmdline("coherent_pool=1M 8250.nr_uarts=1 sdhci.debug_quirks2=4 console=tty1 root=PARTUUID=1-02 rootwait\n");
    e.cmdline->source = "cmdline.txt";
    const auto o = run(e);
    EXPECT_EQ(o.d.limit, Limit::board);
    ASSERT_EQ(o.d.cmdline_changes.size(), 1u);
    const auto& c = o.d.cmdline_changes.front();
    EXPECT_EQ(c.written, "sdhci.debug_quirks2=4");
    EXPECT_FALSE(c.value);
    ASSERT_FALSE(c.frees.empty());
    EXPECT_EQ(c.frees.front(), Mode::ddr50);
    EXPECT_TRUE(any_has({o.d.findings.front().text}, "SDHCI_QUIRK2_NO_1_8_V")) << o.d.findings.front().text;
    EXPECT_TRUE(any_has(o.d.suggestions, "remove sdhci.debug_quirks2=4"));
    // DDR50 stays in the plan (the controller runs it) but is not trialled under the quirk.
    const auto ddr50 = std::find_if(o.plan.steps.begin(), o.plan.steps.end(), [](const auto& s) { return s.mode == Mode::ddr50; });
    ASSERT_NE(ddr50, o.plan.steps.end());
    EXPECT_FALSE(ddr50->trialled);
    EXPECT_NE(ddr50->trial.find("the kernel command line's sdhci.debug_quirks2=4"), std::string::npos) << ddr50->trial;
    ASSERT_EQ(o.kept.forms.size(), 1u) << o.kept.none;
    EXPECT_EQ(o.kept.forms[0].kind, "kernel-cmdline");
    EXPECT_EQ(o.kept.forms[0].text, "remove sdhci.debug_quirks2=4\n");
    EXPECT_NE(o.kept.forms[0].scope.find("cmdline.txt"), std::string::npos) << o.kept.forms[0].scope;
    EXPECT_EQ(o.kept.for_what, "DDR50 once sdhci.debug_quirks2=4 is gone (untested on this card: trial it with --apply after the reboot)");
    // Live, the host's caps already lack what the quirk took (no UHS bit):
    // the same answer from the controller's row.
    auto live = e;
    live.caps = 0x40000007;
    live.caps2 = 0;
    live.kernel_version = "6.12";
    const auto lo = run(live);
    EXPECT_EQ(lo.d.limit, Limit::board);
    ASSERT_EQ(lo.d.cmdline_changes.size(), 1u);
    EXPECT_EQ(lo.d.cmdline_changes.front().frees.front(), Mode::ddr50);
    // Other bits of the option are kept, in the form the kernel reads.
    e.cmdline = parse_kernel_cmdline("sdhci.debug_quirks2=0x204");
    const auto kept = run(e).kept;
    ASSERT_EQ(kept.forms.size(), 1u);
    EXPECT_EQ(kept.forms[0].text, "replace sdhci.debug_quirks2=0x204 with sdhci.debug_quirks2=0x200\n");
}

// The same line on a Pi 3's sdhost (not an SDHCI driver) changes nothing:
// the doctor says so and keeps the controller as the limit.
TEST(BusPersistCases, TheQuirkDoesNotActOnAHostThatIsNotSdhci)
{
    auto e = evidence(sd_hs, "tests/data/dt/rpi3-sdhost.dts");
    e.card = CardFamily::sd;
    e.cmdline = parse_kernel_cmdline("sdhci.debug_quirks2=4");
    const auto o = run(e);
    EXPECT_EQ(o.d.limit, Limit::host);
    EXPECT_TRUE(o.d.cmdline_changes.empty());
    bool said = false;
    for (const auto& f : o.d.findings) said |= f.text.find("acts on SDHCI hosts only") != std::string::npos;
    EXPECT_TRUE(said);
    EXPECT_TRUE(o.kept.forms.empty());
}

// A Pi 4 whose command line has no such quirk, or one the kernel rejects,
// runs the case as before: the doctor cannot blame the command line.
TEST(BusPersistCases, NoQuirkInForceNoCommandLineChange)
{
    for (const char* line : {"console=tty1 rootwait", "sdhci.debug_quirks2=4x", "sdhci.debug_quirks2=0", "-- sdhci.debug_quirks2=4"}) {
        auto e = evidence(sd_hs, "tests/data/dt/rpi4-emmc2.dts");
        e.card = CardFamily::sd;
        e.cmdline = parse_kernel_cmdline(line);
        const auto o = run(e);
        EXPECT_TRUE(o.d.cmdline_changes.empty()) << line;
        EXPECT_NE(o.d.limit, Limit::board) << line;
    }
}

// CRC errors at the mode in use, in a pasted kernel log: the form is the
// plan's first lower clock for that mode, untested, and sets nothing else
// (the mode runs already: no property to offer it).
TEST(BusPersistCases, CrcErrorsAtTheModeInUseGetTheFirstLowerClockUntested)
{
    auto e = evidence(sd_hs, "tests/data/dt/rpi3-sdhost.dts");
    e.card = CardFamily::sd;
    e.caps = 0xc0000027;
    e.caps2 = 0;
    e.kernel_version = "6.12";
    e.log = parse_kernel_log("mmc0: new high speed SDHC card at address aaaa\n"
                             "mmcblk0: mmc0:aaaa QEMU! 1.00 GiB\n"
                             "mmcblk0: error -84 transferring data, sector 2048, nr 8, cmd response 0x900, card status 0xb00\n",
                             {"mmc0"});
    const auto o = run(e);
    ASSERT_FALSE(o.plan.signal_errors.empty());
    ASSERT_FALSE(o.kept.forms.empty()) << o.kept.none;
    EXPECT_EQ(o.kept.for_what.rfind("HS at 37.5 MHz (untested on this card: the kernel log shows a signal error", 0), 0u) << o.kept.for_what;
    EXPECT_EQ(o.kept.forms[0].kind, "dt-overlay");
    EXPECT_NE(o.kept.forms[0].text.find("max-frequency = <37500000>;"), std::string::npos) << o.kept.forms[0].text;
    EXPECT_EQ(o.kept.forms[0].text.find("cap-sd-highspeed"), std::string::npos) << o.kept.forms[0].text;
    // Without the log there is nothing to lower.
    e.log.reset();
    EXPECT_TRUE(run(e).kept.forms.empty());
}
