// mmc-qualify's device check, before any step: over the captured sysfs trees,
// a card passes, and each device a run could not measure is refused with the
// resolver's words (the name as typed) and a remedy mmc-qualify has.
#include "qualify/device_check.h"

#include "sysfs_fixture.h"

#include <gtest/gtest.h>

using namespace mmc::qualify;
using mmc::cli::Remedy;
using Why = mmc::dev::DeviceError::Why;

namespace {

const std::filesystem::path no_proc = "tests/data/sysfs/no-such-proc"; // no mounts: the machine's own must not decide

Settings on(const std::string& tree, const std::string& device)
{
    Settings s;
    s.roots = sysfs_fixture(tree);
    s.device = device;
    return s;
}

// "why|message|remedy" of the refusal, or "allowed".
std::string refusal(const Settings& s)
{
    try {
        check_device(s, no_proc);
    } catch (const mmc::dev::DeviceError& e) {
        return std::to_string(static_cast<int>(e.why)) + "|" + e.what() + "|" + std::string(mmc::cli::remedy_text(e.remedy));
    }
    return "allowed";
}

std::string expected(Why why, const std::string& what, Remedy remedy = Remedy::none)
{
    return std::to_string(static_cast<int>(why)) + "|" + what + "|" + std::string(mmc::cli::remedy_text(remedy));
}

} // namespace

TEST(QualifyDeviceCheck, ACardPassesReadOnlyAndDestructive)
{
    auto s = on("sd-qemu", "mmcblk0");
    EXPECT_EQ(check_device(s, no_proc).name, "mmcblk0");
    s.destructive = true;
    EXPECT_EQ(refusal(s), "allowed");
}

TEST(QualifyDeviceCheck, AMissingDeviceIsRefusedWithTheNameAsTyped)
{
    EXPECT_EQ(refusal(on("sd-qemu", "/dev/mmcblk9")), expected(Why::not_found, "/dev/mmcblk9: no such device"));
    EXPECT_EQ(refusal(on("sd-qemu", "mmc7")), expected(Why::not_found, "mmc7: no such device"));
}

TEST(QualifyDeviceCheck, NotABlockDeviceOffersNoFileOptionQualifyLacks)
{
    // mmc-bench would offer --file for a directory; mmc-qualify has none.
    EXPECT_EQ(refusal(on("sd-qemu", "/tmp")), expected(Why::not_block, "/tmp: not a block device"));
    EXPECT_EQ(refusal(on("sd-qemu", "/dev/null")), expected(Why::not_block, "/dev/null: not a block device"));
}

TEST(QualifyDeviceCheck, ADeviceThatIsNoCardNeedsAnyDeviceEvenReadOnly)
{
    auto s = on("usb-reader", "/dev/sda");
    const std::string r = refusal(s);
    EXPECT_EQ(r.rfind(std::to_string(static_cast<int>(Why::not_mmc)) + "|/dev/sda: not an MMC/SD device: sda is on USB", 0), 0u) << r;
    EXPECT_NE(r.find("|use --any-device to measure it anyway"), std::string::npos) << r;
    s.destructive = true;
    EXPECT_NE(refusal(s).find("|use --any-device to erase it anyway"), std::string::npos) << refusal(s);
    s.any_device = true;
    EXPECT_EQ(refusal(s), "allowed");
    s.destructive = false;
    EXPECT_EQ(refusal(s), "allowed");
}
