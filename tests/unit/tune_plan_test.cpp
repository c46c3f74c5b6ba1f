// The planner of mmc-tune emmc on EXT_CSD dumps of real devices
// (tests/data/tune/, made by make-fixtures.py): which fields are one-time,
// which need completion, the size rounding and the capacity arithmetic,
// and the refusals.
#include "regs/decode.h"
#include "regs/ext_csd_config.h"
#include "tune/plan.h"
#include "tune_fixture.h"

#include <array>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <span>
#include <sstream>

using namespace mmc::tune;
using mmc::regs::ExtCsdField;

namespace {

std::vector<uint8_t> fixture(const std::string& name)
{
    auto out = mmc::test::tune_fixture(name);
    EXPECT_EQ(out.size(), 512u) << name;
    return out;
}

constexpr uint64_t MiB = 1 << 20;
constexpr uint64_t GiB = 1ull << 30;

const Change* change_of(const Plan& p, ExtCsdField f)
{
    for (const auto& c : p.changes)
        if (c.field == f) return &c;
    return nullptr;
}

// The options as mmc-tune emmc names the settings (tools/mmc-tune/emmc.cpp):
// a refusal read as the user reads it.
std::string option_name(const SettingName& n)
{
    static const std::map<Setting, std::string> names = {
        {Setting::volatile_cache, "--volatile-cache"}, {Setting::bkops, "--bkops"},   {Setting::boot_partition, "--boot-partition"},
        {Setting::boot_ack, "--boot-ack"},             {Setting::boot_bus, "--boot-bus"}, {Setting::rst_n, "--rst-n"},
        {Setting::boot_wp, "--boot-wp"},               {Setting::enhanced_area, "--enhanced-area"}, {Setting::gp, "--gp"},
        {Setting::write_reliability, "--write-reliability"}, {Setting::sanitize, "--sanitize"}, {Setting::permanent, "--permanent"},
        {Setting::partitioning, "(partitioning)"}};
    std::string name = names.at(n.setting);
    if (n.with) name += "/" + names.at(*n.with);
    if (n.partition) name += " " + std::to_string(n.partition);
    return name;
}

bool refused(const Plan& p, const std::string& setting, const std::string& words)
{
    for (const auto& r : p.refusals)
        if (r.setting && option_name(*r.setting) == setting && named(r.reason, option_name).find(words) != std::string::npos) return true;
    return false;
}

} // namespace

TEST(TuneExtCsdConfig, IndexesAreJedecs)
{
    // JESD84-B51 7.4 and mmc-utils' mmc.h.
    const std::pair<ExtCsdField, int> expected[] = {
        {ExtCsdField::cache_ctrl, 33},          {ExtCsdField::power_off_notification, 34},
        {ExtCsdField::enh_start_addr, 136},     {ExtCsdField::enh_size_mult, 140},
        {ExtCsdField::gp_size_mult_1, 143},     {ExtCsdField::gp_size_mult_2, 146},
        {ExtCsdField::gp_size_mult_3, 149},     {ExtCsdField::gp_size_mult_4, 152},
        {ExtCsdField::partition_setting_completed, 155}, {ExtCsdField::partitions_attribute, 156},
        {ExtCsdField::max_enh_size_mult, 157},  {ExtCsdField::partitioning_support, 160},
        {ExtCsdField::rst_n_function, 162},     {ExtCsdField::bkops_en, 163},
        {ExtCsdField::sanitize_start, 165},     {ExtCsdField::wr_rel_param, 166},
        {ExtCsdField::wr_rel_set, 167},         {ExtCsdField::boot_wp, 173},
        {ExtCsdField::boot_wp_status, 174},     {ExtCsdField::erase_group_def, 175},
        {ExtCsdField::boot_bus_conditions, 177}, {ExtCsdField::boot_config_prot, 178},
        {ExtCsdField::partition_config, 179},   {ExtCsdField::ext_csd_rev, 192},
        {ExtCsdField::partition_switch_time, 199}, {ExtCsdField::sec_count, 212},
        {ExtCsdField::hc_wp_grp_size, 221},     {ExtCsdField::erase_timeout_mult, 223},
        {ExtCsdField::hc_erase_grp_size, 224},  {ExtCsdField::boot_size_mult, 226},
        {ExtCsdField::boot_info, 228},          {ExtCsdField::sec_feature_support, 231},
        {ExtCsdField::generic_cmd6_time, 248},  {ExtCsdField::cache_size, 249},
        {ExtCsdField::bkops_support, 502},
    };
    for (const auto& [field, index] : expected) EXPECT_EQ(mmc::regs::field_place(field).lo, index) << mmc::regs::field_place(field).jedec;
    EXPECT_EQ(mmc::regs::field_place(ExtCsdField::enh_start_addr).hi, 139);
    EXPECT_EQ(mmc::regs::field_place(ExtCsdField::gp_size_mult_4).hi, 154);
    EXPECT_EQ(mmc::regs::field_place(ExtCsdField::cache_size).hi, 252);
}

