// The settings of tune/emmc_extra.h on EXT_CSD dumps of real devices
// (tests/data/tune/): one boot partition's write protection, the boot bus
// kept after boot, raw EXT_CSD writes and 512-byte emulation: their fields,
// their one-time guards and refusals (a refused plan writes nothing).
#include "regs/ext_csd_config.h"
#include "tune/config_file.h"
#include "tune/emmc_extra.h"
#include "tune/plan.h"
#include "tune_fixture.h"

#include <gtest/gtest.h>

using namespace mmc::tune;
using mmc::regs::ExtCsdField;

namespace {

std::vector<uint8_t> fixture(const std::string& name)
{
    auto out = mmc::test::tune_fixture(name);
    EXPECT_EQ(out.size(), 512u) << name;
    return out;
}

std::string option_name(const SettingName& n)
{
    switch (n.setting) {
    case Setting::boot_wp: return "--boot-wp";
    case Setting::boot_bus: return "--boot-bus";
    case Setting::extcsd_write: return "--extcsd-write";
    case Setting::sector_emulation: return "--sector-emulation";
    case Setting::volatile_cache: return "--volatile-cache";
    case Setting::permanent: return "--permanent";
    default: return "--other";
    }
}

// The first refusal's reason as the user reads it, "" when none.
std::string refusal(const Plan& p) { return p.refusals.empty() ? "" : named(p.refusals[0].reason, option_name); }

Request boot_wp(BootWp mode, int area)
{
    Request r;
    r.boot_wp = mode;
    r.boot_wp_area = area;
    return r;
}

} // namespace

TEST(TuneExtraParse, BootWpTakesOnePartition)
{
    EXPECT_EQ(parse_boot_wp_area("power-on"), std::make_pair(BootWp::power_on, 0));
    EXPECT_EQ(parse_boot_wp_area("power-on,1"), std::make_pair(BootWp::power_on, 1));
    EXPECT_EQ(parse_boot_wp_area("permanent,2"), std::make_pair(BootWp::permanent, 2));
    for (const char* bad : {"power-on,0", "power-on,3", "power-on,", "permanent,1,2", ",1", "on,1"})
        EXPECT_THROW(parse_boot_wp_area(bad), SettingError) << bad;
}

TEST(TuneExtraParse, BootBusRetainOrReset)
{
    EXPECT_EQ(parse_boot_bus("8,ddr,retain"), (BootBus{8, BootMode::ddr, true}));
    EXPECT_EQ(parse_boot_bus("4,reset"), (BootBus{4, BootMode::sdr, false}));
    EXPECT_EQ(parse_boot_bus("1"), (BootBus{1, BootMode::sdr, std::nullopt}));
    EXPECT_EQ(to_string(BootBus{8, BootMode::ddr, true}), "8,ddr,retain");
    EXPECT_EQ(to_string(BootBus{4, BootMode::sdr, false}), "4,reset");
    for (const char* bad : {"8,retain,ddr", "8,retain,reset", "8,ddr,hs", "8,ddr,retain,x", "retain"})
        EXPECT_THROW(parse_boot_bus(bad), SettingError) << bad;
}

TEST(TuneExtraParse, ExtCsdWriteIsAByteAtAnIndex)
{
    EXPECT_EQ(parse_extcsd_write("134=1"), (RawWrite{134, 1}));
    EXPECT_EQ(parse_extcsd_write("0x86=0xff"), (RawWrite{134, 255}));
    EXPECT_EQ(parse_extcsd_write("511=0"), (RawWrite{511, 0}));
    for (const char* bad : {"134", "=1", "134=", "512=0", "134=256", "-1=0", "134=-1", "0x=1", "134=1x", "134==1", " 134=1", "1e2=1",
                            "99999999999999999999=1"})
        EXPECT_THROW(parse_extcsd_write(bad), SettingError) << bad;
}

