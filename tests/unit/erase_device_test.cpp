// Finding the erase target in fixture trees (no card commands): the lab's SD
// card, an eMMC partition with its disk and bounds, an eMMC boot area, and a
// card behind a USB reader (refused without --any-device).
#include "erase/device.h"
#include "erase/erase.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace mmc::erase;
using mmc::regs::CardFamily;

namespace {
struct Fixture {
    mmc::dev::ResolveOptions resolve;
    bool any_device = false;
};

Fixture fixture(const std::string& name, bool any_device = false)
{
    Fixture f;
    f.resolve.roots.sysfs = "tests/data/sysfs/" + name + "/sys";
    f.resolve.roots.debugfs = f.resolve.roots.sysfs / "kernel" / "debug";
    f.resolve.proc = "tests/data/sysfs/no-such-proc"; // no mounts: the machine's own must not decide a test
    f.resolve.any_device = any_device;
    return f;
}

// The erase target of a name, as erase::prepare finds it (no card commands).
Target find_target(const std::string& name, const Fixture& f)
{
    return erase_target(mmc::dev::resolve_device(name, mmc::dev::Purpose::erase, f.resolve), f.resolve.roots, false);
}

// erase::prepare's options over a fixture tree.
Options prepare_options(const Fixture& f)
{
    Options o;
    o.roots = f.resolve.roots;
    o.safety.proc = f.resolve.proc;
    o.any_device = f.resolve.any_device;
    o.use_ioctl = false;
    return o;
}
} // namespace

TEST(EraseDevice, LabSdCardFromSysfs)
{
    for (const std::string name : {"/dev/mmcblk0", "mmcblk0", "mmc0", "mmc0:4567"}) {
        const auto t = find_target(name, fixture("sd-qemu"));
        EXPECT_EQ(t.path, "/dev/mmcblk0") << name;
        EXPECT_EQ(t.disk, "mmcblk0") << name;
        EXPECT_FALSE(t.is_partition);
        EXPECT_EQ(t.size, 4294967296u);
        EXPECT_EQ(t.rca, 0x4567);
        ASSERT_TRUE(t.card);
        EXPECT_EQ(t.card->product, "QEMU!");
        EXPECT_EQ(t.card->serial, "0xdeadbeef");
        const auto& c = t.caps;
        EXPECT_EQ(c.family, CardFamily::sd);
        EXPECT_FALSE(c.raw_channel);
        EXPECT_EQ(c.raw_unavailable, "card commands turned off");
        EXPECT_EQ(c.preferred_erase_bytes, 4194304u);
        EXPECT_EQ(c.discard_max_bytes, 4194304u);
        EXPECT_EQ(c.discard_granularity, 4194304u);
        EXPECT_TRUE(c.erase_class);
        EXPECT_EQ(c.erased_byte, std::optional<uint8_t>(0x00));
        // The sysfs SSR copy is all zeros: not used, and said so.
        EXPECT_FALSE(c.ssr);
        EXPECT_TRUE(std::any_of(t.notes.begin(), t.notes.end(), [](const std::string& n) {
            return n == "ssr: the sysfs copy is all zeros; not used";
        })) << ::testing::PrintToString(t.notes);
    }
}

TEST(EraseDevice, EmmcPartitionResolvesToItsDiskAndBounds)
{
    const auto t = find_target("mmcblk1p2", fixture("emmc-cm4"));
    EXPECT_TRUE(t.is_partition);
    EXPECT_EQ(t.name, "mmcblk1p2");
    EXPECT_EQ(t.disk, "mmcblk1");
    EXPECT_EQ(t.disk_path, "/dev/mmcblk1");
    EXPECT_EQ(t.start, uint64_t{532480} * 512);
    EXPECT_EQ(t.size, uint64_t{121610240} * 512);
    EXPECT_EQ(t.caps.family, CardFamily::mmc);
    // EXT_CSD from debugfs: SEC_FEATURE_SUPPORT 0x55, 4 MiB HC erase groups.
    EXPECT_TRUE(t.caps.have_ext_csd);
    EXPECT_EQ(t.caps.sec_feature_support, 0x55);
    EXPECT_EQ(t.caps.hc_erase_group_bytes, 4u * 1024 * 1024);
    EXPECT_TRUE(t.caps.block_addressed);
}

TEST(EraseDevice, EmmcBootAreaHasNoRawCommands)
{
    const auto t = find_target("mmcblk1boot0", fixture("emmc-cm4"));
    EXPECT_EQ(t.disk, "mmcblk1boot0");
    EXPECT_FALSE(t.caps.raw_channel);
    EXPECT_NE(t.caps.raw_unavailable.find("boot area"), std::string::npos) << t.caps.raw_unavailable;
}

TEST(EraseDevice, UsbReaderNeedsAnyDevice)
{
    // erase::prepare refuses it with the resolver's words, less the device
    // name (the tool puts it before every erase error), and erase's remedy.
    try {
        prepare("/dev/sda", {}, Method::automatic, prepare_options(fixture("usb-reader")));
        FAIL() << "a USB reader was accepted";
    } catch (const TargetError& e) {
        EXPECT_EQ(e.why, TargetError::Why::not_mmc);
        EXPECT_EQ(std::string(e.what()).rfind("not an MMC/SD device: sda is on USB", 0), 0u) << e.what();
        EXPECT_EQ(e.remedy, mmc::cli::Remedy::any_device_erase);
    }
    const auto t = find_target("/dev/sda", fixture("usb-reader", true));
    EXPECT_FALSE(t.caps.family);
    EXPECT_FALSE(t.card);
    EXPECT_NE(t.not_mmc.find("USB"), std::string::npos);
    EXPECT_EQ(t.caps.kind, "on USB (a card reader? USB mass storage cannot reach the card's registers)");
    EXPECT_EQ(t.size, uint64_t{62333952} * 512);
    EXPECT_EQ(t.siblings, (std::vector<std::string>{"sda1"}));
}

TEST(EraseDevice, MissingDevice)
{
    try {
        prepare("/dev/mmcblk9", {}, Method::automatic, prepare_options(fixture("sd-qemu")));
        FAIL();
    } catch (const TargetError& e) {
        EXPECT_EQ(e.why, TargetError::Why::not_found);
        EXPECT_STREQ(e.what(), "no such device");
    }
}
