// Kernel uevent messages as they arrive on NETLINK_KOBJECT_UEVENT (NUL
// separated), udev's rebroadcasts skipped, malformed ones rejected, and the
// filter that keeps cards, hosts and mmcblk devices.
#include "dev/uevent.h"

#include <gtest/gtest.h>
#include <string>
#include <system_error>

using namespace mmc::dev;
using namespace std::string_literals;

namespace {

const std::string card_path = "/devices/pci0000:00/0000:00:04.0/mmc_host/mmc0/mmc0:4567";

std::optional<Uevent> parse(const std::string& msg)
{
    return parse_uevent({msg.data(), msg.size()});
}

Uevent event(std::string subsystem, std::string devname = "")
{
    Uevent e;
    e.action = "add";
    e.devpath = "/devices/x";
    e.subsystem = std::move(subsystem);
    e.devname = std::move(devname);
    return e;
}

} // namespace

TEST(Uevent, ParsesAnSdCardAdd)
{
    const auto msg = "add@" + card_path + "\0ACTION=add\0DEVPATH="s + card_path +
                     "\0SUBSYSTEM=mmc\0MMC_TYPE=SD\0MMC_NAME=QEMU!\0MODALIAS=mmc:block\0SEQNUM=1234\0"s;
    const auto e = parse(msg);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->action, "add");
    EXPECT_EQ(e->devpath, card_path);
    EXPECT_EQ(e->subsystem, "mmc");
    EXPECT_EQ(e->devname, "");
    EXPECT_EQ(e->devtype, "");
    ASSERT_TRUE(e->seqnum);
    EXPECT_EQ(*e->seqnum, 1234u);
    EXPECT_EQ(e->env.at("MMC_TYPE"), "SD");
    EXPECT_EQ(e->env.at("MMC_NAME"), "QEMU!");
    EXPECT_EQ(e->env.at("MODALIAS"), "mmc:block");
    EXPECT_EQ(e->env.at("ACTION"), "add");
    EXPECT_EQ(e->env.at("DEVPATH"), card_path);
    EXPECT_EQ(e->env.size(), 7u);
}

TEST(Uevent, ParsesABlockDeviceWithDevnameAndDevtype)
{
    const auto path = card_path + "/block/mmcblk0";
    const auto msg = "remove@" + path + "\0ACTION=remove\0DEVPATH="s + path +
                     "\0SUBSYSTEM=block\0MAJOR=179\0MINOR=0\0DEVNAME=mmcblk0\0DEVTYPE=disk\0DISKSEQ=9\0SEQNUM=1240\0"s;
    const auto e = parse(msg);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->action, "remove");
    EXPECT_EQ(e->devpath, path);
    EXPECT_EQ(e->subsystem, "block");
    EXPECT_EQ(e->devname, "mmcblk0");
    EXPECT_EQ(e->devtype, "disk");
    EXPECT_EQ(e->env.at("MAJOR"), "179");
    EXPECT_EQ(e->seqnum, 1240u);
    EXPECT_TRUE(is_mmc_event(*e));
}

TEST(Uevent, ParsesBindAndUnbindOfTheCardDriver)
{
    const auto bind = parse("bind@" + card_path + "\0ACTION=bind\0DEVPATH="s + card_path +
                            "\0SUBSYSTEM=mmc\0DRIVER=mmcblk\0MMC_TYPE=SD\0SEQNUM=7\0"s);
    ASSERT_TRUE(bind);
    EXPECT_EQ(bind->action, "bind");
    EXPECT_EQ(bind->env.at("DRIVER"), "mmcblk");
    const auto unbind = parse("unbind@" + card_path + "\0ACTION=unbind\0SUBSYSTEM=mmc\0SEQNUM=6\0"s);
    ASSERT_TRUE(unbind);
    EXPECT_EQ(unbind->action, "unbind");
    EXPECT_EQ(unbind->env.count("DRIVER"), 0u);
}

TEST(Uevent, ToleratesAMissingFinalNulAndEmptyEntries)
{
    const auto e = parse("change@/devices/virtual/x\0\0SUBSYSTEM=mmc_host\0\0SEQNUM=5"s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->subsystem, "mmc_host");
    EXPECT_EQ(e->seqnum, 5u);
    EXPECT_EQ(e->env.size(), 2u);
}

TEST(Uevent, HeaderAloneIsAnEventWithoutVariables)
{
    const auto e = parse("add@/module/mmc_core"s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->devpath, "/module/mmc_core");
    EXPECT_TRUE(e->env.empty());
    EXPECT_FALSE(e->seqnum);
}

TEST(Uevent, ValueKeepsEverythingAfterTheFirstEquals)
{
    const auto e = parse("add@/devices/x\0PARAM=a=b=c\0=nokey\0NOEQUALS\0SUBSYSTEM=mmc\0"s);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->env.at("PARAM"), "a=b=c");
    EXPECT_EQ(e->env.count(""), 0u);
    EXPECT_EQ(e->env.count("NOEQUALS"), 0u);
    EXPECT_EQ(e->env.size(), 2u);
}

