// Discovery and name resolution over fixture trees: an SD card captured in
// the lab (sd-qemu), an eMMC on a device-tree board (emmc-cm4) and a card
// behind a USB reader (usb-reader). See tests/data/sysfs/.
#include "dev/discovery.h"
#include "dev/register_sources.h"

#include <algorithm>
#include "sysfs_fixture.h"

#include <gtest/gtest.h>

using namespace mmc::dev;

TEST(Discovery, ListsTheLabSdCard)
{
    const auto roots = sysfs_fixture("sd-qemu");
    const auto cards = list_cards(roots);
    ASSERT_EQ(cards.size(), 1u);
    const auto& c = cards[0];
    EXPECT_EQ(c.name, "mmc0:4567");
    EXPECT_EQ(c.rca, 0x4567);
    EXPECT_EQ(c.type, CardType::sd);
    EXPECT_EQ(c.product, "QEMU!");
    EXPECT_EQ(c.block, "mmcblk0");
    EXPECT_EQ(c.capacity_bytes, 4294967296u);
    EXPECT_EQ(c.host.name, "mmc0");
    EXPECT_EQ(c.host.controller.driver, "sdhci-pci");
    EXPECT_EQ(c.host.controller.pci_id, "1b36:0007");
    ASSERT_TRUE(c.host.ios);
    EXPECT_EQ(c.host.ios->timing, "sd high-speed");
    EXPECT_EQ(c.host.ios->actual_clock_hz, 26000000u);
    EXPECT_EQ(c.device_path(roots), "/dev/mmcblk0");
}

TEST(Discovery, EveryNameFormResolvesToTheSameCard)
{
    const auto roots = sysfs_fixture("sd-qemu");
    const std::string syspath = (roots.sysfs / "bus/mmc/devices/mmc0:4567").string();
    for (const std::string name : {"/dev/mmcblk0", "mmcblk0", "mmc0", "mmc0:4567", syspath.c_str()}) {
        const auto t = resolve(name, roots);
        ASSERT_TRUE(t.card) << name;
        EXPECT_EQ(t.card->name, "mmc0:4567") << name;
        EXPECT_EQ(t.host.name, "mmc0") << name;
        EXPECT_TRUE(t.partition.empty()) << name;
    }
}

TEST(Discovery, EmmcWithPartitionsAndBootAreas)
{
    const auto roots = sysfs_fixture("emmc-cm4");
    const auto t = resolve("mmcblk1p2", roots);
    ASSERT_TRUE(t.card);
    EXPECT_EQ(t.partition, "mmcblk1p2");
    EXPECT_EQ(t.card->type, CardType::mmc);
    EXPECT_EQ(t.card->rca, 0x0001);
    EXPECT_EQ(t.host.controller.compatible, "brcm,bcm2711-emmc2");
    EXPECT_EQ(t.host.controller.driver, "sdhci-iproc");
    ASSERT_EQ(t.card->partitions.size(), 4u);
    // User-area partitions first, then the boot areas.
    EXPECT_EQ(t.card->partitions[0].name, "mmcblk1p1");
    EXPECT_EQ(t.card->partitions[0].start_sector, 8192u);
    EXPECT_FALSE(t.card->partitions[0].boot_area);
    EXPECT_EQ(t.card->partitions[1].name, "mmcblk1p2");
    EXPECT_EQ(t.card->partitions[2].name, "mmcblk1boot0");
    EXPECT_TRUE(t.card->partitions[2].boot_area);
    EXPECT_EQ(t.card->partitions[2].bytes, 4u << 20);
    EXPECT_TRUE(t.card->partitions[2].read_only);
    const auto boot = resolve("/dev/mmcblk1boot0", roots);
    EXPECT_EQ(boot.card->name, "mmc1:0001");
}

TEST(Discovery, UsbReaderIsNamedAsSuch)
{
    const auto roots = sysfs_fixture("usb-reader");
    EXPECT_TRUE(list_cards(roots).empty());
    try {
        resolve("/dev/sda", roots);
        FAIL() << "resolved a USB disk";
    } catch (const ResolveError& e) {
        EXPECT_EQ(e.why, ResolveError::Why::not_mmc);
        EXPECT_NE(std::string(e.what()).find("USB"), std::string::npos) << e.what();
    }
}

TEST(Discovery, UnknownNamesAreNotFound)
{
    const auto roots = sysfs_fixture("sd-qemu");
    for (const std::string name : {"mmcblk9", "mmc7", "mmc0:1234", "/dev/nonexistent", ""}) {
        try {
            resolve(name, roots);
            FAIL() << "resolved " << name;
        } catch (const ResolveError& e) {
            EXPECT_EQ(e.why, ResolveError::Why::not_found) << name << ": " << e.what();
        }
    }
}

TEST(RegisterSources, FixtureTreeUsesSysfsAndDebugfsAndSaysWhy)
{
    const auto roots = sysfs_fixture("emmc-cm4");
    const auto card = resolve("mmc1:0001", roots).card;
    const auto g = gather_registers(*card, roots, {true});
    std::map<mmc::regs::RegKind, std::string> source;
    for (const auto& r : g.registers) source[r.kind] = r.source;
    EXPECT_EQ(source[mmc::regs::RegKind::cid], "sysfs");
    EXPECT_EQ(source[mmc::regs::RegKind::csd], "sysfs");
    EXPECT_EQ(source[mmc::regs::RegKind::ext_csd], "debugfs");
    EXPECT_EQ(source[mmc::regs::RegKind::status], "debugfs");
    EXPECT_EQ(source.count(mmc::regs::RegKind::scr), 0u); // SD only
    bool noted = false;
    for (const auto& n : g.notes) noted = noted || n.find("ext_csd: CMD8 not sent (fixture tree)") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST(RegisterSources, SdCardFromSysfsWhenIoctlIsOff)
{
    const auto roots = sysfs_fixture("sd-qemu");
    const auto card = resolve("mmcblk0", roots).card;
    const auto g = gather_registers(*card, roots, {false});
    std::set<mmc::regs::RegKind> kinds;
    for (const auto& r : g.registers) {
        kinds.insert(r.kind);
        EXPECT_NE(r.source, "ioctl");
    }
    EXPECT_TRUE(kinds.count(mmc::regs::RegKind::cid));
    EXPECT_TRUE(kinds.count(mmc::regs::RegKind::csd));
    EXPECT_TRUE(kinds.count(mmc::regs::RegKind::scr));
    // The fixture's sysfs SSR is all zeros (Linux's copy when its ACMD13
    // failed): one rule for every tool, it is not used and a note says so.
    EXPECT_FALSE(kinds.count(mmc::regs::RegKind::ssr));
    EXPECT_NE(std::find(g.notes.begin(), g.notes.end(), "ssr: the sysfs copy is all zeros; not used"), g.notes.end());
    EXPECT_EQ(g.zero_copies, (std::vector<std::string>{"ssr from sysfs"})) << "the fact, typed, beside the note";
    EXPECT_TRUE(kinds.count(mmc::regs::RegKind::ocr));
    EXPECT_TRUE(kinds.count(mmc::regs::RegKind::status));
    EXPECT_FALSE(kinds.count(mmc::regs::RegKind::switch_status)); // only by ioctl
}
