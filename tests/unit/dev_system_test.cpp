// The host facts a result bundle records, read from a fixture root: the
// device tree's model before DMI, os-release's PRETTY_NAME unquoted, and
// the CPU from cpuinfo as x86 and ARM kernels name it.
#include "dev/system.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace fs = std::filesystem;

namespace {

struct Root {
    fs::path dir = fs::temp_directory_path() / ("mmckit-host-" + std::to_string(::getpid()) + "-" +
                                                testing::UnitTest::GetInstance()->current_test_info()->name());
    Root() { fs::remove_all(dir); }
    ~Root() { fs::remove_all(dir); }
    void put(const std::string& path, const std::string& text)
    {
        fs::create_directories((dir / path).parent_path());
        std::ofstream(dir / path) << text;
    }
};

} // namespace

TEST(HostFacts, DeviceTreeModelOsReleaseAndArmCpu)
{
    Root r;
    r.put("proc/device-tree/model", std::string("Raspberry Pi 4 Model B Rev 1.4\0", 31));
    r.put("sys/class/dmi/id/sys_vendor", "ignored when there is a device tree\n");
    r.put("etc/os-release", "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
    r.put("proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 108.00\n\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4\n");
    const auto h = mmc::dev::read_host_facts(r.dir);
    EXPECT_EQ(h.machine, "Raspberry Pi 4 Model B Rev 1.4");
    EXPECT_EQ(h.os, "Debian GNU/Linux 12 (bookworm)");
    EXPECT_EQ(h.cpu_model, "Raspberry Pi 4 Model B Rev 1.4"); // the last of Hardware/Model
    EXPECT_FALSE(h.kernel.empty());                              // uname's, not the root's
}

TEST(HostFacts, DmiVendorAndProductAndX86Cpu)
{
    Root r;
    r.put("sys/class/dmi/id/sys_vendor", "QEMU\n");
    r.put("sys/class/dmi/id/product_name", "Standard PC (i440FX + PIIX, 1996)\n");
    r.put("proc/cpuinfo", "model name\t: AMD EPYC 7B13\nmodel name\t: second, not taken\n");
    const auto h = mmc::dev::read_host_facts(r.dir);
    EXPECT_EQ(h.machine, "QEMU Standard PC (i440FX + PIIX, 1996)");
    EXPECT_EQ(h.os, "");
    EXPECT_EQ(h.cpu_model, "AMD EPYC 7B13");
}