TEST(TuneExtraRaw, ClassifiesTheModesSegment)
{
    EXPECT_EQ(raw_field(134).kind, RawKind::free);
    EXPECT_EQ(raw_field(134).name, "SEC_BAD_BLK_MGMNT");
    EXPECT_EQ(raw_field(100).kind, RawKind::free); // VENDOR_SPECIFIC_FIELD
    EXPECT_EQ(raw_field(192).kind, RawKind::read_only);
    EXPECT_EQ(raw_field(300).kind, RawKind::read_only);
    EXPECT_EQ(raw_field(174).kind, RawKind::read_only);
    EXPECT_EQ(raw_field(33).typed_by, Setting::volatile_cache);
    EXPECT_EQ(raw_field(165).typed_by, Setting::sanitize);
    EXPECT_EQ(raw_field(62).typed_by, Setting::sector_emulation);
    EXPECT_EQ(raw_field(183).kind, RawKind::kernels);
    EXPECT_EQ(raw_field(32).kind, RawKind::trigger);
    EXPECT_EQ(raw_field(164).kind, RawKind::trigger);
    EXPECT_EQ(raw_field(169).kind, RawKind::one_time);
    EXPECT_EQ(raw_field(169).one_time_bits, 0x01);
    EXPECT_EQ(raw_field(0).kind, RawKind::reserved);
    EXPECT_EQ(raw_field(135).kind, RawKind::reserved);
    // Every byte of a multi-byte typed field is typed.
    for (int i = 143; i <= 154; ++i) EXPECT_EQ(raw_field(i).typed_by, Setting::gp) << i;
}

TEST(TuneExtraPlan, BootWpOnePartitionSelectsIt)
{
    const auto cm4 = fixture("emmc51-cm4");
    auto p = make_plan(cm4, boot_wp(BootWp::power_on, 2));
    ASSERT_TRUE(p.refusals.empty()) << refusal(p);
    ASSERT_EQ(p.changes.size(), 1u);
    EXPECT_EQ(p.changes[0].field, ExtCsdField::boot_wp);
    EXPECT_EQ(p.changes[0].new_value, 0x83u); // B_SEC_WP_SEL, B_PWR_WP_SEC_SEL, B_PWR_WP_EN
    EXPECT_EQ(p.changes[0].compare_mask, 0x83u);
    EXPECT_EQ(p.changes[0].undo, Undo::power_cycle);
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].index, 173);

    p = make_plan(cm4, boot_wp(BootWp::power_on, 1));
    ASSERT_EQ(p.changes.size(), 1u);
    EXPECT_EQ(p.changes[0].new_value, 0x81u);

    // Permanent: one-time, refused without --permanent, nothing written.
    p = make_plan(cm4, boot_wp(BootWp::permanent, 1));
    EXPECT_NE(refusal(p).find("give --permanent"), std::string::npos);
    EXPECT_TRUE(p.writes.empty());
    auto r = boot_wp(BootWp::permanent, 2);
    r.permanent = true;
    p = make_plan(cm4, r);
    ASSERT_TRUE(p.refusals.empty()) << refusal(p);
    EXPECT_EQ(p.changes[0].new_value, 0x8cu); // B_SEC_WP_SEL, B_PERM_WP_SEC_SEL, B_PERM_WP_EN
    EXPECT_EQ(p.changes[0].undo, Undo::one_time);
    EXPECT_TRUE(p.one_time);
}

TEST(TuneExtraPlan, BootWpOnePartitionKeepsTheOtherKindsSelection)
{
    // Boot partition 2 permanently protected (selected): power-on for 1
    // must leave B_PERM_WP_SEC_SEL pointing at 2.
    auto b = fixture("emmc51-cm4");
    b[173] = 0x8c;
    b[174] = 0x08;
    auto p = make_plan(b, boot_wp(BootWp::power_on, 1));
    ASSERT_TRUE(p.refusals.empty()) << refusal(p);
    EXPECT_EQ(p.changes[0].new_value, 0x8du);
    // ... and partition 2 itself: already permanently protected.
    p = make_plan(b, boot_wp(BootWp::power_on, 2));
    EXPECT_TRUE(p.changes.empty());
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_NE(named(p.notes[0], option_name).find("boot partition 2 is already permanently protected"), std::string::npos);
}