TEST(Uevent, SeqnumThatIsNotANumberIsAbsent)
{
    EXPECT_FALSE(parse("add@/devices/x\0SEQNUM=12ab\0"s)->seqnum);
    EXPECT_FALSE(parse("add@/devices/x\0SEQNUM=\0"s)->seqnum);
    EXPECT_FALSE(parse("add@/devices/x\0SEQNUM=-1\0"s)->seqnum);
    EXPECT_FALSE(parse("add@/devices/x\0SEQNUM=99999999999999999999999\0"s)->seqnum);
    EXPECT_EQ(parse("add@/devices/x\0SEQNUM=18446744073709551615\0"s)->seqnum, 18446744073709551615u);
}

TEST(Uevent, LibudevRebroadcastIsSkipped)
{
    // udev's header: "libudev\0", magic 0xfeedcafe, then offsets and the properties.
    const auto msg = "libudev\0\xfe\xed\xca\xfe\x28\0\0\0\x28\0\0\0\x40\0\0\0"s
                     "ACTION=add\0DEVPATH="s + card_path + "\0SUBSYSTEM=mmc\0SEQNUM=1234\0"s;
    EXPECT_FALSE(parse(msg));
}

TEST(Uevent, MalformedMessagesAreRejected)
{
    EXPECT_FALSE(parse_uevent({}));
    EXPECT_FALSE(parse(""s));
    EXPECT_FALSE(parse("\0"s));
    EXPECT_FALSE(parse("\0add@/devices/x\0"s)) << "empty header";
    EXPECT_FALSE(parse("add/devices/x\0SUBSYSTEM=mmc\0"s)) << "no '@'";
    EXPECT_FALSE(parse("ACTION=add\0DEVPATH=/devices/x\0SUBSYSTEM=mmc\0"s)) << "no header";
    EXPECT_FALSE(parse("@/devices/x\0SUBSYSTEM=mmc\0"s)) << "empty action";
    EXPECT_FALSE(parse("add@\0SUBSYSTEM=mmc\0"s)) << "empty devpath";
    EXPECT_FALSE(parse("add@devices/x\0SUBSYSTEM=mmc\0"s)) << "relative devpath";
    EXPECT_FALSE(parse("libudev"s)) << "no '@'";
}

TEST(UeventFilter, KeepsCardsHostsRpmbAndMmcblkDevices)
{
    EXPECT_TRUE(is_mmc_event(event("mmc")));
    EXPECT_TRUE(is_mmc_event(event("mmc_host")));
    EXPECT_TRUE(is_mmc_event(event("mmc_rpmb", "mmcblk0rpmb")));
    EXPECT_TRUE(is_mmc_event(event("block", "mmcblk0")));
    EXPECT_TRUE(is_mmc_event(event("block", "mmcblk0p1")));
    EXPECT_TRUE(is_mmc_event(event("block", "mmcblk1boot0")));
    EXPECT_TRUE(is_mmc_event(event("block", "/dev/mmcblk0")));
}

TEST(UeventFilter, DropsEverythingElse)
{
    EXPECT_FALSE(is_mmc_event(event("block", "sda")));
    EXPECT_FALSE(is_mmc_event(event("block", "nullb0")));
    EXPECT_FALSE(is_mmc_event(event("block", "")));
    EXPECT_FALSE(is_mmc_event(event("block", "xmmcblk0")));
    EXPECT_FALSE(is_mmc_event(event("bdi", "mmcblk0"))) << "only block devices count by name";
    EXPECT_FALSE(is_mmc_event(event("pci")));
    EXPECT_FALSE(is_mmc_event(event("mmcx")));
    EXPECT_FALSE(is_mmc_event(event("")));
    auto e = event("pci");
    e.devpath = card_path; // the sdhci controller's own events name no mmc subsystem
    EXPECT_FALSE(is_mmc_event(e));
}

TEST(UeventFilter, ParsedMessagesFilterAsExpected)
{
    EXPECT_TRUE(is_mmc_event(*parse("add@" + card_path + "\0SUBSYSTEM=mmc\0"s)));
    EXPECT_TRUE(is_mmc_event(*parse("add@/devices/pci0000:00/0000:00:04.0/mmc_host/mmc0\0SUBSYSTEM=mmc_host\0"s)));
    EXPECT_FALSE(is_mmc_event(*parse("add@/devices/pci0000:00/0000:00:04.0\0SUBSYSTEM=pci\0DRIVER=sdhci-pci\0"s)));
    EXPECT_FALSE(is_mmc_event(*parse("add@/devices/virtual/block/loop0\0SUBSYSTEM=block\0DEVNAME=loop0\0"s)));
}

TEST(UeventListener, TimesOutWithoutHanging)
{
    std::optional<UeventListener> listener;
    try {
        listener.emplace();
    } catch (const std::system_error& e) {
        GTEST_SKIP() << "no uevent socket here: " << e.what();
    }
    EXPECT_GE(listener->fd(), 0);
    const auto start = std::chrono::steady_clock::now();
    // An event may arrive meanwhile; what matters is that the wait is bounded.
    (void)listener->next(std::chrono::milliseconds(50));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    UeventListener moved = std::move(*listener);
    EXPECT_EQ(listener->fd(), -1);
    EXPECT_GE(moved.fd(), 0);
}
