// mmc-tune bus's trial engine on a modelled host (bus_model_host.h), on its
// virtual clock: the chosen mode and each rejection with its reason, the
// state file written before the first change, and the host put back as it
// was whatever happens: at the end, when the host fails mid-trial, and on
// a stop signal at every operation of a whole run.
#include "bus_model_host.h"

#include "bus/doctor.h"
#include "bus/kernel_log.h"
#include "tune/bus_plan.h"
#include "tune/bus_state.h"
#include "tune/bus_trial.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>

using namespace mmc::tune;
using bus_model::Faults;
using bus_model::ModelHost;
using mmc::bus::Mode;
namespace fs = std::filesystem;

namespace {

const uint32_t uhs_caps = 0x400f0007 | (1u << 20); // 4-bit, both HS bits, SDR12..SDR104, DDR50
const std::set<Mode> uhs_card{Mode::legacy, Mode::hs, Mode::sdr12, Mode::sdr25, Mode::sdr50, Mode::ddr50, Mode::sdr104};

// The plan the front end makes for this host: the doctor's evidence from
// what the model shows, a kernel with writable caps.
BusPlan plan_for(ModelHost& h, std::vector<std::string> log = {}, std::vector<Mode> only = {})
{
    BusPlanInput in;
    auto& e = in.evidence;
    e.host = "mmc0";
    e.ios = h.ios();
    e.caps = h.caps();
    e.caps2 = h.caps2();
    e.kernel_version = "6.12.9";
    e.card = mmc::regs::CardFamily::sd;
    e.s18a = true;
    e.sd_bus_speeds_supported = {Mode::sdr12, Mode::sdr25, Mode::sdr50, Mode::sdr104, Mode::ddr50};
    if (!log.empty()) {
        std::string text;
        for (const auto& l : log) text += l + "\n";
        e.log = mmc::bus::parse_kernel_log(text, {"mmc0"});
    }
    in.diagnosis = mmc::bus::diagnose(e);
    in.live = true;
    in.only = std::move(only);
    h.ops.clear();
    return plan_bus(in);
}

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("bus-trial-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
    static inline int counter = 0;
};

TrialOptions options(const TempDir& d)
{
    TrialOptions o;
    o.regions = 4;
    o.region_bytes = 1 << 20;
    o.state_file = d.path / "tune-bus-mmc0.json";
    o.device = "/dev/mmcblk0";
    return o;
}

std::vector<std::pair<std::string, std::string>> verdicts(const TrialRun& run)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& t : run.trials)
        out.emplace_back(std::string(mmc::bus::to_string(t.mode)) + (t.clock_asked ? "@" + std::to_string(*t.clock_asked) : ""),
                         t.clean ? "clean" : t.reason);
    return out;
}

void expect_as_started(const ModelHost& h, const HostSnapshot& s)
{
    EXPECT_EQ(h.caps(), s.caps);
    EXPECT_EQ(h.caps2(), s.caps2);
    EXPECT_EQ(h.clock(), s.clock_hz);
    EXPECT_EQ(h.mode(), s.mode);
    EXPECT_EQ(h.power_control, s.power_control);
    EXPECT_EQ(h.autosuspend_ms, s.autosuspend_delay_ms.value_or(-1));
}

} // namespace

TEST(BusTrial, StepsDownPastCrcAndAFailedSwitchToTheFastestCleanMode)
{
    Faults f;
    f.crc_per_read[Mode::sdr104] = 2;
    f.switch_fails.insert(Mode::ddr50);
    ModelHost h(uhs_caps, 0, uhs_card, f);
    ASSERT_EQ(h.mode(), Mode::sdr104);
    const auto plan = plan_for(h);
    TempDir d;
    const auto run = run_trials(h, plan, options(d));
    // DDR50's switch fails: the kernel falls back to SDR50 (100 MHz), which ios shows.
    const std::vector<std::pair<std::string, std::string>> want{
        {"SDR104", "err_stats: DATA_CRC +16"},
        {"DDR50", "the switch failed: ios shows SDR50 at 100 MHz, asked DDR50"},
        {"SDR50", "clean"},
    };
    EXPECT_EQ(verdicts(run), want);
    ASSERT_TRUE(run.chosen);
    EXPECT_EQ(run.trials[*run.chosen].mode, Mode::sdr50);
    // 100 MHz x 4 bits / 8 x 80 % = 40 MB/s, beside SDR104's 83.2 before.
    EXPECT_NEAR(*run.trials[*run.chosen].mb_s, 40.0, 1e-9);
    EXPECT_NEAR(*run.before_mb_s, 83.2, 1e-9);
    ASSERT_TRUE(run.restored);
    EXPECT_TRUE(run.restored->done) << run.restored->errors.front();
    EXPECT_EQ(run.restored->ios_mode, "SDR104");
    expect_as_started(h, run.start);
    EXPECT_FALSE(fs::exists(options(d).state_file)) << "removed once put back";
}