TEST(TuneExtraPlan, BootWpOnePartitionRefusals)
{
    // eMMC 4.41: no B_SEC_WP_SEL.
    auto p = make_plan(fixture("emmc441-kylemanna"), boot_wp(BootWp::power_on, 1));
    EXPECT_NE(refusal(p).find("needs eMMC 4.5 (EXT_CSD_REV 6); this device is eMMC 4.41 (EXT_CSD_REV 5)"), std::string::npos);
    EXPECT_TRUE(p.writes.empty());
    // Both already power-on protected (B_PWR_WP_EN, no selection): a
    // permanent protection of one would narrow the power-on one.
    const auto aaru = fixture("emmc51-aaru");
    auto r = boot_wp(BootWp::permanent, 1);
    r.permanent = true;
    p = make_plan(aaru, r);
    EXPECT_NE(refusal(p).find("permanent write protection of the boot areas is disabled for good"), std::string::npos); // B_PERM_WP_DIS
    auto b = aaru;
    b[173] = 0x01;
    p = make_plan(b, r);
    EXPECT_NE(refusal(p).find("power-on protection covers both boot partitions"), std::string::npos);
    EXPECT_TRUE(p.writes.empty());
    // Power-on on partition 1 and asked for 2: one selection per kind.
    b = fixture("emmc51-cm4");
    b[173] = 0x81;
    b[174] = 0x01;
    p = make_plan(b, boot_wp(BootWp::power_on, 2));
    EXPECT_NE(refusal(p).find("already on for the other boot partition"), std::string::npos);
    // Power-on already on both: nothing to do for one.
    p = make_plan(aaru, boot_wp(BootWp::power_on, 2));
    EXPECT_TRUE(p.changes.empty());
    EXPECT_TRUE(p.refusals.empty());
}

TEST(TuneExtraPlan, BootBusRetainSetsBit2)
{
    const auto cm4 = fixture("emmc51-cm4");
    Request r;
    r.boot_bus = BootBus{8, BootMode::sdr, true};
    auto p = make_plan(cm4, r);
    ASSERT_EQ(p.changes.size(), 1u);
    EXPECT_EQ(p.changes[0].new_value, 0x06u); // as mmc-utils' `bootbus set single_backward retain x8`
    EXPECT_EQ(p.changes[0].compare_mask, 0x1fu);
    EXPECT_NE(p.changes[0].consequence.find("keeps that bus after boot"), std::string::npos);
    auto b = cm4;
    b[177] = 0x06;
    r.boot_bus = BootBus{8, BootMode::sdr, false};
    p = make_plan(b, r);
    ASSERT_EQ(p.changes.size(), 1u);
    EXPECT_EQ(p.changes[0].new_value, 0x02u);
    // Neither retain nor reset: bit 2 stays as the device has it.
    r.boot_bus = BootBus{4, BootMode::sdr, std::nullopt};
    p = make_plan(b, r);
    EXPECT_EQ(p.changes[0].new_value, 0x05u);
    EXPECT_EQ(p.changes[0].compare_mask, 0x1bu);
}

TEST(TuneExtraPlan, RawWriteOfAFreeByte)
{
    const auto cm4 = fixture("emmc51-cm4");
    Request r;
    r.extcsd_writes = {{134, 1}};
    auto p = make_plan(cm4, r);
    ASSERT_TRUE(p.refusals.empty()) << refusal(p);
    ASSERT_EQ(p.changes.size(), 1u);
    const auto& c = p.changes[0];
    EXPECT_TRUE(c.raw);
    EXPECT_EQ(c.name, "SEC_BAD_BLK_MGMNT");
    EXPECT_EQ(c.index, 134);
    EXPECT_EQ(c.undo, Undo::reversible);
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].index, 134);
    EXPECT_EQ(p.writes[0].value, 1);
    EXPECT_EQ(p.writes[0].field, "SEC_BAD_BLK_MGMNT [134]");
    // The read-back reads the byte itself.
    auto after = cm4;
    EXPECT_EQ(planned_value(after, c), 0u);
    after[134] = 1;
    EXPECT_EQ(planned_value(after, c), 1u);
    // Already so: a note, nothing to write.
    r.extcsd_writes = {{134, 0}};
    p = make_plan(cm4, r);
    EXPECT_TRUE(p.changes.empty());
    EXPECT_EQ(p.notes.size(), 1u);
}