TEST(TuneExtCsdConfig, ReadsTheDevicesGrouping)
{
    const auto cm4 = fixture("emmc51-cm4");
    EXPECT_EQ(mmc::regs::wp_group_bytes(cm4), 8 * MiB); // HC_WP_GRP_SIZE 2 x HC_ERASE_GRP_SIZE 8 x 512 KiB
    EXPECT_EQ(mmc::regs::user_area_bytes(cm4), 122142720ull * 512);
    EXPECT_TRUE(mmc::regs::sector_addressed(cm4));
    EXPECT_THROW(mmc::regs::ext_csd_value(std::vector<uint8_t>(511), ExtCsdField::cache_ctrl), std::invalid_argument);
}

TEST(TunePlan, CacheOffIsReversibleWithItsFieldAndIndex)
{
    const auto cm4 = fixture("emmc51-cm4");
    ASSERT_EQ(cm4[33], 1); // the CM4's cache is on
    Request r;
    r.cache = false;
    const Plan p = make_plan(cm4, r);
    ASSERT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.changes.size(), 1u);
    EXPECT_EQ(p.changes[0].name, "CACHE_CTRL");
    EXPECT_EQ(p.changes[0].index, 33);
    EXPECT_EQ(p.changes[0].old_value, 1u);
    EXPECT_EQ(p.changes[0].new_value, 0u);
    EXPECT_TRUE(p.changes[0].reversible());
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].index, 33);
    EXPECT_EQ(p.writes[0].value, 0);
    EXPECT_EQ(p.writes[0].timeout_ms, cm4[248] * 10u); // GENERIC_CMD6_TIME
    EXPECT_FALSE(p.one_time);
    EXPECT_TRUE(p.applicable());
}

TEST(TunePlan, AlreadySoIsANoteNotAChange)
{
    Request r;
    r.cache = true;
    const Plan p = make_plan(fixture("emmc51-cm4"), r);
    EXPECT_TRUE(p.changes.empty());
    EXPECT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_FALSE(p.applicable());
}

TEST(TunePlan, CacheAndAutoBkopsRefusedOnEmmc441)
{
    Request r;
    r.cache = true;
    r.bkops = Bkops::automatic;
    const Plan p = make_plan(fixture("emmc441-kylemanna"), r);
    EXPECT_TRUE(refused(p, "--volatile-cache", "needs eMMC 4.5 (EXT_CSD_REV 6); this device is eMMC 4.41"));
    EXPECT_TRUE(refused(p, "--bkops", "needs eMMC 5.0"));
    EXPECT_FALSE(p.applicable());
}

TEST(TunePlan, ManualBkopsIsOneTimeAndNeedsPermanent)
{
    const auto dev = fixture("emmc45-rev6");
    Request r;
    r.bkops = Bkops::manual;
    Plan p = make_plan(dev, r);
    ASSERT_NE(change_of(p, ExtCsdField::bkops_en), nullptr);
    EXPECT_EQ(change_of(p, ExtCsdField::bkops_en)->undo, Undo::one_time);
    EXPECT_NE(change_of(p, ExtCsdField::bkops_en)->consequence.find("cannot be undone on this device"), std::string::npos);
    EXPECT_TRUE(refused(p, "--bkops", "give --permanent"));
    r.permanent = true;
    p = make_plan(dev, r);
    EXPECT_TRUE(p.refusals.empty());
    EXPECT_TRUE(p.one_time);
}