TEST(BusTrial, AClockStepWhereTheLogShowedCrcErrors)
{
    Faults f;
    f.clean_below_hz[Mode::sdr104] = 160'000'000;
    ModelHost h(uhs_caps, 0, uhs_card, f);
    const auto plan = plan_for(h, {"[ 3.1] mmc0: Data CRC error"});
    ASSERT_EQ(plan.signal_errors.size(), 1u);
    TempDir d;
    const auto run = run_trials(h, plan, options(d));
    const std::vector<std::pair<std::string, std::string>> want{
        {"SDR104", "err_stats: DATA_CRC +8"},
        {"SDR104@156000000", "clean"},
    };
    EXPECT_EQ(verdicts(run), want);
    EXPECT_EQ(run.trials.back().clock_hz, 156'000'000u);
    EXPECT_TRUE(run.trials.back().ios_confirmed);
    expect_as_started(h, run.start);
    EXPECT_EQ(h.clock(), 208'000'000u) << "the clock put back";
}

TEST(BusTrial, KernelLogLinesAndDataMismatchReject)
{
    Faults f;
    f.log_crc_lines.insert(Mode::sdr104);
    f.corrupt_reads.insert(Mode::ddr50);
    ModelHost h(uhs_caps, 0, uhs_card, f);
    const auto plan = plan_for(h);
    TempDir d;
    const auto run = run_trials(h, plan, options(d));
    const std::vector<std::pair<std::string, std::string>> want{
        {"SDR104", "kernel log: mmc0: Data CRC error"},
        {"DDR50", "data mismatch: a read differs from what the card held before"},
        {"SDR50", "clean"},
    };
    EXPECT_EQ(verdicts(run), want);
    EXPECT_EQ(run.trials[0].log_lines.size(), 8u);
    EXPECT_FALSE(run.trials[1].data_ok);
    expect_as_started(h, run.start);
}

TEST(BusTrial, TheStateFileIsWrittenBeforeTheFirstChange)
{
    ModelHost h(uhs_caps, 0, uhs_card, {});
    const auto plan = plan_for(h);
    TempDir d;
    const auto o = options(d);
    bool existed = false;
    HostSnapshot in_file;
    h.on_first_change = [&] {
        existed = fs::exists(o.state_file);
        if (existed) in_file = read_bus_state(o.state_file);
    };
    const auto run = run_trials(h, plan, o);
    ASSERT_TRUE(existed);
    EXPECT_EQ(in_file.caps, uhs_caps);
    EXPECT_EQ(in_file.clock_hz, 208'000'000u);
    EXPECT_EQ(in_file.power_control, "auto");
    EXPECT_EQ(in_file.mode, Mode::sdr104);
    // --undo's restore from the file puts back what a --keep left.
    ASSERT_TRUE(run.chosen);
    EXPECT_EQ(run.trials[*run.chosen].mode, Mode::sdr104);
}

TEST(BusTrial, KeepLeavesTheChosenModeAndUndoPutsTheStartBack)
{
    Faults f;
    f.crc_per_read[Mode::sdr104] = 1;
    ModelHost h(uhs_caps, 0, uhs_card, f);
    const auto plan = plan_for(h);
    TempDir d;
    auto o = options(d);
    o.keep = true;
    const auto run = run_trials(h, plan, o);
    ASSERT_TRUE(run.restored);
    EXPECT_TRUE(run.restored->kept);
    EXPECT_EQ(run.restored->ios_mode, "DDR50");
    EXPECT_EQ(h.mode(), Mode::ddr50);
    EXPECT_EQ(h.caps() & mmc::bus::caps_bit("AGGRESSIVE_PM"), 0u) << "AGGRESSIVE_PM as it was";
    EXPECT_EQ(h.power_control, "auto");
    ASSERT_TRUE(fs::exists(o.state_file)) << "kept for --undo";
    const auto restored = restore_host(h, read_bus_state(o.state_file), 10);
    EXPECT_TRUE(restored.done);
    expect_as_started(h, run.start);
}

TEST(BusTrial, AScratchRegionIsWrittenComparedAndPutBack)
{
    Faults f;
    f.corrupt_writes.insert(Mode::sdr104);
    ModelHost h(uhs_caps, 0, uhs_card, f);
    const auto before = h.data();
    const auto plan = plan_for(h);
    TempDir d;
    auto o = options(d);
    o.scratch = Region{8 << 20, 64 << 10};
    const auto run = run_trials(h, plan, o);
    ASSERT_GE(run.trials.size(), 2u);
    // SDR104's own write lands wrong; putting the data back (also in SDR104)
    // is read back wrong too: the trial ends on that, rejected.
    EXPECT_FALSE(run.trials[0].clean);
    EXPECT_EQ(run.trials[1].mode, Mode::ddr50);
    EXPECT_TRUE(run.trials[1].clean);
    EXPECT_TRUE(h.data() == before) << "the scratch region holds its own data again";
}