TEST(TuneExtraPlan, RawWriteRefusals)
{
    const auto cm4 = fixture("emmc51-cm4");
    const std::pair<RawWrite, std::string> cases[] = {
        {{192, 8}, "EXT_CSD [192] EXT_CSD_REV is read-only (the properties segment"},
        {{174, 1}, "EXT_CSD [174] BOOT_WP_STATUS is read-only"},
        {{33, 1}, "is written by --volatile-cache"},
        {{62, 1}, "is written by --sector-emulation"},
        {{183, 2}, "the kernel's own state"},
        {{32, 1}, "write-only trigger"},
        {{0, 1}, "EXT_CSD [0] is reserved"},
        {{169, 1}, "give --permanent"},
    };
    for (const auto& [w, words] : cases) {
        Request r;
        r.extcsd_writes = {w};
        const auto p = make_plan(cm4, r);
        EXPECT_NE(refusal(p).find(words), std::string::npos) << w.index << ": " << refusal(p);
        EXPECT_TRUE(p.writes.empty()) << w.index;
    }
    // One-time with --permanent: planned, one-time.
    Request r;
    r.extcsd_writes = {{169, 1}};
    r.permanent = true;
    auto p = make_plan(cm4, r);
    ASSERT_TRUE(p.refusals.empty()) << refusal(p);
    EXPECT_EQ(p.changes[0].undo, Undo::one_time);
    // A one-time bit already set is never cleared.
    auto b = cm4;
    b[169] = 1;
    r.extcsd_writes = {{169, 0}};
    p = make_plan(b, r);
    EXPECT_NE(refusal(p).find("set for good and cannot be cleared"), std::string::npos);
    // A byte given twice.
    r = Request{};
    r.extcsd_writes = {{134, 1}, {134, 0}};
    p = make_plan(cm4, r);
    EXPECT_NE(refusal(p).find("given twice"), std::string::npos);
    EXPECT_TRUE(p.writes.empty());
}

TEST(TuneExtraPlan, SectorEmulation)
{
    const auto cm4 = fixture("emmc51-cm4"); // 4 KiB native, emulating 512 bytes
    Request r;
    r.sector_emulation = false;
    auto p = make_plan(cm4, r);
    ASSERT_TRUE(p.refusals.empty()) << refusal(p);
    ASSERT_EQ(p.changes.size(), 1u);
    EXPECT_EQ(p.changes[0].field, ExtCsdField::use_native_sector);
    EXPECT_EQ(p.changes[0].new_value, 1u);
    EXPECT_TRUE(p.power_cycle);
    EXPECT_TRUE(p.destroys_data);
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].index, 62);
    // Emulation on: already so.
    r.sector_emulation = true;
    p = make_plan(cm4, r);
    EXPECT_TRUE(p.changes.empty());
    // Asked already, not yet power-cycled: a note says when.
    auto b = cm4;
    b[62] = 1;
    r.sector_emulation = false;
    p = make_plan(b, r);
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_NE(p.notes[0].find("after the next power cycle"), std::string::npos);
    // A 512-byte native device, eMMC 4.41, no enhanced reliable write.
    p = make_plan(fixture("emmc51-aaru"), r);
    EXPECT_NE(refusal(p).find("NATIVE_SECTOR_SIZE [63] is 0"), std::string::npos);
    p = make_plan(fixture("emmc441-kylemanna"), r);
    EXPECT_NE(refusal(p).find("needs eMMC 4.5"), std::string::npos);
    b = cm4;
    b[166] = 0x11;
    p = make_plan(b, r);
    EXPECT_NE(refusal(p).find("EN_REL_WR is 0"), std::string::npos);
    EXPECT_TRUE(p.writes.empty());
}

TEST(TuneExtraConfigFile, OneBootPartitionsProtectionIsSavedAsOne)
{
    // Boot partition 2 alone permanently protected: the file says so, and
    // a device of the model is planned the same, never both partitions.
    auto b = fixture("emmc51-cm4");
    b[173] = 0x8c;
    b[174] = 0x08;
    const Model model = model_of(b, "0x000015", "BJTD4R");
    const auto doc = config_json(model, request_from_device(b));
    EXPECT_EQ(doc["settings"]["boot_wp"], "permanent,2");
    Request back = request_from_config(doc, model);
    back.permanent = true;
    EXPECT_TRUE(make_plan(b, back).changes.empty());
    const Plan fresh = make_plan(fixture("emmc51-cm4"), back);
    ASSERT_TRUE(fresh.refusals.empty()) << refusal(fresh);
    bool wp = false;
    for (const auto& c : fresh.changes)
        if (c.field == ExtCsdField::boot_wp) {
            wp = true;
            EXPECT_EQ(c.new_value, 0x8cu);
        }
    EXPECT_TRUE(wp);
    // Both partitions: no number.
    b[173] = 0x04;
    b[174] = 0x0a;
    EXPECT_EQ(config_json(model, request_from_device(b))["settings"]["boot_wp"], "permanent");
}
