// Safety checks against fixture /proc and sysfs trees built in a temporary
// directory: a mounted device, a disk whose partition is mounted, swap, a
// device-mapper holder, the root filesystem's disk, read-only, and the clean
// case.
#include "dev/block_safety.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace mmc::dev;
namespace fs = std::filesystem;

namespace {

class BlockSafetyTree : public testing::Test {
protected:
    void SetUp() override
    {
        root_ = fs::temp_directory_path() / ("erase_safety." + std::to_string(::getpid()) + "." +
                                             testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root_);
        roots_.proc = root_ / "proc";
        roots_.sysfs = root_ / "sys";
        fs::create_directories(roots_.proc / "self");
        // loop7 with partitions loop7p1 (259:0) and loop7p2 (259:1), as sysfs
        // lays them out: partitions inside the disk, class/block links.
        disk("loop7", "7:7");
        part("loop7", "loop7p1", "259:0");
        part("loop7", "loop7p2", "259:1");
        disk("loop8", "7:8");
        write("proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
    }
    void TearDown() override { fs::remove_all(root_); }

    void write(const std::string& rel, const std::string& text)
    {
        fs::create_directories((root_ / rel).parent_path());
        std::ofstream(root_ / rel) << text;
    }
    void disk(const std::string& name, const std::string& devno)
    {
        const auto dir = root_ / "sys/devices/virtual/block" / name;
        fs::create_directories(dir / "holders");
        std::ofstream(dir / "dev") << devno << "\n";
        std::ofstream(dir / "ro") << "0\n";
        fs::create_directories(roots_.sysfs / "class/block");
        fs::create_directory_symlink(dir, roots_.sysfs / "class/block" / name);
    }
    void part(const std::string& d, const std::string& name, const std::string& devno)
    {
        const auto dir = root_ / "sys/devices/virtual/block" / d / name;
        fs::create_directories(dir / "holders");
        std::ofstream(dir / "dev") << devno << "\n";
        std::ofstream(dir / "partition") << name.back() << "\n";
        std::ofstream(dir / "ro") << "0\n";
        fs::create_directory_symlink(dir, roots_.sysfs / "class/block" / name);
    }
    std::string problems(const std::string& name)
    {
        std::string out;
        for (const auto& p : check_safety(name, roots_)) out += p.what + "\n";
        return out;
    }

    fs::path root_;
    SafetyRoots roots_;
};

} // namespace

TEST_F(BlockSafetyTree, CleanDeviceHasNoProblems)
{
    write("proc/mounts", "/dev/vda / ext4 rw,relatime 0 0\nproc /proc proc rw 0 0\n");
    EXPECT_EQ(problems("loop7"), "");
    EXPECT_EQ(problems("loop7p1"), "");
}

TEST_F(BlockSafetyTree, MountedDeviceFromProcMounts)
{
    write("proc/mounts", "/dev/vda / ext4 rw 0 0\n/dev/loop8 /mnt/my\\040data ext4 rw 0 0\n");
    EXPECT_EQ(problems("loop8"), "loop8 is mounted on /mnt/my data\n");
    EXPECT_EQ(problems("loop7"), "");
}

TEST_F(BlockSafetyTree, DiskWithMountedPartition)
{
    write("proc/mounts", "/dev/loop7p2 /srv ext4 rw 0 0\n");
    EXPECT_EQ(problems("loop7"), "loop7 holds loop7p2, which is mounted on /srv\n");
    // The other partition is not in use; the mounted one is.
    EXPECT_EQ(problems("loop7p1"), "");
    EXPECT_EQ(problems("loop7p2"), "loop7p2 is mounted on /srv\n");
}

TEST_F(BlockSafetyTree, MountinfoMatchesByDeviceNumber)
{
    // The source name says nothing (a by-uuid path, a dm name); maj:min does.
    write("proc/self/mountinfo",
          "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
          "40 22 259:0 / /boot rw,relatime shared:9 - vfat /dev/disk/by-uuid/ABCD-1234 rw\n");
    EXPECT_EQ(problems("loop7"), "loop7 holds loop7p1, which is mounted on /boot\n");
    EXPECT_EQ(problems("loop7p1"), "loop7p1 is mounted on /boot\n");
}

TEST_F(BlockSafetyTree, RootFilesystemDisk)
{
    write("proc/self/mountinfo", "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/root rw\n");
    const auto text = problems("loop7");
    EXPECT_NE(text.find("loop7 holds the root filesystem (/ is on loop7p2)"), std::string::npos) << text;
    // A sibling partition of the root partition is not the root disk.
    EXPECT_EQ(problems("loop7p1"), "");
}

TEST_F(BlockSafetyTree, SwapPartition)
{
    write("proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n/dev/loop7p1 partition 1048572 0 -2\n"
                        "/swapfile file 1048572 0 -3\n");
    EXPECT_EQ(problems("loop7"), "loop7 holds loop7p1, which is in use as swap\n");
    EXPECT_EQ(problems("loop7p1"), "loop7p1 is in use as swap\n");
    EXPECT_EQ(problems("loop8"), "");
}

TEST_F(BlockSafetyTree, Holders)
{
    fs::create_directories(root_ / "sys/devices/virtual/block/loop7/loop7p2/holders/dm-0");
    fs::create_directories(root_ / "sys/devices/virtual/block/loop8/holders/md127");
    EXPECT_EQ(problems("loop7"), "loop7 holds loop7p2, which is held by dm-0 (device-mapper)\n");
    EXPECT_EQ(problems("loop8"), "loop8 is held by md127 (md RAID)\n");
    // A partition whose disk is held (md on the whole disk) is refused too.
    fs::create_directories(root_ / "sys/devices/virtual/block/loop7/holders/md0");
    EXPECT_EQ(problems("loop7p1"), "loop7p1's disk loop7 is held by md0 (md RAID)\n");
}

TEST_F(BlockSafetyTree, ReadOnlyAndMissing)
{
    std::ofstream(root_ / "sys/devices/virtual/block/loop8/ro") << "1\n";
    EXPECT_EQ(problems("loop8"), "loop8 is read-only\n");
    EXPECT_NE(problems("loop99").find("no such block device"), std::string::npos);
}

TEST_F(BlockSafetyTree, EveryProblemIsListed)
{
    write("proc/mounts", "/dev/loop7p1 /a ext4 rw 0 0\n/dev/loop7p2 /b ext4 rw 0 0\n");
    const auto list = check_safety("loop7", roots_);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].device, "loop7p1");
    EXPECT_EQ(list[1].device, "loop7p2");
}

TEST(BlockSafety, MountTablesParse)
{
    const auto dir = fs::temp_directory_path() / ("erase_mounts." + std::to_string(::getpid()));
    fs::create_directories(dir / "self");
    std::ofstream(dir / "self/mountinfo") << "36 35 98:0 /mnt1 /mnt/parent\\040dir rw,noatime master:1 - ext3 /dev/root rw\n"
                                             "garbage\n";
    std::ofstream(dir / "mounts") << "/dev/sda1 /home ext4 rw 0 0\n";
    SafetyRoots roots;
    roots.proc = dir;
    roots.sysfs = dir / "sys";
    const auto m = read_mounts(roots);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].source, "/dev/root");
    EXPECT_EQ(m[0].devno, "98:0");
    EXPECT_EQ(m[0].mountpoint, "/mnt/parent dir");
    EXPECT_EQ(m[1].source, "/dev/sda1");
    EXPECT_EQ(m[1].mountpoint, "/home");
    fs::remove_all(dir);
}
