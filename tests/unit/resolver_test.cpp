// The one device resolver over the captured sysfs trees (tests/data/sysfs)
// and small trees built in a temporary directory: every form of name leads
// to the same disk, partition and card; each failure has its one wording,
// with the name as typed; the verdict of each purpose with its remedy.
#include "dev/discovery.h"
#include "dev/resolver.h"

#include "sysfs_fixture.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace mmc::dev;
using mmc::cli::Remedy;
using Why = DeviceError::Why;

namespace {

// The fixture's sysfs, and a /proc with no mounts (the machine's own mount
// table must not decide a test).
ResolveOptions fixture(const std::string& name, bool any_device = false)
{
    ResolveOptions o;
    o.roots = sysfs_fixture(name);
    o.proc = "tests/data/sysfs/no-such-proc";
    o.any_device = any_device;
    return o;
}

// The error resolving `typed` throws, as "why|what|remedy".
std::string failure(const std::string& typed, const ResolveOptions& o, Purpose purpose = Purpose::read)
{
    try {
        resolve_device(typed, purpose, o).require_allowed();
    } catch (const DeviceError& e) {
        EXPECT_EQ(e.typed, typed);
        return std::to_string(static_cast<int>(e.why)) + "|" + e.what() + "|" + std::string(mmc::cli::remedy_text(e.remedy));
    }
    return "resolved";
}

std::string expected(Why why, const std::string& what, Remedy remedy = Remedy::none)
{
    return std::to_string(static_cast<int>(why)) + "|" + what + "|" + std::string(mmc::cli::remedy_text(remedy));
}

// A temporary tree: sysfs with block devices and hosts laid out as the
// kernel does, and /proc.
class ResolverTree : public testing::Test {
protected:
    void SetUp() override
    {
        root_ = fs::temp_directory_path() / ("resolver." + std::to_string(::getpid()) + "." +
                                             testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        o_.roots.sysfs = root_ / "sys";
        o_.roots.debugfs = root_ / "sys/kernel/debug";
        o_.proc = root_ / "proc";
        fs::create_directories(o_.proc);
        fs::create_directories(o_.roots.sysfs / "class/block");
        fs::create_directories(o_.roots.sysfs / "dev/block");
        fs::create_directories(o_.roots.sysfs / "class/mmc_host");
    }
    void TearDown() override { fs::remove_all(root_); }

    void write(const fs::path& path, const std::string& text)
    {
        fs::create_directories(path.parent_path());
        std::ofstream(path) << text << "\n";
    }
    // A virtual disk, linked from class/block and dev/block as in sysfs.
    fs::path disk(const std::string& name, const std::string& devno)
    {
        const auto dir = o_.roots.sysfs / "devices/virtual/block" / name;
        write(dir / "dev", devno);
        write(dir / "size", "131072");
        write(dir / "ro", "0");
        fs::create_directories(dir / "holders");
        fs::create_directory_symlink(dir, o_.roots.sysfs / "class/block" / name);
        fs::create_directory_symlink(dir, o_.roots.sysfs / "dev/block" / devno);
        return dir;
    }

    fs::path root_;
    ResolveOptions o_;
};

} // namespace

TEST(DeviceResolver, EveryNameFormLeadsToTheSameDiskAndCard)
{
    const auto o = fixture("sd-qemu");
    const std::string card_dir = (o.roots.sysfs / "bus/mmc/devices/mmc0:4567").string();
    const std::string block_dir = (o.roots.sysfs / "class/block/mmcblk0").string();
    for (const std::string typed : {"/dev/mmcblk0", "mmcblk0", "mmc0", "mmc0:4567", card_dir.c_str(), block_dir.c_str()}) {
        const auto d = resolve_device(typed, Purpose::read, o);
        EXPECT_EQ(d.typed, typed);
        EXPECT_EQ(d.path, "/dev/mmcblk0") << typed;
        EXPECT_EQ(d.name, "mmcblk0") << typed;
        EXPECT_EQ(d.disk, "mmcblk0") << typed;
        EXPECT_EQ(d.disk_path, "/dev/mmcblk0") << typed;
        EXPECT_EQ(d.syspath.filename(), "mmcblk0") << typed;
        EXPECT_FALSE(d.is_partition) << typed;
        EXPECT_EQ(d.size, 4294967296u) << typed;
        EXPECT_EQ(d.disk_size, 4294967296u) << typed;
        EXPECT_TRUE(d.siblings.empty()) << typed;
        ASSERT_TRUE(d.card) << typed;
        EXPECT_EQ(d.card->name, "mmc0:4567") << typed;
        EXPECT_EQ(d.card->host.name, "mmc0") << typed;
        EXPECT_TRUE(d.not_mmc.empty()) << typed;
        EXPECT_TRUE(d.verdict.allowed) << typed;
    }
}

TEST(DeviceResolver, PartitionHasItsDiskBoundsAndSiblings)
{
    const auto d = resolve_device("/dev/mmcblk1p2", Purpose::read, fixture("emmc-cm4"));
    EXPECT_EQ(d.typed, "/dev/mmcblk1p2");
    EXPECT_EQ(d.path, "/dev/mmcblk1p2");
    EXPECT_TRUE(d.is_partition);
    EXPECT_EQ(d.name, "mmcblk1p2");
    EXPECT_EQ(d.disk, "mmcblk1");
    EXPECT_EQ(d.disk_path, "/dev/mmcblk1");
    EXPECT_EQ(d.disk_syspath.filename(), "mmcblk1");
    EXPECT_EQ(d.start, uint64_t{532480} * 512);
    EXPECT_EQ(d.size, uint64_t{121610240} * 512);
    EXPECT_EQ(d.siblings, (std::vector<std::string>{"mmcblk1", "mmcblk1p1"}));
    ASSERT_TRUE(d.card);
    EXPECT_EQ(d.card->name, "mmc1:0001");
}

TEST(DeviceResolver, BootAreaIsItsOwnDiskOnTheCard)
{
    const auto d = resolve_device("mmcblk1boot0", Purpose::read, fixture("emmc-cm4"));
    EXPECT_FALSE(d.is_partition);
    EXPECT_EQ(d.disk, "mmcblk1boot0");
    EXPECT_EQ(d.size, 4u << 20);
    ASSERT_TRUE(d.card);
    EXPECT_EQ(d.card->block, "mmcblk1");
}

TEST(DeviceResolver, NonMmcDeviceMayBeReadButWrittenOnlyWithAnyDevice)
{
    const auto o = fixture("usb-reader");
    const auto d = resolve_device("/dev/sda", Purpose::read, o);
    EXPECT_FALSE(d.card);
    EXPECT_EQ(d.not_mmc.rfind("sda is on USB (a card reader?", 0), 0u) << d.not_mmc;
    EXPECT_TRUE(d.verdict.allowed);
    EXPECT_EQ(d.size, uint64_t{62333952} * 512);

    const std::string why = "/dev/sda: not an MMC/SD device: " + d.not_mmc;
    EXPECT_EQ(failure("/dev/sda", o, Purpose::write), expected(Why::not_mmc, why, Remedy::any_device_write));
    EXPECT_EQ(failure("/dev/sda", o, Purpose::erase), expected(Why::not_mmc, why, Remedy::any_device_erase));
    EXPECT_EQ(failure("/dev/sda", o, Purpose::probe), expected(Why::not_mmc, why, Remedy::any_device_probe));
    EXPECT_TRUE(resolve_device("/dev/sda", Purpose::erase, fixture("usb-reader", true)).verdict.allowed);
}

TEST(DeviceResolver, MissingDevicesAreWordedOnceWithTheNameAsTyped)
{
    const auto o = fixture("sd-qemu");
    for (const std::string typed : {"mmcblk9", "/dev/mmcblk9", "mmc7", "mmc0:1234", "/nonexistent/disk",
                                    (o.roots.sysfs / "class/block/mmcblk9").string().c_str()})
        EXPECT_EQ(failure(typed, o), expected(Why::not_found, typed + ": no such device")) << typed;
    EXPECT_EQ(failure("", o), expected(Why::not_found, "empty device name"));
}

TEST(DeviceResolver, WhatIsNotABlockDeviceIsSaidSoNeverNotMmc)
{
    auto o = fixture("sd-qemu", true);
    const fs::path dir = fs::temp_directory_path() / ("resolver-dir." + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path file = dir / "image";
    std::ofstream(file) << "data";
    for (const std::string& typed : {dir.string(), file.string(), std::string("/dev/null"), (o.roots.sysfs / "kernel").string()})
        for (const Purpose p : {Purpose::read, Purpose::write, Purpose::erase, Purpose::probe})
            EXPECT_EQ(failure(typed, o, p), expected(Why::not_block, typed + ": not a block device")) << typed;
    // A tool that can measure a file says so; the others offer nothing.
    o.file_alternative = true;
    for (const fs::path& p : {file, dir})
        EXPECT_EQ(failure(p.string(), o, Purpose::write),
                  expected(Why::not_block, p.string() + ": not a block device", Remedy::use_file));
    EXPECT_EQ(failure("/dev/null", o, Purpose::write), expected(Why::not_block, "/dev/null: not a block device"));
    fs::remove_all(dir);
}

TEST(DeviceResolver, TheCardOnlyLookupWordsFailuresTheSameWay)
{
    // mmc-info and mmc-bus ask dev::resolve: a directory is not a block
    // device, not "not on an MMC host".
    const auto roots = sysfs_fixture("sd-qemu");
    try {
        resolve("/tmp", roots);
        FAIL() << "resolved /tmp";
    } catch (const ResolveError& e) {
        EXPECT_EQ(e.why, Why::not_block);
        EXPECT_STREQ(e.what(), "/tmp: not a block device");
    }
    try {
        resolve("/dev/sda", sysfs_fixture("usb-reader"));
        FAIL() << "resolved a USB disk";
    } catch (const ResolveError& e) {
        EXPECT_EQ(e.why, Why::not_mmc);
        EXPECT_EQ(std::string(e.what()).rfind("/dev/sda: not an MMC/SD device: sda is on USB", 0), 0u) << e.what();
    }
}

TEST(DeviceResolver, MountedCardIsInUseForEveryWriteButNotForReading)
{
    const fs::path proc = fs::temp_directory_path() / ("resolver-proc." + std::to_string(::getpid()));
    fs::create_directories(proc);
    std::ofstream(proc / "mounts") << "/dev/mmcblk0 /media/card vfat rw 0 0\n";
    auto o = fixture("sd-qemu");
    o.proc = proc;
    EXPECT_TRUE(resolve_device("mmc0", Purpose::read, o).verdict.allowed);
    for (const Purpose p : {Purpose::write, Purpose::erase, Purpose::probe}) {
        const auto d = resolve_device("mmc0", p, o);
        EXPECT_FALSE(d.verdict.allowed);
        ASSERT_EQ(d.verdict.problems.size(), 1u);
        EXPECT_EQ(failure("mmc0", o, p),
                  expected(Why::in_use, "mmc0: in use: mmcblk0 is mounted on /media/card", Remedy::release_device));
    }
    fs::remove_all(proc);
}

TEST_F(ResolverTree, NotMmcComesBeforeInUseAndAnyDeviceLeavesInUse)
{
    disk("loop7", "7:7");
    write(o_.proc / "mounts", "/dev/loop7 /mnt ext4 rw 0 0");
    EXPECT_EQ(failure("loop7", o_, Purpose::write),
              expected(Why::not_mmc, "loop7: not an MMC/SD device: loop7 is a loop device", Remedy::any_device_write));
    o_.any_device = true;
    EXPECT_EQ(failure("loop7", o_, Purpose::write),
              expected(Why::in_use, "loop7: in use: loop7 is mounted on /mnt", Remedy::release_device));
}

TEST_F(ResolverTree, ALoopDeviceIsDescribedNamingItOnce)
{
    disk("loop7", "7:7");
    o_.any_device = true;
    EXPECT_EQ(describe_device(resolve_device("loop7", Purpose::read, o_)), "loop7 is a loop device");
}

TEST_F(ResolverTree, DeviceNumberLeadsToItsSysfsNode)
{
    const auto dir = disk("loop7", "7:7");
    EXPECT_EQ(block_syspath(makedev(7, 7), o_.roots), fs::canonical(dir));
    EXPECT_FALSE(block_syspath(makedev(7, 9), o_.roots));
    // The lab's captured tree has the kernel's dev/block link for its card
    // (added by hand: capture-sysfs did not copy dev/); the eMMC tree has none.
    const auto sd = sysfs_fixture("sd-qemu");
    EXPECT_EQ(block_syspath(makedev(179, 0), sd), fs::canonical(sd.sysfs / "block/mmcblk0"));
    EXPECT_FALSE(block_syspath(makedev(179, 0), sysfs_fixture("emmc-cm4")));
}

TEST_F(ResolverTree, EmptySlotIsNoCard)
{
    const auto host = o_.roots.sysfs / "devices/platform/sdhci.0/mmc_host/mmc3";
    fs::create_directories(host);
    fs::create_directory_symlink(host, o_.roots.sysfs / "class/mmc_host/mmc3");
    EXPECT_EQ(failure("mmc3", o_), expected(Why::no_card, "mmc3: an MMC host with no card (empty slot?)"));
    EXPECT_EQ(failure("mmc4", o_), expected(Why::not_found, "mmc4: no such device"));
}

TEST_F(ResolverTree, CardWithoutBlockDeviceIsNoBlock)
{
    const auto host = o_.roots.sysfs / "devices/platform/sdhci.0/mmc_host/mmc2";
    const auto card = host / "mmc2:0001";
    write(card / "type", "SDIO");
    fs::create_directory_symlink(host, o_.roots.sysfs / "class/mmc_host/mmc2");
    fs::create_directories(o_.roots.sysfs / "bus/mmc/devices");
    fs::create_directory_symlink(card, o_.roots.sysfs / "bus/mmc/devices/mmc2:0001");
    EXPECT_EQ(failure("mmc2:0001", o_), expected(Why::no_block, "mmc2:0001: a card with no block device (SDIO?)"));
    // The card-only lookup still finds it: mmc-info shows SDIO cards.
    EXPECT_EQ(resolve("mmc2", o_.roots).card->name, "mmc2:0001");
}

// A USB card reader's slot is a card for the resolver; a USB disk
// is not; an empty slot is named so (trees of tests/data/sysfs/make-usb-readers.sh).
TEST(DeviceResolverUsb, AReaderSlotIsACardWithoutAnyDevice)
{
    for (const std::string tree : {"usb2-gl827l", "usb3-uas"})
        for (const Purpose p : {Purpose::read, Purpose::write, Purpose::erase, Purpose::probe}) {
            const auto d = resolve_device("/dev/sdb", p, fixture(tree));
            EXPECT_TRUE(d.verdict.allowed) << tree << " " << d.verdict.reason;
            EXPECT_FALSE(d.card);
            ASSERT_TRUE(d.is_reader_slot()) << tree;
        }
    const auto d = resolve_device("sdb1", Purpose::erase, fixture("usb2-gl827l"));
    EXPECT_TRUE(d.verdict.allowed);
    EXPECT_EQ(d.disk, "sdb");
    EXPECT_EQ(describe_device(d), "sdb: SD card in a USB 2.0 reader (Genesys Logic GL827L, usb-storage)");
    EXPECT_EQ(d.not_mmc, "sdb is an SD card in a USB 2.0 reader (Genesys Logic GL827L, usb-storage): its registers are out of reach");
}

TEST(DeviceResolverUsb, AMountedReaderSlotIsInUseAsAMountedCardIs)
{
    const fs::path proc = fs::temp_directory_path() / ("resolver-usb-proc." + std::to_string(::getpid()));
    fs::create_directories(proc);
    std::ofstream(proc / "mounts") << "/dev/sdb1 /media/card vfat rw 0 0\n";
    auto o = fixture("usb2-gl827l");
    o.proc = proc;
    EXPECT_TRUE(resolve_device("sdb", Purpose::read, o).verdict.allowed);
    EXPECT_EQ(failure("sdb", o, Purpose::erase),
              expected(Why::in_use, "sdb: in use: sdb holds sdb1, which is mounted on /media/card", Remedy::release_device));
    fs::remove_all(proc);
}

TEST(DeviceResolverUsb, AUsbStickIsStillRefusedAndSaidToBeNoReader)
{
    const auto o = fixture("usb-stick");
    const auto d = resolve_device("/dev/sdb", Purpose::read, o);
    EXPECT_TRUE(d.verdict.allowed);
    ASSERT_TRUE(d.usb);
    EXPECT_FALSE(d.is_reader_slot());
    const std::string why = "/dev/sdb: not an MMC/SD device: sdb is a USB disk, not a card reader "
                            "(USB SanDisk 3.2Gen1, 0781:5581, USB 3.0, usb-storage)";
    EXPECT_EQ(failure("/dev/sdb", o, Purpose::erase), expected(Why::not_mmc, why, Remedy::any_device_erase));
    EXPECT_EQ(failure("/dev/sdb", o, Purpose::write), expected(Why::not_mmc, why, Remedy::any_device_write));
    EXPECT_TRUE(resolve_device("/dev/sdb", Purpose::erase, fixture("usb-stick", true)).verdict.allowed);
}

TEST(DeviceResolverUsb, AnEmptySlotIsNoCardInTheReaderForEveryPurpose)
{
    const auto o = fixture("usb2-empty");
    for (const Purpose p : {Purpose::read, Purpose::write, Purpose::erase, Purpose::probe})
        EXPECT_EQ(failure("sdb", o, p),
                  expected(Why::no_card, "sdb: no card in the reader: sdb: empty slot of a USB 2.0 reader "
                                         "(Genesys Logic GL827L, usb-storage): no card in the reader"));
}

TEST(DeviceResolverUsb, AnRtsxUsbReaderIsAnMmcHostAndNothingChanges)
{
    const auto d = resolve_device("mmcblk0", Purpose::erase, fixture("rtsx-usb"));
    EXPECT_TRUE(d.verdict.allowed);
    ASSERT_TRUE(d.card);
    EXPECT_FALSE(d.usb);
    EXPECT_EQ(d.card->host.name, "mmc0");
    EXPECT_EQ(d.card->host.controller.driver, "rtsx_usb_sdmmc");
    EXPECT_EQ(describe_device(d).rfind("mmcblk0: SD card", 0), 0u) << describe_device(d);
    EXPECT_TRUE(resolve("mmc0", sysfs_fixture("rtsx-usb")).card);
}

TEST(DeviceResolverUsb, TheCardOnlyLookupSaysTheReaderHidesTheRegisters)
{
    try {
        resolve("/dev/sdb", sysfs_fixture("usb2-gl827l"));
        FAIL() << "resolved a reader's slot to a card";
    } catch (const ResolveError& e) {
        EXPECT_EQ(e.why, Why::not_mmc);
        EXPECT_STREQ(e.what(), "/dev/sdb: not an MMC/SD device: sdb: SD card in a USB 2.0 reader (Genesys Logic GL827L, "
                               "usb-storage); a USB reader does not pass the card's registers");
    }
}
