// The device-source option group and its one debugfs rule.
#include "cli/device_sources.h"
#include "dev/sysfs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using mmc::cli::DeviceSources;
using mmc::dev::SysRoots;

// The roots a tool reads after the given options, in order.
SysRoots roots_after(std::vector<std::pair<int, const char*>> given)
{
    DeviceSources s;
    for (const auto& [c, arg] : given) EXPECT_TRUE(s.take(c, arg));
    return s.roots<SysRoots>();
}

TEST(CliDeviceSources, LiveDefaultsWithoutOptions)
{
    const SysRoots r = roots_after({});
    EXPECT_EQ(r.sysfs, "/sys");
    EXPECT_EQ(r.debugfs, "/sys/kernel/debug");
    EXPECT_EQ(r.dev, "/dev");
}

TEST(CliDeviceSources, FixtureTreeKeepsItsDebugfsInside)
{
    const SysRoots r = roots_after({{mmc::cli::opt_sysfs_root, "/tmp/tree/sys"}});
    EXPECT_EQ(r.sysfs, "/tmp/tree/sys");
    EXPECT_EQ(r.debugfs, "/tmp/tree/sys/kernel/debug");
}

TEST(CliDeviceSources, ExplicitDebugfsWinsInEitherOrder)
{
    for (const bool debugfs_first : {false, true}) {
        std::vector<std::pair<int, const char*>> given{{mmc::cli::opt_sysfs_root, "/tmp/tree/sys"},
                                                       {mmc::cli::opt_debugfs_root, "/tmp/elsewhere"}};
        if (debugfs_first) std::reverse(given.begin(), given.end());
        const SysRoots r = roots_after(given);
        EXPECT_EQ(r.sysfs, "/tmp/tree/sys");
        EXPECT_EQ(r.debugfs, "/tmp/elsewhere");
    }
}

TEST(CliDeviceSources, ExplicitDebugfsOnTheLiveSystem)
{
    const SysRoots r = roots_after({{mmc::cli::opt_debugfs_root, "/mnt/debug"}});
    EXPECT_EQ(r.sysfs, "/sys");
    EXPECT_EQ(r.debugfs, "/mnt/debug");
}

TEST(CliDeviceSources, LiveSysfsRootGivenKeepsLiveDebugfs)
{
    const SysRoots r = roots_after({{mmc::cli::opt_sysfs_root, "/sys"}});
    EXPECT_EQ(r.debugfs, "/sys/kernel/debug");
}

TEST(CliDeviceSources, LastSysfsRootCounts)
{
    const SysRoots r = roots_after({{mmc::cli::opt_sysfs_root, "/a"}, {mmc::cli::opt_sysfs_root, "/b"}});
    EXPECT_EQ(r.sysfs, "/b");
    EXPECT_EQ(r.debugfs, "/b/kernel/debug");
}

TEST(CliDeviceSources, KeepsWhatTheToolSetOtherwise)
{
    SysRoots base;
    base.dev = "/tmp/tree/dev";
    DeviceSources s;
    ASSERT_TRUE(s.take(mmc::cli::opt_sysfs_root, "/tmp/tree/sys"));
    const SysRoots r = s.roots(base);
    EXPECT_EQ(r.dev, "/tmp/tree/dev");
    EXPECT_EQ(r.debugfs, "/tmp/tree/sys/kernel/debug");
}

TEST(CliDeviceSources, NoIoctl)
{
    DeviceSources s;
    EXPECT_TRUE(s.use_ioctl);
    EXPECT_TRUE(s.take(mmc::cli::opt_no_ioctl, nullptr));
    EXPECT_FALSE(s.use_ioctl);
}

TEST(CliDeviceSources, OtherOptionsAreNotTaken)
{
    DeviceSources s;
    EXPECT_FALSE(s.take('J', nullptr));
    EXPECT_FALSE(s.take(256, "x"));
    EXPECT_FALSE(s.sysfs_root);
    EXPECT_TRUE(s.use_ioctl);
}

