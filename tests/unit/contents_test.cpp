#include "cli/printable.h"
#include "dev/contents.h"

#include <gtest/gtest.h>

using mmc::dev::Volume;
using mmc::dev::volumes_text;

TEST(VolumesText, TableFilesystemsAndBlankPartitions)
{
    const std::vector<Volume> v{
        {"mmcblk0", 0, 32u << 20, "partition table", "dos", ""},
        {"mmcblk0p1", 1u << 20, 8u << 20, "filesystem", "vfat", "bootfs"},
        {"mmcblk0p2", 9u << 20, 16u << 20, "", "", ""},
    };
    EXPECT_EQ(volumes_text(v), "dos partition table; mmcblk0p1: vfat \"bootfs\"; mmcblk0p2: no filesystem signature");
}

TEST(VolumesText, NothingFoundIsSaidInWords)
{
    EXPECT_EQ(volumes_text({}), "no partition table or filesystem signature found");
}

TEST(VolumesText, ALabelFromTheCardIsDataAndItsViewEscapesIt)
{
    // dev/ keeps the label as the media holds it; the views (mmc-erase's
    // plan, mmc-bench's question) show it through cli::printable.
    const std::vector<Volume> v{{"sda1", 0, 1, "filesystem", "ext4", "evil\x1b[2Jlabel"}};
    EXPECT_EQ(volumes_text(v), "sda1: ext4 \"evil\x1b[2Jlabel\"");
    EXPECT_EQ(mmc::cli::printable(volumes_text(v)), "sda1: ext4 \"evil\\x1b[2Jlabel\"");
}

TEST(VolumesInRange, AMissingDiskFindsNothingAndDoesNotThrow)
{
    mmc::dev::SysRoots roots;
    roots.sysfs = "/nonexistent";
    roots.dev = "/nonexistent";
    EXPECT_TRUE(mmc::dev::volumes_in_range("mmcblk9", 0, 1u << 20, roots).empty());
}
