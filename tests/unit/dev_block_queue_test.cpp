// What the resolver reads once from sysfs for the tools (dev/block_queue.h,
// dev::Device's queue and provisioning mode, dev::Card's preferred erase
// size), over the fixture trees in tests/data/sysfs/: an SD card on a PCI
// host, an eMMC whose tree has no queue directory, USB disks with and
// without discard; and the loop and CPU attributes in a tree made here.
#include "dev/block_queue.h"
#include "dev/resolver.h"
#include "sysfs_fixture.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>

using namespace mmc::dev;

namespace {

Device read_only(const std::string& name, const std::string& tree)
{
    ResolveOptions o;
    o.roots = sysfs_fixture(tree);
    return resolve_device(name, Purpose::read, o);
}

// A scratch tree under the test's temporary directory, removed at the end.
struct ScratchTree {
    fs::path root;
    ScratchTree()
    {
        char pattern[] = "/tmp/block-queue-test-XXXXXX";
        root = ::mkdtemp(pattern);
    }
    ~ScratchTree() { fs::remove_all(root); }
    void write(const fs::path& rel, const std::string& text) const
    {
        fs::create_directories((root / rel).parent_path());
        std::ofstream(root / rel) << text;
    }
};

} // namespace

TEST(DevBlockQueue, AnSdCardsQueueAndPreferredEraseSize)
{
    const Device d = read_only("mmcblk0", "sd-qemu");
    ASSERT_TRUE(d.card);
    // The fixture's queue/: 512-byte blocks, discard by 4 MiB AUs, no write zeroes.
    EXPECT_EQ(d.queue.logical_block_size, 512u);
    EXPECT_EQ(d.queue.discard_granularity, 4194304u);
    EXPECT_EQ(d.queue.discard_max_bytes, 4194304u);
    EXPECT_EQ(d.queue.discard_max_hw_bytes, 4194304u);
    EXPECT_EQ(d.queue.write_zeroes_max_bytes, 0u);
    EXPECT_EQ(d.queue.write_cache, "write through");
    EXPECT_EQ(d.card->preferred_erase_size, 4194304u);
    EXPECT_TRUE(d.provisioning_mode.empty()); // not a SCSI disk
}

TEST(DevBlockQueue, APartitionCarriesItsDisksQueue)
{
    const Device disk = read_only("sdb", "usb3-uas");
    const Device part = read_only("sdb1", "usb3-uas");
    ASSERT_TRUE(part.is_partition);
    EXPECT_EQ(part.queue.discard_granularity, 512u);
    EXPECT_EQ(part.provisioning_mode, "unmap");
    EXPECT_EQ(part.queue.discard_granularity, disk.queue.discard_granularity);
    EXPECT_EQ(part.queue.logical_block_size, disk.queue.logical_block_size);
}

TEST(DevBlockQueue, ByNameReadsTheSameAsTheResolver)
{
    const Device d = read_only("mmcblk0", "sd-qemu");
    const BlockQueue q = read_block_queue("mmcblk0", sysfs_fixture("sd-qemu"));
    EXPECT_EQ(q.logical_block_size, d.queue.logical_block_size);
    EXPECT_EQ(q.discard_max_bytes, d.queue.discard_max_bytes);
    EXPECT_EQ(q.write_cache, d.queue.write_cache);
    // By name, the evidence names the path a person would look at.
    EXPECT_EQ(q.write_cache_attr, fs::path("tests/data/sysfs/sd-qemu/sys/block/mmcblk0/queue/write_cache"));
}

TEST(DevBlockQueue, AnEmmcTreeWithoutAQueueReadsZeros)
{
    const Device d = read_only("mmcblk1", "emmc-cm4");
    ASSERT_TRUE(d.card);
    EXPECT_EQ(d.queue.logical_block_size, 0u);
    EXPECT_EQ(d.queue.discard_max_bytes, 0u);
    EXPECT_FALSE(d.queue.write_cache);
    EXPECT_EQ(d.card->preferred_erase_size, 0u); // the fixture gives none
}

TEST(DevBlockQueue, UsbDisksProvisioningModeAndDiscard)
{
    const Device uas = read_only("sdb", "usb3-uas");
    ASSERT_TRUE(uas.usb);
    EXPECT_EQ(uas.provisioning_mode, "unmap");
    EXPECT_EQ(uas.queue.discard_granularity, 512u);
    EXPECT_EQ(uas.queue.discard_max_bytes, 4294966784u);

    const Device reader = read_only("sdb", "usb2-gl827l");
    ASSERT_TRUE(reader.usb);
    EXPECT_EQ(reader.provisioning_mode, "full");
    EXPECT_EQ(reader.queue.discard_max_bytes, 0u);
}

TEST(DevBlockQueue, ReadNumberTakesLeadingDigits)
{
    ScratchTree t;
    t.write("a", "4194304\n");
    t.write("b", "12 apples");
    t.write("c", "none");
    EXPECT_EQ(read_number(t.root / "a"), 4194304u);
    EXPECT_EQ(read_number(t.root / "b"), 12u);
    EXPECT_EQ(read_number(t.root / "c"), 0u);
    EXPECT_EQ(read_number(t.root / "missing"), 0u);
}

TEST(DevBlockQueue, LoopDirectIoAndCpuGovernorThroughRoots)
{
    ScratchTree t;
    SysRoots roots;
    roots.sysfs = t.root;
    t.write("block/loop3/loop/dio", "1\n");
    t.write("devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
    const AttrReading dio = loop_direct_io("loop3", roots);
    EXPECT_EQ(dio.path, t.root / "block/loop3/loop/dio");
    EXPECT_EQ(dio.value, "1");
    EXPECT_FALSE(loop_direct_io("loop4", roots).value);
    EXPECT_EQ(cpu_governor(1, roots), "performance");
    EXPECT_FALSE(cpu_governor(0, roots)); // no cpufreq for CPU 0 here
}