TEST(TunePlan, BootPartitionAndAckAreOneWriteKeepingTheAccessBits)
{
    auto dev = fixture("emmc51-cm4");
    dev[179] = 0x01; // access bits say boot0: they must survive
    Request r;
    r.boot_partition = BootPartition::boot2;
    r.boot_ack = true;
    const Plan p = make_plan(dev, r);
    ASSERT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].index, 179);
    EXPECT_EQ(p.writes[0].value, 0x40 | 2 << 3 | 0x01);
    EXPECT_EQ(p.changes[0].compare_mask, 0x78u);
    // PARTITION_SWITCH_TIME when longer than GENERIC_CMD6_TIME.
    EXPECT_EQ(p.writes[0].timeout_ms, std::max(dev[248], dev[199]) * 10u);
}

TEST(TunePlan, BootAckWithoutABootPartitionIsContradictory)
{
    Request r;
    r.boot_partition = BootPartition::none;
    r.boot_ack = true;
    const Plan p = make_plan(fixture("emmc51-cm4"), r);
    EXPECT_TRUE(refused(p, "--boot-partition/--boot-ack", "no boot partition enabled"));
    EXPECT_TRUE(p.changes.empty());
}

TEST(TunePlan, BootConfigProtectionRefuses)
{
    auto dev = fixture("emmc51-cm4");
    dev[178] = 0x10; // PERM_BOOT_CONFIG_PROT
    Request r;
    r.boot_partition = BootPartition::boot1;
    EXPECT_TRUE(refused(make_plan(dev, r), "--boot-partition", "permanently protected"));
    Request bus;
    bus.boot_bus = BootBus{8, BootMode::sdr};
    EXPECT_TRUE(refused(make_plan(dev, bus), "--boot-bus", "BOOT_CONFIG_PROT"));
}

TEST(TunePlan, BootBusWidthAndModes)
{
    const auto dev = fixture("emmc51-cm4"); // BOOT_INFO 7: alternative, DDR and HS boot
    Request r;
    r.boot_bus = BootBus{8, BootMode::ddr};
    Plan p = make_plan(dev, r);
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].index, 177);
    EXPECT_EQ(p.writes[0].value, (dev[177] & 0x04) | 2 << 3 | 2);
    r.boot_bus = BootBus{1, BootMode::ddr};
    EXPECT_TRUE(refused(make_plan(dev, r), "--boot-bus", "4 or 8 bits"));
    auto no_ddr = dev;
    no_ddr[228] = 0x01;
    r.boot_bus = BootBus{4, BootMode::ddr};
    EXPECT_TRUE(refused(make_plan(no_ddr, r), "--boot-bus", "DDR_BOOT_MODE is 0"));
}

TEST(TunePlan, RstNIsOneTimeAndRefusedOnceSet)
{
    Request r;
    r.rst_n = true;
    r.permanent = true;
    const Plan p = make_plan(fixture("emmc51-cm4"), r);
    ASSERT_NE(change_of(p, ExtCsdField::rst_n_function), nullptr);
    EXPECT_EQ(change_of(p, ExtCsdField::rst_n_function)->index, 162);
    EXPECT_EQ(change_of(p, ExtCsdField::rst_n_function)->new_value, 1u);
    EXPECT_FALSE(change_of(p, ExtCsdField::rst_n_function)->reversible());
    // The Aaru device's RST_n is permanently enabled already.
    const auto aaru = fixture("emmc51-aaru");
    EXPECT_TRUE(make_plan(aaru, r).notes.size() == 1 && make_plan(aaru, r).changes.empty());
    r.rst_n = false;
    EXPECT_TRUE(refused(make_plan(aaru, r), "--rst-n", "already set for good"));
}

