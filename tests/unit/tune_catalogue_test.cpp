// The current configuration view and the configuration file of mmc-tune
// emmc, on real dumps (tests/data/tune/).
#include "tune/catalogue.h"
#include "tune/config_file.h"
#include "tune/plan.h"
#include "tune_fixture.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace mmc::tune;
using mmc::regs::ExtCsdField;

namespace {

std::vector<uint8_t> dump(const std::string& name) { return mmc::test::tune_fixture(name); }

const ConfigRow& row(const std::vector<ConfigRow>& rows, ExtCsdField f)
{
    for (const auto& r : rows)
        if (r.field == f) return r;
    throw std::out_of_range("no row");
}

} // namespace

TEST(TuneCatalogue, Emmc51CurrentConfiguration)
{
    const auto rows = current_configuration(dump("emmc51-cm4"));
    const auto& cache = row(rows, ExtCsdField::cache_ctrl);
    EXPECT_EQ(cache.group, Group::cache);
    EXPECT_EQ(cache.index, 33);
    EXPECT_EQ(cache.value, "on (cache 4 MiB)");
    EXPECT_TRUE(cache.writable);
    EXPECT_EQ(cache.undo, Undo::reversible);
    const auto& rst = row(rows, ExtCsdField::rst_n_function);
    EXPECT_EQ(rst.value, "temporarily disabled");
    EXPECT_EQ(rst.undo, Undo::one_time);
    EXPECT_TRUE(rst.writable);
    const auto& done = row(rows, ExtCsdField::partition_setting_completed);
    EXPECT_EQ(done.value, "not completed");
    EXPECT_TRUE(done.after_power_cycle);
    EXPECT_EQ(row(rows, ExtCsdField::boot_wp).undo, Undo::power_cycle);
    EXPECT_FALSE(row(rows, ExtCsdField::power_off_notification).writable);
}

TEST(TuneCatalogue, CompletedAndOldDevices)
{
    const auto done = current_configuration(dump("emmc51-completed"));
    EXPECT_EQ(row(done, ExtCsdField::gp_size_mult_1).value, "512 MiB");
    EXPECT_EQ(row(done, ExtCsdField::enh_size_mult).value, "1 GiB (1073741824 bytes) at 0 bytes");
    EXPECT_FALSE(row(done, ExtCsdField::gp_size_mult_1).writable);
    EXPECT_NE(row(done, ExtCsdField::gp_size_mult_1).not_writable.find("already completed"), std::string::npos);
    const auto old = current_configuration(dump("emmc441-kylemanna"));
    EXPECT_FALSE(row(old, ExtCsdField::cache_ctrl).writable);
    EXPECT_TRUE(row(old, ExtCsdField::gp_size_mult_1).writable);
    const auto aaru = current_configuration(dump("emmc51-aaru"));
    EXPECT_EQ(row(aaru, ExtCsdField::rst_n_function).value, "permanently enabled");
    EXPECT_FALSE(row(aaru, ExtCsdField::rst_n_function).writable);
}

// What the configuration calls a field's change is what the plan calls it:
// each change a request can plan on a fresh device, labelled as its row
// says (or as the row's one-time value, for that value).
TEST(TuneCatalogue, LabelsAgreeWithThePlans)
{
    const auto dev = dump("emmc51-cm4");
    const auto rows = current_configuration(dev);
    std::vector<Request> requests(9);
    requests[0].cache = false;
    requests[1].bkops = Bkops::automatic;
    requests[2].bkops = Bkops::manual;
    requests[3].boot_partition = BootPartition::boot1;
    requests[4].rst_n = true;
    requests[5].boot_wp = BootWp::power_on;
    requests[6].boot_wp = BootWp::permanent;
    requests[7].gp[0] = 64 << 20;
    requests[7].write_reliability = {RelPart::gp1};
    requests[8].sanitize = true;
    int checked = 0;
    for (auto r : requests) {
        r.permanent = !r.sanitize;
        const Plan p = make_plan(dev, r);
        ASSERT_TRUE(p.refusals.empty()) << p.refusals[0].reason;
        for (const auto& c : p.changes) {
            if (c.field == ExtCsdField::erase_group_def) continue; // no row: the kernel's too, volatile
            const auto& rw = row(rows, c.field);
            const bool one_time_value = c.undo == Undo::one_time && !rw.one_time_value.empty();
            EXPECT_TRUE(rw.undo == c.undo || one_time_value) << c.name << ": the plan says " << to_string(c.undo) << ", the row " << to_string(rw.undo);
            EXPECT_EQ(rw.after_power_cycle, c.after_power_cycle) << c.name;
            ++checked;
        }
    }
    EXPECT_GE(checked, 10);
    EXPECT_EQ(row(rows, ExtCsdField::bkops_en).one_time_value, "manual");
    EXPECT_EQ(row(rows, ExtCsdField::boot_wp).one_time_value, "permanent");
    EXPECT_EQ(row(rows, ExtCsdField::sanitize_start).undo, Undo::action);
}