TEST(BusTrial, AHostThatFailsMidTrialIsPutBack)
{
    // The operation number of the first trial's caps2 write, from a run
    // without faults.
    ModelHost clean(uhs_caps, 0, uhs_card, {});
    const auto clean_plan = plan_for(clean);
    TempDir d0;
    (void)run_trials(clean, clean_plan, options(d0));
    const int caps2_at = static_cast<int>(std::find(clean.ops.begin(), clean.ops.end(), "caps2") - clean.ops.begin()) + 1;
    for (bool host_error : {false, true}) {
        Faults f;
        f.fail_at_op = caps2_at;
        f.fail_is_host_error = host_error;
        ModelHost h(uhs_caps, 0, uhs_card, f);
        const auto plan = plan_for(h);
        TempDir d;
        const auto run = run_trials(h, plan, options(d));
        if (host_error) {
            ASSERT_FALSE(run.trials.empty());
            EXPECT_EQ(run.trials[0].reason, "modelled failure at caps2");
        } else {
            EXPECT_EQ(run.failure, "modelled failure at caps2");
        }
        ASSERT_TRUE(run.restored);
        EXPECT_TRUE(run.restored->done);
        expect_as_started(h, run.start);
    }
}

TEST(BusTrial, AStopSignalAtEveryOperationLeavesTheHostAsItWas)
{
    // The operations of a whole run, counted once without a signal.
    Faults none;
    none.crc_per_read[Mode::sdr104] = 1;
    none.crc_per_read[Mode::ddr50] = 1;
    ModelHost whole(uhs_caps, 0, uhs_card, none);
    const auto plan = plan_for(whole);
    TempDir d0;
    (void)run_trials(whole, plan, options(d0));
    const int total = static_cast<int>(whole.ops.size());
    ASSERT_GT(total, 20);
    for (int at = 1; at <= total; ++at) {
        Faults f = none;
        f.stop_at_op = at;
        ModelHost h(uhs_caps, 0, uhs_card, f);
        h.ops.clear();
        TempDir d;
        auto o = options(d);
        o.stop = &h.stop;
        const auto run = run_trials(h, plan, o);
        SCOPED_TRACE("stop at operation " + std::to_string(at) + " (" + whole.ops[static_cast<std::size_t>(at - 1)] + ")");
        const bool last_ops = at > total - 8; // the put-back itself: the run had finished
        if (!last_ops) {
            EXPECT_TRUE(run.interrupted);
        }
        if (run.restored) {
            EXPECT_TRUE(run.restored->done);
        }
        expect_as_started(h, run.start);
    }
}

TEST(BusTrial, EveryTrialIsBoundedInTime)
{
    ModelHost h(uhs_caps, 0, uhs_card, {});
    const auto plan = plan_for(h, {}, {Mode::sdr25});
    TempDir d;
    auto o = options(d);
    o.trial_seconds = 0.1; // SDR25 reads 4 MiB at 20 MB/s: 0.2 s a pass
    const auto run = run_trials(h, plan, o);
    ASSERT_EQ(run.trials.size(), 1u);
    EXPECT_EQ(run.trials[0].reason, "did not finish within its time bound");
    expect_as_started(h, run.start);
}

TEST(BusTrial, WithoutAggressivePmNothingIsReinitialised)
{
    // The engine's own rule, held by the model: a re-initialisation only
    // happens with AGGRESSIVE_PM, so every trial's ios proves the switch.
    ModelHost h(uhs_caps, 0, uhs_card, {});
    h.set_caps(uhs_caps & ~mmc::bus::caps_bit("UHS_SDR104"));
    h.reinit(1, false);
    EXPECT_EQ(h.mode(), Mode::sdr104);
    h.set_caps((uhs_caps & ~mmc::bus::caps_bit("UHS_SDR104")) | mmc::bus::caps_bit("AGGRESSIVE_PM"));
    h.reinit(1, false);
    EXPECT_EQ(h.mode(), Mode::ddr50);
}

// The lab's finding (tests/lab/mmc-tune-bus.sh): the block driver's CRC line
// names the disk, and the line tying the disk to the host was printed long
// before a trial's mark. The live host keeps the tie lines in front of its
// window, so the line counts for the host, and for no other.
TEST(BusTrialLog, ADiskErrorLineCountsForItsHostThroughTheTieLinesKeptInFront)
{
    const std::string before = "[    1.20] mmcblk0: mmc0:4567 QEMU! 4.00 GiB\n"
                               "[    1.30] mmcblk1: mmc1:0001 ABCDE 1.00 GiB\n"
                               "[    2.00] EXT4-fs (vda): mounted\n";
    const std::string window = "[   90.00] mmcblk0: error -84 transferring data, sector 2048, nr 8, cmd response 0x900, card status 0x900\n";
    EXPECT_EQ(mmc::bus::disk_host_lines(before),
              "[    1.20] mmcblk0: mmc0:4567 QEMU! 4.00 GiB\n[    1.30] mmcblk1: mmc1:0001 ABCDE 1.00 GiB\n");
    EXPECT_TRUE(signal_error_lines(window, "mmc0").empty()) << "without the tie, the line is no host's";
    const auto lines = signal_error_lines(mmc::bus::disk_host_lines(before) + window, "mmc0");
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("error -84"), std::string::npos);
    EXPECT_TRUE(signal_error_lines(mmc::bus::disk_host_lines(before) + window, "mmc1").empty());
}