TEST(TunePlan, BootWpPowerOnLastsUntilPowerCyclePermanentIsOneTime)
{
    const auto dev = fixture("emmc51-cm4");
    Request r;
    r.boot_wp = BootWp::power_on;
    Plan p = make_plan(dev, r);
    ASSERT_TRUE(p.refusals.empty());
    EXPECT_EQ(p.changes[0].undo, Undo::power_cycle);
    EXPECT_EQ(p.writes[0].index, 173);
    EXPECT_EQ(p.writes[0].value, dev[173] | 0x01);
    r.boot_wp = BootWp::permanent;
    p = make_plan(dev, r);
    EXPECT_EQ(p.changes[0].undo, Undo::one_time);
    EXPECT_TRUE(refused(p, "--boot-wp", "--permanent"));
    auto disabled = dev;
    disabled[173] = 0x10; // B_PERM_WP_DIS
    r.permanent = true;
    EXPECT_TRUE(refused(make_plan(disabled, r), "--boot-wp", "B_PERM_WP_DIS"));
}

TEST(TunePlan, GpPartitionCapacityArithmeticAndCompletionInOneTransaction)
{
    const auto dev = fixture("emmc51-cm4");
    Request r;
    r.gp[0] = 512 * MiB;
    r.permanent = true;
    const Plan p = make_plan(dev, r);
    ASSERT_TRUE(p.refusals.empty()) << p.refusals[0].reason;
    const Change* gp = change_of(p, ExtCsdField::gp_size_mult_1);
    ASSERT_NE(gp, nullptr);
    EXPECT_EQ(gp->new_value, 64u); // 512 MiB / 8 MiB groups
    EXPECT_TRUE(gp->after_power_cycle);
    EXPECT_EQ(p.user_area_after, p.user_area_before - 512 * MiB);
    // GP_SIZE_MULT_1 [145:143], highest byte first, then completion last.
    ASSERT_GE(p.writes.size(), 4u);
    const auto n = p.writes.size();
    EXPECT_EQ(p.writes[n - 4].index, 145);
    EXPECT_EQ(p.writes[n - 2].index, 143);
    EXPECT_EQ(p.writes[n - 2].value, 64);
    EXPECT_EQ(p.writes[n - 1].index, 155);
    EXPECT_EQ(p.writes[n - 1].value, 1);
    EXPECT_TRUE(p.power_cycle);
    EXPECT_TRUE(p.destroys_data);
    EXPECT_NE(change_of(p, ExtCsdField::partition_setting_completed)->consequence.find("cannot be undone on this device"), std::string::npos);
}

TEST(TunePlan, EnhancedAreaCostsCapacityByTheDevicesRatio)
{
    const auto dev = fixture("emmc51-cm4"); // MAX_ENH_SIZE_MULT 3728 x 8 MiB = 29.125 GiB of 58.24 GiB
    Request r;
    r.enhanced_area = Area{0, 1 * GiB};
    r.permanent = true;
    const Plan p = make_plan(dev, r);
    ASSERT_TRUE(p.refusals.empty()) << p.refusals[0].reason;
    EXPECT_EQ(change_of(p, ExtCsdField::enh_size_mult)->new_value, 128u);
    EXPECT_EQ(change_of(p, ExtCsdField::partitions_attribute)->new_value & 1, 1u);
    const double ratio = double(122142720ull * 512) / double(3728ull * 8 * MiB);
    const auto expected_loss = static_cast<uint64_t>(double(GiB) * (ratio - 1));
    EXPECT_EQ(p.user_area_before - p.user_area_after, expected_loss);
}

TEST(TunePlan, EnhancedAreaStartCountsSectorsOnASectorAddressedDevice)
{
    Request r;
    r.enhanced_area = Area{64 * MiB, 64 * MiB};
    r.permanent = true;
    const Plan p = make_plan(fixture("emmc51-cm4"), r);
    ASSERT_TRUE(p.refusals.empty());
    EXPECT_EQ(change_of(p, ExtCsdField::enh_start_addr)->new_value, 64 * MiB / 512);
}