TEST(TuneConfigFile, RoundTripIsNoChangeOnTheSameModel)
{
    const auto done = dump("emmc51-completed");
    const Model model = model_of(done, "0x000015", "BJTD4R");
    const auto doc = config_json(model, request_from_device(done));
    EXPECT_EQ(doc["settings"]["gp"][0], "1,536870912");
    Request back = request_from_config(doc, model);
    back.permanent = true;
    const Plan p = make_plan(done, back);
    EXPECT_TRUE(p.changes.empty()) << p.changes[0].name;
    EXPECT_TRUE(p.refusals.empty()) << p.refusals[0].reason;
    // On a fresh device of the model, the same file partitions it.
    const Plan fresh = make_plan(dump("emmc51-cm4"), back);
    EXPECT_TRUE(fresh.refusals.empty()) << fresh.refusals[0].reason;
    EXPECT_EQ(fresh.writes.back().index, 155);
}

TEST(TuneConfigFile, AnotherModelOrAForeignFileIsRefused)
{
    const auto dev = dump("emmc51-cm4");
    const auto doc = config_json(model_of(dev, "0x000015", "BJTD4R"), request_from_device(dev));
    EXPECT_THROW(request_from_config(doc, model_of(dev, "0x000045", "DG4064")), SettingError);
    EXPECT_THROW(request_from_config(doc, model_of(dump("emmc441-kylemanna"), "0x000015", "BJTD4R")), SettingError);
    auto bad = doc;
    bad["settings"]["volatile_cache"] = "maybe";
    EXPECT_THROW(request_from_config(bad, model_of(dev, "0x000015", "BJTD4R")), SettingError);
    auto unknown = doc;
    unknown["settings"]["ffu"] = "go";
    EXPECT_THROW(request_from_config(unknown, model_of(dev, "0x000015", "BJTD4R")), SettingError);
    EXPECT_THROW(request_from_config(nlohmann::ordered_json::array(), model_of(dev, "", "")), SettingError);
}

TEST(TuneSettings, OptionValues)
{
    EXPECT_EQ(parse_boot_bus("8,ddr"), (BootBus{8, BootMode::ddr}));
    EXPECT_THROW(parse_boot_bus("2"), SettingError);
    EXPECT_THROW(parse_boot_bus("8,ddr,x"), SettingError);
    EXPECT_EQ(parse_area("16M,1G"), (Area{16 << 20, 1 << 30}));
    EXPECT_THROW(parse_area("16M"), SettingError);
    EXPECT_THROW(parse_area("16M,-1"), SettingError);
    EXPECT_EQ(parse_gp("2,512M").first, 2);
    EXPECT_THROW(parse_gp("5,512M"), SettingError);
    EXPECT_THROW(parse_gp("0,512M"), SettingError);
    EXPECT_EQ(parse_rel_parts("user,gp4").size(), 2u);
    EXPECT_THROW(parse_rel_parts("user,gp5"), SettingError);
    EXPECT_THROW(parse_on_off(Setting::volatile_cache, "yes"), SettingError);
}

// A setting mentioned inside the library's words is named by the front end:
// the words carry its identity (a pair, a partition's number), not a spelling.
TEST(TuneSettingNames, MentionsAreNamedByTheFrontEnd)
{
    const SettingNames names = [](const SettingName& n) {
        std::string s = "<" + std::to_string(static_cast<int>(n.setting));
        if (n.with) s += "+" + std::to_string(static_cast<int>(*n.with));
        if (n.partition) s += "#" + std::to_string(n.partition);
        return s + ">";
    };
    const std::string words = "give " + mention(SettingName(Setting::gp, std::nullopt, 3)) + " or " +
                              mention(SettingName(Setting::boot_partition, Setting::boot_ack)) + " and " + mention(Setting::permanent);
    EXPECT_EQ(named(words, names), "give <8#3> or <2+3> and <11>");
    EXPECT_EQ(named("no mention here", names), "no mention here");
    EXPECT_EQ(words.find("--"), std::string::npos) << "the library's words spell no option";
    try {
        parse_bkops("sometimes");
        ADD_FAILURE() << "not a value of --bkops";
    } catch (const SettingError& e) {
        EXPECT_EQ(named(e.what(), names), "<1> sometimes: expected auto, off or manual");
    }
}
