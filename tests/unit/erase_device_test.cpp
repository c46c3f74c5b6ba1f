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

// The erase target of a name, as erase::prepare finds it (no card commands):
// resolved, its card identified once, then the pure erase_target.
Target find_target(const std::string& name, const Fixture& f)
{
    const auto device = mmc::dev::resolve_device(name, mmc::dev::Purpose::erase, f.resolve);
    const auto card = mmc::dev::identify(device, f.resolve.roots, {false});
    return erase_target(device, card ? &*card : nullptr);
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

// erase_target is pure over the record the run resolved and identified once:
// it reads no register itself, so what it gives follows from the record
// alone, and the erase unit from the one rule in regs/.
namespace {
struct Record {
    mmc::dev::Device device;
    std::optional<mmc::dev::Identified> card;
};

Record record(const std::string& name, const Fixture& f)
{
    Record r{mmc::dev::resolve_device(name, mmc::dev::Purpose::erase, f.resolve), std::nullopt};
    r.card = mmc::dev::identify(r.device, f.resolve.roots, {false});
    return r;
}
} // namespace

TEST(EraseTarget, EmmcWithEraseGroupDefOffErasesByTheCsdGroup)
{
    // The CM4's eMMC: EXT_CSD HC_ERASE_GRP_SIZE gives 4 MiB, but its
    // ERASE_GROUP_DEF is 0, so the card erases by its CSD's group:
    // (31 + 1) x (15 + 1) x 512 = 256 KiB, as identify's facts say.
    const auto r = record("mmcblk1", fixture("emmc-cm4"));
    ASSERT_TRUE(r.card);
    const auto t = erase_target(r.device, &*r.card);
    EXPECT_EQ(t.caps.hc_erase_group_bytes, 4u << 20);
    EXPECT_FALSE(t.caps.hc_erase_group_def);
    EXPECT_EQ(t.caps.csd_erase_group_bytes, 256u << 10);
    const auto unit = erase_unit(Method::erase, t.caps);
    EXPECT_EQ(unit.bytes, 256u << 10);
    EXPECT_EQ(unit.source, "CSD ERASE_GRP_SIZE/ERASE_GRP_MULT");
    EXPECT_EQ(std::optional<uint64_t>(unit.bytes), r.card->facts.erase_group_bytes);
    EXPECT_EQ(t.card->name, r.card->identity.name);
    EXPECT_EQ(t.notes, r.card->gathered.notes);
}

TEST(EraseTarget, EmmcWithEraseGroupDefOnErasesByTheHighCapacityGroup)
{
    // The same card once ERASE_GROUP_DEF is set (the partitioning completed):
    // the record is all erase_target reads, so setting the bit in it moves
    // the unit to EXT_CSD HC_ERASE_GRP_SIZE, 4 MiB.
    auto r = record("mmcblk1", fixture("emmc-cm4"));
    ASSERT_TRUE(r.card);
    bool set = false;
    for (auto& raw : r.card->gathered.registers)
        if (raw.kind == mmc::regs::RegKind::ext_csd && raw.bytes.size() == 512) raw.bytes[175] |= 1, set = true;
    ASSERT_TRUE(set); // EXT_CSD ERASE_GROUP_DEF is byte [175] (regs/ext_csd.cpp)
    r.card->registers = mmc::regs::decode_card(mmc::regs::CardFamily::mmc, r.card->gathered.registers);
    const auto t = erase_target(r.device, &*r.card);
    EXPECT_TRUE(t.caps.hc_erase_group_def);
    const auto unit = erase_unit(Method::erase, t.caps);
    EXPECT_EQ(unit.bytes, 4u << 20);
    EXPECT_EQ(unit.source, "EXT_CSD HC_ERASE_GRP_SIZE");
}

TEST(EraseTarget, SdCardTakesItsFactsFromTheRecord)
{
    const auto r = record("mmcblk0", fixture("sd-qemu"));
    ASSERT_TRUE(r.card);
    const auto t = erase_target(r.device, &*r.card);
    EXPECT_EQ(t.caps.family, CardFamily::sd);
    EXPECT_EQ(t.caps.erased_byte, r.card->facts.erased_byte);
    EXPECT_EQ(t.caps.au_bytes, r.card->facts.au_bytes.value_or(0));
    EXPECT_EQ(t.caps.raw_unavailable, "card commands turned off"); // as the record's gathering says
    EXPECT_EQ(t.rca, 0x4567);
}

TEST(EraseTarget, CardWithoutARecordGetsNoRegistersAndNoRawCommands)
{
    const auto r = record("mmcblk0", fixture("sd-qemu"));
    const auto t = erase_target(r.device, nullptr);
    EXPECT_EQ(t.caps.family, CardFamily::sd);
    EXPECT_FALSE(t.caps.raw_channel);
    EXPECT_EQ(t.caps.raw_unavailable, "the card was not identified");
    EXPECT_FALSE(t.caps.erase_class);
    EXPECT_FALSE(t.card);
    EXPECT_TRUE(t.notes.empty());
}

TEST(EraseTarget, PrepareFromTheRecordPlansAsFromTheName)
{
    // mmc-erase plans twice with --au measure: from the record, the plan is
    // the one prepare() makes from the name.
    const auto f = fixture("emmc-cm4");
    const auto r = record("mmcblk1p2", f);
    const auto from_record = prepare(r.device, r.card ? &*r.card : nullptr, {}, Method::automatic, prepare_options(f));
    const auto from_name = prepare("mmcblk1p2", {}, Method::automatic, prepare_options(f));
    EXPECT_EQ(from_record.device, "mmcblk1p2");
    EXPECT_EQ(from_record.selection.method, from_name.selection.method);
    EXPECT_EQ(from_record.unit.bytes, from_name.unit.bytes);
    EXPECT_EQ(from_record.plan.aligned, from_name.plan.aligned);
    EXPECT_EQ(from_record.command, from_name.command);
}