TEST(TunePlan, UnalignedSizesAreRefusedWithTheNearest)
{
    Request r;
    r.gp[1] = 100 * MiB;
    r.permanent = true;
    const Plan p = make_plan(fixture("emmc51-cm4"), r);
    EXPECT_TRUE(refused(p, "--gp 2", "not a multiple of the device's write protect group (8 MiB"));
    EXPECT_TRUE(refused(p, "--gp 2", "the nearest are 96 MiB and 104 MiB"));
    EXPECT_TRUE(p.writes.empty());
    Request e;
    e.enhanced_area = Area{4 * MiB, 8 * MiB};
    EXPECT_TRUE(refused(make_plan(fixture("emmc51-cm4"), e), "--enhanced-area", "OFFSET 4 MiB is not a multiple"));
}

TEST(TunePlan, OutOfRangeSizesAreRefused)
{
    const auto dev = fixture("emmc441-kylemanna"); // max enhanced 458 x 4 MiB
    Request r;
    r.enhanced_area = Area{0, 460 * 4 * MiB};
    EXPECT_TRUE(refused(make_plan(dev, r), "--enhanced-area", "more than the device's maximum"));
    Request past;
    past.enhanced_area = Area{3 * GiB, 1 * GiB};
    EXPECT_TRUE(refused(make_plan(dev, past), "--enhanced-area", "ends past the user area"));
    Request huge;
    huge.gp[0] = 4 * GiB;
    EXPECT_TRUE(refused(make_plan(dev, huge), "--gp", "leave no user area"));
    Request zero;
    zero.gp[3] = 0;
    EXPECT_TRUE(refused(make_plan(dev, zero), "--gp 4", "SIZE 0"));
}

TEST(TunePlan, WriteReliabilityOfAMissingGpIsContradictory)
{
    Request r;
    r.write_reliability = {RelPart::user, RelPart::gp2};
    r.permanent = true;
    auto dev = fixture("emmc51-cm4");
    dev[167] = 0; // WR_REL_SET: nothing reliable yet (the CM4 ships with 0x1f)
    EXPECT_TRUE(refused(make_plan(dev, r), "--write-reliability", "gp2 does not exist"));
    r.gp[1] = 64 * MiB;
    const Plan p = make_plan(dev, r);
    ASSERT_TRUE(p.refusals.empty()) << p.refusals[0].reason;
    const Change* rel = change_of(p, ExtCsdField::wr_rel_set);
    ASSERT_NE(rel, nullptr);
    EXPECT_EQ(rel->index, 167);
    EXPECT_EQ(rel->new_value, 0x05u);
}

TEST(TunePlan, CompletedPartitioningRefusesEveryPartitionSetting)
{
    const auto done = fixture("emmc51-completed");
    Request r;
    r.gp[2] = 64 * MiB;
    r.permanent = true;
    const Plan p = make_plan(done, r);
    EXPECT_TRUE(refused(p, "--gp", "already completed"));
    EXPECT_TRUE(p.writes.empty());
    // Asking for exactly what is there (a saved configuration) is no change.
    Request same;
    same.enhanced_area = Area{0, 1 * GiB};
    same.gp[0] = 512 * MiB;
    const Plan q = make_plan(done, same);
    EXPECT_TRUE(q.refusals.empty());
    EXPECT_TRUE(q.changes.empty());
}

TEST(TunePlan, PendingUncompletedSettingsAreNamed)
{
    auto dev = fixture("emmc51-cm4");
    dev[143] = 8; // GP1 of 64 MiB written earlier, never completed
    Request r;
    r.gp[1] = 64 * MiB;
    r.permanent = true;
    const Plan p = make_plan(dev, r);
    ASSERT_TRUE(p.refusals.empty());
    ASSERT_FALSE(p.notes.empty());
    EXPECT_NE(p.notes[0].find("completes them too"), std::string::npos);
    EXPECT_EQ(p.user_area_after, p.user_area_before - 128 * MiB);
}

