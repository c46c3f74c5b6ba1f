// The plan: which steps of the table run, and what it says about them. A
// plan is made without running anything (the dry run).
#include "qualify/plan.h"
#include "qualify/steps.h"

#include <gtest/gtest.h>

using namespace mmc::qualify;
using mmc::bench::Suite;

namespace {

StepSpec fake(const std::string& name, Needs needs, int* runs)
{
    StepSpec s;
    s.name = name;
    s.tool = "fake";
    s.needs = needs;
    s.describe = [name](const Settings& st) { return name + " on " + st.device; };
    s.run = [runs](StepContext&) {
        ++*runs;
        return StepResult{};
    };
    return s;
}

std::vector<std::string> names(const Plan& p)
{
    std::vector<std::string> n;
    for (const auto& s : p.steps) n.push_back(s.spec.name);
    return n;
}

} // namespace

TEST(QualifyPlan, DestructiveStepsOnlyWithDestructive)
{
    int runs = 0;
    const std::vector<StepSpec> table = {fake("info", Needs::always, &runs), fake("erase", Needs::destructive, &runs),
                                         fake("bench", Needs::always, &runs)};
    Settings s;
    s.device = "/dev/mmcblk0";
    const auto ro = make_plan(table, s);
    EXPECT_EQ(names(ro), (std::vector<std::string>{"info", "bench"}));
    EXPECT_EQ(ro.left_out, (std::vector<std::string>{"erase"}));
    s.destructive = true;
    const auto rw = make_plan(table, s);
    EXPECT_EQ(names(rw), (std::vector<std::string>{"info", "erase", "bench"}));
    EXPECT_TRUE(rw.left_out.empty());
    EXPECT_EQ(runs, 0) << "making a plan runs no step";
}

TEST(QualifyPlan, TextAndJsonSayWhatEachStepDoes)
{
    int runs = 0;
    Settings s;
    s.device = "mmcblk1";
    const auto p = make_plan({fake("info", Needs::always, &runs), fake("erase", Needs::destructive, &runs)}, s);
    const auto text = plan_text(p);
    EXPECT_NE(text.find("Plan for mmcblk1 (read-only)"), std::string::npos) << text;
    EXPECT_NE(text.find("1. info  info on mmcblk1"), std::string::npos) << text;
    EXPECT_NE(text.find("Not without --destructive: erase."), std::string::npos) << text;
    const auto j = plan_json(p);
    EXPECT_EQ(j["steps"].size(), 1u);
    EXPECT_EQ(j["steps"][0]["what"], "info on mmcblk1");
    EXPECT_EQ(j["left_out"][0], "erase");
    EXPECT_EQ(runs, 0);
}

TEST(QualifyPlan, TheTableIsIdentifyBusHealthGeometryEraseCapacitySuitesState)
{
    Settings s;
    s.device = "/nonexistent/mmcblk9";
    s.destructive = true;
    s.suites = {Suite::quick, Suite::a1};
    const auto p = make_plan(step_table(s), s);
    EXPECT_EQ(names(p), (std::vector<std::string>{"info", "bus", "health", "geometry", "erase", "capacity", "bench-quick", "bench-a1", "bench-state"}));
    EXPECT_NE(p.steps[2].what.find("mmc-health -J /nonexistent/mmcblk9: reads wear"), std::string::npos) << p.steps[2].what;
    EXPECT_NE(p.steps[3].what.find("mmc-probe geometry -J /nonexistent/mmcblk9: "), std::string::npos) << p.steps[3].what;
    // The erase cannot be planned on a device that is not there: the plan says so rather than failing.
    EXPECT_NE(p.steps[4].what.find("cannot plan it now"), std::string::npos) << p.steps[4].what;
    EXPECT_NE(p.steps[5].what.find("mmc-probe capacity -J --yes /nonexistent/mmcblk9: WRITES"), std::string::npos) << p.steps[5].what;
    EXPECT_NE(p.steps[6].what.find("READS AND WRITES the first 64 MiB"), std::string::npos) << p.steps[6].what;
    EXPECT_NE(p.steps[8].what.find("suite state"), std::string::npos) << p.steps[8].what;
    // --suites state is the state step, not a second one.
    s.suites = {Suite::state, Suite::quick};
    EXPECT_EQ(names(make_plan(step_table(s), s)),
              (std::vector<std::string>{"info", "bus", "health", "geometry", "erase", "capacity", "bench-quick", "bench-state"}));
    s.destructive = false;
    s.suites = default_suites(false);
    const auto ro = make_plan(step_table(s), s);
    EXPECT_EQ(names(ro), (std::vector<std::string>{"info", "bus", "health", "geometry", "bench-quick"}));
    EXPECT_EQ(ro.left_out, (std::vector<std::string>{"erase", "capacity", "bench-state"}));
    EXPECT_NE(ro.steps[4].what.find(": reads the first"), std::string::npos) << ro.steps[4].what;
    // The run's register sources reach the child tool; --any-device only where it writes.
    s.use_ioctl = false;
    s.any_device = true;
    s.roots.sysfs = "/tmp/tree";
    s.destructive = true;
    const auto fx = make_plan(step_table(s), s);
    EXPECT_NE(fx.steps[2].what.find("mmc-health -J --no-ioctl --sysfs-root /tmp/tree /nonexistent/mmcblk9:"), std::string::npos)
        << fx.steps[2].what;
    EXPECT_NE(fx.steps[3].what.find("geometry -J --no-ioctl --sysfs-root /tmp/tree /nonexistent/mmcblk9:"), std::string::npos)
        << fx.steps[3].what;
    EXPECT_NE(fx.steps[5].what.find("capacity -J --yes --no-ioctl --sysfs-root /tmp/tree --any-device /nonexistent/mmcblk9:"),
              std::string::npos)
        << fx.steps[5].what;
}

