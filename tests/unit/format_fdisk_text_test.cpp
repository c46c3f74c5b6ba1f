// fdisk -l text read back into partition tables (format/fdisk_text.h) and
// checked (check_table): the posted outputs in tests/data/format/fdisk get
// the verdicts their README gives; every text that cannot give exact
// sectors is refused with its reason.
#include "format/check.h"
#include "format/check_view.h"
#include "format/fdisk_text.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace mmc::format;

namespace {

std::string posted(const std::string& name)
{
    std::ifstream in("tests/data/format/fdisk/" + name);
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_TRUE(in.good() || in.eof()) << name;
    return s.str();
}

CheckResult check_text(const std::string& text, std::optional<uint64_t> au, std::string_view disk = "")
{
    const FdiskDisk d = pick_fdisk_disk(parse_fdisk_text(text), disk);
    return check_table(d.table, d.sectors, au ? Unit{*au, "--au"} : Unit{}, "fdisk -l's output");
}

// The reason a text is refused ("" when it is not).
std::string refusal(const std::string& text)
{
    try {
        check_text(text, 4u << 20);
    } catch (const TableError& e) {
        return e.what();
    }
    return "";
}

const std::string head = "Disk /dev/mmcblk0: 1.9 GiB, 1977614336 bytes, 3862528 sectors\n"
                         "Units: sectors of 1 * 512 = 512 bytes\n"
                         "Disklabel type: dos\n\n"
                         "Device         Boot   Start     End Sectors  Size Id Type\n";

} // namespace

TEST(FormatFdiskText, AFactoryFormatted16GbCardIsAlignedOnTheSdLayoutsUnit)
{
    const auto disks = parse_fdisk_text(posted("sd16g-factory-ragnyll-2018.txt"));
    ASSERT_EQ(disks.size(), 1u);
    EXPECT_EQ(disks[0].name, "/dev/mmcblk0");
    EXPECT_EQ(disks[0].sectors, 31116288u);
    ASSERT_EQ(disks[0].table.partitions.size(), 1u);
    const Partition& p = disks[0].table.partitions[0];
    EXPECT_EQ(p.number, 1u);
    EXPECT_EQ(p.start, 8192u);
    EXPECT_EQ(p.sectors, 31108096u);
    EXPECT_EQ(p.type, 0x0C);
    EXPECT_FALSE(p.bootable);
    const auto r = check_text(posted("sd16g-factory-ragnyll-2018.txt"), std::nullopt);
    EXPECT_EQ(r.unit_bytes, 4u << 20);
    EXPECT_EQ(r.verdict, Verdict::aligned);
    // 4 MiB into an 8 MiB AU: a FAT32 volume may still align its areas; only its boot sector can say.
    EXPECT_EQ(check_text(posted("sd16g-factory-ragnyll-2018.txt"), 8u << 20).verdict, Verdict::unknown);
}

TEST(FormatFdiskText, TheOlderLayoutWithExtendedAndLogicalPartitionsIsRead)
{
    const auto disks = parse_fdisk_text(posted("pc-disk-extended-embeddedforu-2016.txt"));
    ASSERT_EQ(disks.size(), 1u); // /dev/sdb's rows are not in the post
    EXPECT_EQ(disks[0].sectors, 419430400u);
    ASSERT_EQ(disks[0].table.partitions.size(), 3u);
    EXPECT_TRUE(disks[0].table.partitions[0].bootable);
    EXPECT_EQ(disks[0].table.partitions[0].sectors, 417333247u - 2048 + 1);
    EXPECT_EQ(disks[0].table.partitions[1].type, 0x05);
    EXPECT_EQ(disks[0].table.partitions[2].number, 5u);
    EXPECT_EQ(disks[0].table.partitions[2].type, 0x82);
    const auto r = check_text(posted("pc-disk-extended-embeddedforu-2016.txt"), 4u << 20);
    EXPECT_EQ(r.verdict, Verdict::misaligned); // Linux at 1 MiB
    EXPECT_EQ(r.volumes.size(), 2u);           // the extended one is a container, not checked
}

TEST(FormatFdiskText, CylinderUnitsAreRefusedWithTheRemedy)
{
    const std::string why = refusal(posted("pc-disk-cylinders-openpeta.txt"));
    EXPECT_NE(why.find("cylinder units"), std::string::npos) << why;
    EXPECT_NE(why.find("fdisk -l -u"), std::string::npos) << why;
}

TEST(FormatFdiskText, AnImagesRowsAndALinuxPartitionOffTheUnit)
{
    // Crafted in the shape of a Raspberry Pi OS image's listing (a 256 MiB
    // boot partition at 4 MiB, root at 260 MiB).
    const std::string text = "Disk raspios.img: 1.9 GiB, 1977614336 bytes, 3862528 sectors\n"
                             "Units: sectors of 1 * 512 = 512 bytes\n\n"
                             "Device      Boot   Start     End Sectors  Size Id Type\n"
                             "raspios.img1       8192  532479  524288  256M  c W95 FAT32 (LBA)\n"
                             "raspios.img2     532480 3862527 3330048  1.6G 83 Linux\n";
    EXPECT_EQ(check_text(text, 4u << 20).verdict, Verdict::aligned); // 4 MiB and 260 MiB
    const auto r = check_text(text, 8u << 20);
    EXPECT_EQ(r.verdict, Verdict::misaligned); // root 4 MiB into an 8 MiB AU
    bool root_named = false;
    for (const Finding& f : r.findings)
        root_named |= f.severity == Severity::misaligned && f.what == Aspect::partition_start && f.partition == 2u;
    EXPECT_TRUE(root_named);
}