TEST(TunePlan, SanitizeAloneDestroysAndIsNotVerified)
{
    const auto dev = fixture("emmc51-cm4");
    Request r;
    r.sanitize = true;
    Plan p = make_plan(dev, r);
    ASSERT_TRUE(p.refusals.empty());
    ASSERT_EQ(p.writes.size(), 1u);
    EXPECT_EQ(p.writes[0].index, 165);
    EXPECT_GE(p.writes[0].timeout_ms, 240000u);
    EXPECT_FALSE(p.changes[0].verify);
    EXPECT_TRUE(p.destroys_data);
    EXPECT_NE(p.changes[0].consequence.find("unrecoverable"), std::string::npos);
    r.cache = false;
    EXPECT_TRUE(refused(make_plan(dev, r), "--sanitize", "on its own"));
    Request old;
    old.sanitize = true;
    EXPECT_TRUE(refused(make_plan(fixture("emmc441-kylemanna"), old), "--sanitize", "needs eMMC 4.5"));
}

TEST(TunePlan, NoPartitioningWithoutSupport)
{
    auto dev = fixture("emmc51-cm4");
    dev[160] = 0;
    Request r;
    r.gp[0] = 64 * MiB;
    EXPECT_TRUE(refused(make_plan(dev, r), "--gp", "PARTITIONING_EN is 0"));
    dev[160] = 1;
    Request e;
    e.enhanced_area = Area{0, 64 * MiB};
    EXPECT_TRUE(refused(make_plan(dev, e), "--enhanced-area", "ENH_ATTRIBUTE_EN is 0"));
}

// Any EXT_CSD bytes (a pasted register is outside input) with every
// setting: a plan or refusals, never a crash, a write outside the modes
// segment, or a write of a field the plan does not name.
TEST(TunePlan, AnyBytesAnySettings)
{
    uint32_t state = 12345;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    for (int round = 0; round < 3000; ++round) {
        std::vector<uint8_t> b(512);
        for (auto& x : b) x = static_cast<uint8_t>(next() >> 24);
        if (round % 3 == 0) b[192] = static_cast<uint8_t>(next() % 9); // a defined revision, so more gets past support
        Request r;
        r.cache = next() & 1;
        r.bkops = static_cast<Bkops>(next() % 3);
        r.boot_partition = std::array{BootPartition::none, BootPartition::boot1, BootPartition::boot2, BootPartition::user}[next() % 4];
        r.boot_ack = next() & 1;
        r.boot_bus = BootBus{std::array{1, 4, 8}[next() % 3], static_cast<BootMode>(next() % 3)};
        r.rst_n = next() & 1;
        r.boot_wp = static_cast<BootWp>(next() % 2);
        r.permanent = next() & 1;
        if (next() & 1) r.enhanced_area = Area{uint64_t(next()) << 12, uint64_t(next()) << 10};
        if (next() & 1) r.gp[next() % 4] = uint64_t(next()) << 12;
        if (next() & 1) r.write_reliability = {static_cast<RelPart>(next() % 5)};
        r.sanitize = (next() % 16) == 0;
        const Plan p = make_plan(b, r);
        for (const auto& w : p.writes) {
            ASSERT_LT(w.index, 192) << "a write outside the modes segment";
            bool named = false;
            for (const auto& c : p.changes) {
                const auto place = mmc::regs::field_place(c.field);
                named = named || (w.index >= place.lo && w.index <= place.hi);
            }
            ASSERT_TRUE(named) << w.field;
        }
        EXPECT_TRUE(!p.applicable() || p.refusals.empty());
    }
}