std::vector<std::string> names(const std::vector<option>& table)
{
    std::vector<std::string> out;
    for (const auto& o : table)
        if (o.name) out.push_back(o.name);
    return out;
}

TEST(CliDeviceSources, TableHoldsTheToolsOptionsThenTheGroupsThenTheEnd)
{
    const auto all = mmc::cli::with_device_sources({{"json", no_argument, nullptr, 'J'}}, {.debugfs_root = true});
    EXPECT_EQ(names(all), (std::vector<std::string>{"json", "no-ioctl", "sysfs-root", "debugfs-root"}));
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.back().name, nullptr);
    EXPECT_EQ(all.back().val, 0);

    EXPECT_EQ(names(mmc::cli::with_device_sources({})), (std::vector<std::string>{"no-ioctl", "sysfs-root"}));
    EXPECT_EQ(names(mmc::cli::with_device_sources({}, {.no_ioctl = false})), (std::vector<std::string>{"sysfs-root"}));
}

TEST(CliDeviceSources, GroupValuesDoNotMeetTheToolsOwn)
{
    // Tools number their long-only options from 256; short ones are chars.
    for (const int v : {mmc::cli::opt_no_ioctl, mmc::cli::opt_sysfs_root, mmc::cli::opt_debugfs_root}) EXPECT_GE(v, 0x1000);
}


// A child tool's arguments (mmc-qualify's children) read back by that tool
// give the roots the parent reads: arguments() is roots()'s inverse.
SysRoots parsed_back(const std::vector<std::string>& args, bool& use_ioctl)
{
    static const auto table = mmc::cli::with_device_sources({}, {true, true, true});
    std::vector<std::string> words = {"child"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    DeviceSources s;
    optind = 0; // re-initialise getopt for this argv
    opterr = 0;
    for (int c; (c = getopt_long(static_cast<int>(words.size()), argv.data(), "", table.data(), nullptr)) != -1;)
        EXPECT_TRUE(s.take(c, optarg)) << "an argument the group does not take";
    EXPECT_EQ(optind, static_cast<int>(words.size())) << "every argument is an option of the group";
    use_ioctl = s.use_ioctl;
    return s.roots<SysRoots>();
}

TEST(CliDeviceSources, AChildsArgumentsGiveItTheParentsRoots)
{
    SysRoots fixture;
    fixture.sysfs = "/tmp/tree";
    fixture.debugfs = "/tmp/tree/kernel/debug";
    SysRoots own_debugfs = fixture;
    own_debugfs.debugfs = "/tmp/dbg";
    SysRoots live_with_debugfs;
    live_with_debugfs.debugfs = "/tmp/dbg";
    for (const SysRoots& r : {SysRoots{}, fixture, own_debugfs, live_with_debugfs})
        for (const bool ioctl : {true, false}) {
            const auto args = DeviceSources::of(ioctl, r).arguments({true, true, true});
            bool back_ioctl = !ioctl;
            const SysRoots back = parsed_back(args, back_ioctl);
            EXPECT_EQ(back.sysfs, r.sysfs);
            EXPECT_EQ(back.debugfs, r.debugfs);
            EXPECT_EQ(back_ioctl, ioctl);
        }
}

TEST(CliDeviceSources, AChildsArgumentsSayOnlyWhatDiffersFromTheLiveSystem)
{
    EXPECT_TRUE(DeviceSources::of(true, SysRoots{}).arguments().empty());
    SysRoots fixture;
    fixture.sysfs = "/tmp/tree";
    fixture.debugfs = "/tmp/tree/kernel/debug";
    EXPECT_EQ(DeviceSources::of(false, fixture).arguments({true, true, true}),
              (std::vector<std::string>{"--no-ioctl", "--sysfs-root", "/tmp/tree"}))
        << "the fixture's own debugfs follows from the rule: not given";
    SysRoots own = fixture;
    own.debugfs = "/tmp/dbg";
    EXPECT_EQ(DeviceSources::of(true, own).arguments({false, true, false}), (std::vector<std::string>{"--sysfs-root", "/tmp/tree"}))
        << "only the options the child takes";
}

} // namespace