TEST(QualifyPlan, DefaultSuites)
{
    EXPECT_EQ(default_suites(false), (std::vector<Suite>{Suite::quick}));
    EXPECT_EQ(default_suites(true), (std::vector<Suite>{Suite::quick, Suite::iozone, Suite::a1}));
}

// --tune: mmc-tune bus and queue, last; the bus plans only (-n)
// unless --apply asks for the trials (confirmed once by mmc-qualify: --yes
// to the child), --keep keeps what they chose; the run's device sources,
// all three, reach mmc-tune (cli::DeviceSources::arguments).
TEST(QualifyPlan, TuneStepsComeLastWithTheRunsSources)
{
    Settings s;
    s.device = "mmcblk0";
    s.suites = default_suites(false);
    EXPECT_EQ(names(make_plan(step_table(s), s)).back(), "bench-quick") << "no tuning without --tune";
    s.tune = true;
    s.use_ioctl = false;
    s.roots.sysfs = "/tmp/tree";
    s.roots.debugfs = "/tmp/dbg";
    s.any_device = true;
    auto p = make_plan(step_table(s), s);
    ASSERT_EQ(names(p), (std::vector<std::string>{"info", "bus", "health", "geometry", "bench-quick", "tune-bus", "tune-queue"}));
    EXPECT_FALSE(p.changes_host);
    EXPECT_EQ(p.steps[5].spec.tool, "mmc-tune");
    EXPECT_EQ(p.steps[5].spec.part, BundlePart::tune);
    EXPECT_EQ(p.steps[5].what, "mmc-tune bus -J -n --no-ioctl --sysfs-root /tmp/tree --debugfs-root /tmp/dbg mmcblk0: "
                               "plans the bus modes card and host share (changes nothing)");
    EXPECT_EQ(p.steps[6].what.substr(0, p.steps[6].what.find(':')),
              "mmc-tune queue -J --sysfs-root /tmp/tree --any-device mmcblk0")
        << "the queue reads sysfs only: it takes no --no-ioctl or --debugfs-root";
    s.tune_apply = true;
    p = make_plan(step_table(s), s);
    EXPECT_TRUE(p.changes_host);
    EXPECT_NE(plan_text(p).find("(read-only; CHANGES the host's bus mode for the trials)"), std::string::npos) << plan_text(p);
    EXPECT_EQ(p.steps[5].what.substr(0, p.steps[5].what.find(" --no-ioctl")), "mmc-tune bus -J --apply --yes");
    EXPECT_EQ(p.steps[6].what.substr(0, p.steps[6].what.find(" --sysfs-root")), "mmc-tune queue -J") << "the queue's --apply keeps: only with --keep";
    s.tune_keep = true;
    p = make_plan(step_table(s), s);
    EXPECT_EQ(p.steps[5].what.substr(0, p.steps[5].what.find(" --no-ioctl")), "mmc-tune bus -J --apply --yes --keep");
    EXPECT_EQ(p.steps[6].what.substr(0, p.steps[6].what.find(" --sysfs-root")), "mmc-tune queue -J --apply --yes");
    EXPECT_EQ(plan_json(p)["changes_host"], true);
}