namespace tune_plan_property {

// The partitioning a device works with: sizes and attributes count once
// completed; WR_REL_SET as it reads (the device's own default is in force
// before completion). The oracle of the property below, spelled out here
// rather than taken from the planner it checks.
struct Layout {
    uint64_t enh_mult = 0, enh_start = 0, attr = 0, rel = 0;
    std::array<uint64_t, 4> gp{};
    bool operator==(const Layout&) const = default;
};

uint64_t field(std::span<const uint8_t> b, ExtCsdField f) { return mmc::regs::ext_csd_value(b, f); }

Layout written_layout(std::span<const uint8_t> b)
{
    return {field(b, ExtCsdField::enh_size_mult), field(b, ExtCsdField::enh_start_addr), field(b, ExtCsdField::partitions_attribute) & 0x1f,
            field(b, ExtCsdField::wr_rel_set) & 0x1f,
            {field(b, ExtCsdField::gp_size_mult_1), field(b, ExtCsdField::gp_size_mult_2), field(b, ExtCsdField::gp_size_mult_3),
             field(b, ExtCsdField::gp_size_mult_4)}};
}

Layout layout_in_force(std::span<const uint8_t> b)
{
    if (field(b, ExtCsdField::partition_setting_completed) & 1) return written_layout(b);
    Layout l;
    l.rel = field(b, ExtCsdField::wr_rel_set) & 0x1f;
    return l;
}

// A device's EXT_CSD with its configuration bytes drawn at random over a
// real dump's (so that most settings get past the support checks), some
// with partitioning completed or settings pending.
std::vector<uint8_t> random_device(const std::vector<uint8_t>& base, const std::function<uint32_t()>& next)
{
    auto b = base;
    auto small = [&](uint32_t n) { return next() % n; };
    b[192] = static_cast<uint8_t>(5 + small(4));    // EXT_CSD_REV: eMMC 4.41 to 5.1
    b[160] = static_cast<uint8_t>(small(8));         // PARTITIONING_SUPPORT
    b[166] = static_cast<uint8_t>(small(4) ? 0x15 : 0x14); // WR_REL_PARAM, HS_CTRL_REL mostly set
    b[167] = static_cast<uint8_t>(small(4) ? 0x1f : small(32)); // WR_REL_SET, most ship with 0x1f
    b[155] = static_cast<uint8_t>(small(4) == 0);    // PARTITION_SETTING_COMPLETED
    b[175] = static_cast<uint8_t>(small(2));         // ERASE_GROUP_DEF
    b[221] = static_cast<uint8_t>(1 + small(4));     // HC_WP_GRP_SIZE
    b[224] = static_cast<uint8_t>(1 + small(8));     // HC_ERASE_GRP_SIZE
    b[157] = static_cast<uint8_t>(small(200));       // MAX_ENH_SIZE_MULT, low byte
    b[158] = b[159] = 0;
    const bool some = small(3) == 0; // settings written (pending, or completed)
    b[156] = static_cast<uint8_t>(some ? small(32) : 0);
    for (int i = 136; i <= 154; ++i) b[i] = 0;
    if (some) {
        if (small(2)) b[140] = static_cast<uint8_t>(1 + small(8));
        for (int g = 0; g < 4; ++g)
            if (small(3) == 0) b[143 + 3 * g] = static_cast<uint8_t>(1 + small(8));
    }
    b[162] = static_cast<uint8_t>(small(3));         // RST_n_FUNCTION
    b[163] = static_cast<uint8_t>(small(4));         // BKOPS_EN
    b[173] = static_cast<uint8_t>(small(4) ? 0 : small(256)); // BOOT_WP
    b[178] = static_cast<uint8_t>(small(4) ? 0 : 0x10); // BOOT_CONFIG_PROT
    return b;
}

} // namespace tune_plan_property