TEST(FormatFdiskText, HostileTextsAreRefusedWithWhatIsWrong)
{
    auto expect = [](const std::string& text, const char* says) {
        const std::string why = refusal(text);
        EXPECT_NE(why.find(says), std::string::npos) << "expected '" << says << "', got '" << why << "'";
    };
    expect("", "no partition table in the text");
    expect("Device Boot Start End Sectors Size Id Type\n/dev/x1 8192 9000 809 1M c W95\n", "no partition table in the text");
    expect("Disk /dev/sda: 1 GiB, 1073741824 bytes, 2097152 sectors\nDisklabel type: gpt\n\n"
           "Device     Start     End Sectors  Size Type\n/dev/sda1   2048 2097118 2095071 1023M Linux filesystem\n",
           "a GPT");
    expect(head + "/dev/mmcblk0p1 8192 100 1 1M c W95 FAT32 (LBA)\n", "ends (sector 100) before it starts");
    expect(head + "/dev/mmcblk0p1 8192 9999 5 1M c W95 FAT32 (LBA)\n", "5 sectors listed, 1808 from its start");
    expect(head + "/dev/mmcblk0p1 8192 3999999 3991808 1.9G c W95 FAT32 (LBA)\n", "past the end");
    expect(head + "/dev/mmcblk0p1 8192 100000 91809 44M c W95\n/dev/mmcblk0p2 90000 200000 110001 53M 83 Linux\n",
           "overlap");
    expect(head + "/dev/mmcblk0p1 8192 100000 91809 44M c W95\n/dev/mmcblk0p1 200000 300000 100001 48M 83 Linux\n",
           "listed twice");
    expect(head + "/dev/mmcblk0p1 8192 100000 91809 44M zz W95\n", "not a partition type");
    expect(head + "/dev/mmcblk0p1 8192 100000 91809 44M ee GPT\n", "protective MBR");
    expect(head + "/dev/mmcblk0p1 8192 100000\n", "a partition row with 3 columns");
    expect(head + "/dev/mmcblk0p1 8192 99999999999999999999 1 1M c W95\n", "not sector numbers");
    expect("Disk /dev/sdz: 4 GiB, 4294967296 bytes, 1048576 sectors\nUnits: sectors of 1 * 4096 = 4096 bytes\n\n"
           "Device Boot Start End Sectors Size Id Type\n/dev/sdz1 256 1048575 1048320 4G c W95\n",
           "512-byte sectors");
    expect("Disk /dev/sdz: 4 GiB\n\nDevice Boot Start End Sectors Size Id Type\n/dev/sdz1 256 1048575 1048320 4G c W95\n",
           "its size in sectors is not in the 'Disk' line");
}

TEST(FormatFdiskText, ANameThatIsNotTextIsShownPrintableAndTheJsonDumps)
{
    // Found by the fuzzer: a disk name with bytes that are not UTF-8 made
    // the JSON view throw.
    const std::string text = "Disk /dev/\xff\x1b[2J: 1 GiB, 1073741824 bytes, 2097152 sectors\n"
                             "Units: sectors of 1 * 512 = 512 bytes\n\n"
                             "Device Boot Start End Sectors Size Id Type\n"
                             "/dev/x1 8192 2097151 2088960 1G c W95 FAT32 (LBA)\n";
    const auto disks = parse_fdisk_text(text);
    ASSERT_EQ(disks.size(), 1u);
    EXPECT_EQ(disks[0].name, "/dev/\\xff\\x1b[2J");
    const auto r = check_table(disks[0].table, disks[0].sectors, Unit{4u << 20, "--au"}, "fdisk -l's output");
    EXPECT_NO_THROW((void)check_json(disks[0].name, r).dump());
}

TEST(FormatFdiskText, SeveralDisksNeedANameAndANamedOneMustBeThere)
{
    const std::string two = head + "/dev/mmcblk0p1 8192 3862527 3854336 1.8G c W95 FAT32 (LBA)\n\n" +
                            "Disk /dev/sdb: 1.9 GiB, 1977614336 bytes, 3862528 sectors\n"
                            "Units: sectors of 1 * 512 = 512 bytes\n\n"
                            "Device     Boot Start     End Sectors  Size Id Type\n"
                            "/dev/sdb1        2048 3862527 3860480  1.8G 83 Linux\n";
    const auto disks = parse_fdisk_text(two);
    ASSERT_EQ(disks.size(), 2u);
    try {
        pick_fdisk_disk(disks, "");
        ADD_FAILURE() << "two disks picked without a name";
    } catch (const TableError& e) {
        EXPECT_NE(std::string(e.what()).find("/dev/mmcblk0, /dev/sdb"), std::string::npos) << e.what();
    }
    EXPECT_EQ(pick_fdisk_disk(disks, "/dev/sdb").table.partitions[0].start, 2048u);
    EXPECT_THROW(pick_fdisk_disk(disks, "/dev/sdc"), TableError);
    EXPECT_EQ(check_text(two, 4u << 20, "/dev/sdb").verdict, Verdict::misaligned);
    EXPECT_EQ(check_text(two, 4u << 20, "/dev/mmcblk0").verdict, Verdict::aligned);
}