// The rule "a change must have an effect", over thousands of devices and
// requests: no one-time write whose resulting configuration is the one in
// force; a plan of no change writes nothing; a refused plan lists no
// writes; a one-time change is never planned without --permanent; sanitize
// is an action given alone.
TEST(TunePlan, NoOneTimeWriteWithoutAnEffect)
{
    using namespace tune_plan_property;
    const auto base = fixture("emmc51-cm4");
    uint32_t state = 48;
    const std::function<uint32_t()> next = [&] { return state = state * 1664525u + 1013904223u, state >> 8; };
    constexpr int rounds = 20000;
    int completions = 0, nothing = 0, in_force_asked = 0;
    for (int round = 0; round < rounds; ++round) {
        const auto b = random_device(base, next);
        const uint64_t unit = mmc::regs::wp_group_bytes(b);
        const Layout now = layout_in_force(b);
        // Sizes of whole groups, half of them the device's own.
        auto gp_size = [&](int g) { return next() % 2 ? now.gp[static_cast<std::size_t>(g)] * unit : (1 + next() % 8) * unit; };
        Request r;
        r.permanent = next() % 4 != 0;
        if (next() % 3 == 0) r.enhanced_area = Area{next() % 2 ? now.enh_start * 512 : 0, next() % 2 ? now.enh_mult * unit : (1 + next() % 4) * unit};
        for (int g = 0; g < 4; ++g)
            if (next() % 4 == 0) r.gp[static_cast<std::size_t>(g)] = gp_size(g);
        if (next() % 2)
            for (int part = 0; part < 5; ++part)
                if (next() % 3 == 0) r.write_reliability.push_back(static_cast<RelPart>(part));
        if (next() % 4 == 0) r.rst_n = next() & 1;
        if (next() % 4 == 0) r.bkops = static_cast<Bkops>(next() % 3);
        if (next() % 4 == 0) r.boot_wp = static_cast<BootWp>(next() % 2);
        if (next() % 4 == 0) r.cache = next() & 1;
        r.sanitize = next() % 32 == 0;
        if (r.empty()) r.write_reliability.push_back(RelPart::user);

        const Plan p = make_plan(b, r);
        // The device as the plan's changes leave it (a refused plan's too:
        // what it would have done is what is judged).
        auto after = b;
        for (const auto& c : p.changes) {
            const auto place = mmc::regs::field_place(c.field);
            for (int i = place.lo; i <= place.hi; ++i) after[static_cast<std::size_t>(i)] = static_cast<uint8_t>(c.new_value >> 8 * (i - place.lo));
        }
        std::string context = fmt::format("round {}: completed {}, WR_REL_SET 0x{:02x}, asked: rel {}, gp {}{}{}{}, enh {}; plan:", round,
                                          b[155], b[167], r.write_reliability.size(), r.gp[0].has_value(), r.gp[1].has_value(),
                                          r.gp[2].has_value(), r.gp[3].has_value(), r.enhanced_area.has_value());
        for (const auto& c : p.changes) context += fmt::format(" {} {}->{}", c.name, c.old_value, c.new_value);
        for (const auto& f : p.refusals) context += " refused: " + named(f.reason, option_name);

        if (p.changes.empty()) {
            ++nothing;
            EXPECT_TRUE(p.writes.empty()) << context << ": no change, yet writes";
        }
        if (!p.refusals.empty()) {
            EXPECT_TRUE(p.writes.empty()) << context << ": a refused plan lists writes";
        }
        for (const auto& c : p.changes) {
            if (c.undo == Undo::one_time) {
                EXPECT_TRUE(r.permanent ? true : !p.refusals.empty()) << context << ": one-time without --permanent, not refused";
                EXPECT_NE(c.old_value & c.compare_mask, c.new_value & c.compare_mask) << context << " " << c.name;
                if (c.field == ExtCsdField::partition_setting_completed) {
                    ++completions;
                    EXPECT_FALSE(written_layout(after) == now) << context << ": a completion that changes nothing";
                }
            }
            if (c.undo == Undo::action) {
                EXPECT_TRUE(r.sanitize && p.changes.size() == 1) << context << ": an action not given alone";
            }
        }
        // A partition request wholly in force plans no partition write.
        bool asked_in_force = r.partitions() && !r.sanitize;
        for (const RelPart part : r.write_reliability) asked_in_force = asked_in_force && (now.rel >> static_cast<int>(part) & 1);
        for (std::size_t g = 0; g < 4; ++g) asked_in_force = asked_in_force && (!r.gp[g] || (now.gp[g] && now.gp[g] * unit == *r.gp[g]));
        if (r.enhanced_area)
            asked_in_force = asked_in_force && now.enh_mult && now.enh_mult * unit == r.enhanced_area->size &&
                             now.enh_start * 512 == r.enhanced_area->offset;
        if (asked_in_force) {
            ++in_force_asked;
            for (const auto& c : p.changes)
                EXPECT_TRUE(c.undo != Undo::one_time || c.field == ExtCsdField::rst_n_function || c.field == ExtCsdField::bkops_en ||
                            c.field == ExtCsdField::boot_wp)
                    << context << ": " << c.name << " planned for partition settings in force";
        }
    }
    // The draw reaches each case often enough to mean something.
    EXPECT_GT(completions, rounds / 20);
    EXPECT_GT(nothing, rounds / 20);
    EXPECT_GT(in_force_asked, rounds / 20);
}
