#include "corpus.h"
#include "regs/decode.h"
#include "regs/hex.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace mmc::regs;
using namespace mmc::test;

namespace {

// Corpus keys named differently from ours, and keys that are both a field and
// a decoded value where the corpus means the decoded one: cmdq_depth is raw
// 31 in fields, 32 decoded.
const std::map<std::string, std::string> aliases{
    {"card_type_device_type", "field:device_type"},
    {"cmdq_depth", "decoded:cmdq_depth"},
};

// A blank EXT_CSD of the given revision.
std::vector<uint8_t> blank(uint8_t rev = 8)
{
    std::vector<uint8_t> reg(512, 0);
    reg[192] = rev;
    return reg;
}

std::string text_of(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    return d ? d->text : "<missing " + std::string(key) + ">";
}

template <typename T>
T value_of(const DecodedRegister& r, std::string_view key)
{
    const Derived* d = r.find(key);
    if (!d) throw std::runtime_error("missing " + std::string(key));
    return std::get<T>(d->value);
}

bool has_warning(const DecodedRegister& r, std::string_view part)
{
    return std::any_of(r.warnings.begin(), r.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

} // namespace

TEST(ExtCsdCorpus, EveryComputedValueMatches)
{
    const auto entries = corpus_entries("ext_csd");
    ASSERT_EQ(entries.size(), 2u);
    CorpusCount count{"EXT_CSD"};
    for (const auto& e : entries) {
        SCOPED_TRACE(e.value("card", "?"));
        const auto bytes = parse_register_hex(RegKind::ext_csd, e.at("hex").get<std::string>());
        const DecodedRegister r = decode_ext_csd(bytes);
        EXPECT_EQ(r.card, CardFamily::mmc);
        EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
        int checked = 0;
        for (const auto& [key, expected] : e.at("expected").at("computed_values").items()) {
            const auto matches = check_corpus_key(r, key, expected, aliases);
            EXPECT_TRUE(matches) << key;
            if (matches) ++checked;
        }
        EXPECT_EQ(checked, static_cast<int>(e.at("expected").at("computed_values").size()));
        count.values += checked;
        ++count.entries;
    }
    count.print();
}

TEST(ExtCsdCorpus, RawAndDerivedCmdqDepthDiffer)
{
    const auto entries = corpus_entries("ext_csd");
    const DecodedRegister r = decode_ext_csd(parse_register_hex(RegKind::ext_csd, entries.at(0).at("hex").get<std::string>()));
    EXPECT_EQ(r.field("cmdq_depth")->raw, 31u);
    EXPECT_EQ(value_of<int64_t>(r, "cmdq_depth"), 32);
    EXPECT_EQ(r.summary, "eMMC 5.1 (EXT_CSD rev 8): 58.2 GiB, HS400 capable, life used A 0-10% B not defined");
    EXPECT_EQ(text_of(r, "pre_eol_text"), "normal");
    EXPECT_EQ(value_of<StringList>(r, "sec_feature_flags"),
              (StringList{"secure_er_en", "sec_bd_blk_en", "sec_gb_cl_en", "sec_sanitize"}));
    EXPECT_EQ(value_of<int64_t>(r, "erase_timeout_ms"), 15000);
    EXPECT_EQ(value_of<int64_t>(r, "power_off_long_time_ms"), 500);
}

TEST(ExtCsdTable, FieldsAreByteIndexedAndDoNotOverlap)
{
    const auto table = ext_csd_table();
    ASSERT_GE(table.size(), 140u);
    std::array<std::string_view, 512> owner{};
    std::set<std::string_view> names;
    for (const auto& f : table) {
        SCOPED_TRACE(std::string(f.name));
        EXPECT_TRUE(f.byte_indexed);
        EXPECT_GE(f.lo, 0);
        EXPECT_LE(f.hi, 511);
        EXPECT_LE(f.lo, f.hi);
        EXPECT_LT(f.hi - f.lo, 8);
        EXPECT_FALSE(f.meaning.empty());
        EXPECT_TRUE(names.insert(f.name).second) << "duplicate name";
        EXPECT_TRUE(std::none_of(f.name.begin(), f.name.end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)); }));
        for (int i = f.lo; i <= f.hi; ++i) {
            EXPECT_TRUE(owner[static_cast<std::size_t>(i)].empty())
                << "byte " << i << " also in " << owner[static_cast<std::size_t>(i)];
            owner[static_cast<std::size_t>(i)] = f.name;
        }
    }
    // Spot checks of offsets against JESD84-B51 / linux mmc.h.
    const auto at = [&](std::string_view name) {
        auto it = std::find_if(table.begin(), table.end(), [&](const FieldSpec& f) { return f.name == name; });
        return it == table.end() ? std::pair{-1, -1} : std::pair{it->hi, it->lo};
    };
    EXPECT_EQ(at("sec_count"), (std::pair{215, 212}));
    EXPECT_EQ(at("cache_size"), (std::pair{252, 249}));
    EXPECT_EQ(at("firmware_version"), (std::pair{261, 254}));
    EXPECT_EQ(at("gp_size_mult_1"), (std::pair{145, 143}));
    EXPECT_EQ(at("gp_size_mult_4"), (std::pair{154, 152}));
    EXPECT_EQ(at("device_type"), (std::pair{196, 196}));
    EXPECT_EQ(at("cmdq_support"), (std::pair{308, 308}));
    EXPECT_EQ(at("sanitize_start"), (std::pair{-1, -1}));
}

// Every register `mmc extcsd read` (mmc-utils do_read_extcsd) prints.
TEST(ExtCsdTable, CoversMmcUtilsFields)
{
    const std::vector<std::string> printed{
        "s_cmd_set", "hpi_features", "bkops_support", "max_packed_reads", "max_packed_writes", "data_tag_support",
        "tag_unit_size", "tag_res_size", "context_capabilities", "large_unit_size_m1", "ext_support",
        "generic_cmd6_time", "power_off_long_time", "cache_size", "bkops_status", "ini_timeout_ap",
        "pwr_cl_ddr_52_360", "pwr_cl_ddr_52_195", "pwr_cl_200_360", "pwr_cl_200_195", "min_perf_ddr_w_8_52",
        "min_perf_ddr_r_8_52", "trim_mult", "sec_feature_support", "sec_erase_mult", "sec_trim_mult", "boot_info",
        "boot_size_mult", "acc_size", "hc_erase_grp_size", "erase_timeout_mult", "rel_wr_sec_c", "hc_wp_grp_size",
        "s_c_vcc", "s_c_vccq", "s_a_timeout", "sec_count", "secure_wp_info", "min_perf_w_8_52", "min_perf_r_8_52",
        "min_perf_w_8_26_4_52", "min_perf_r_8_26_4_52", "min_perf_w_4_26", "min_perf_r_4_26", "pwr_cl_26_360",
        "pwr_cl_52_360", "pwr_cl_26_195", "pwr_cl_52_195", "partition_switch_time", "out_of_interrupt_time",
        "driver_strength", "device_type", "csd_structure", "ext_csd_rev", "cmd_set", "cmd_set_rev", "power_class",
        "hs_timing", "strobe_support", "erased_mem_cont", "partition_config", "boot_config_prot",
        "boot_bus_conditions", "erase_group_def", "boot_wp_status", "boot_wp", "user_wp", "fw_config",
        "rpmb_size_mult", "wr_rel_set", "wr_rel_param", "bkops_en", "rst_n_function", "hpi_mgmt",
        "partitioning_support", "max_enh_size_mult", "partitions_attribute", "partition_setting_completed",
        "gp_size_mult_4", "gp_size_mult_3", "gp_size_mult_2", "gp_size_mult_1", "enh_size_mult", "enh_start_addr",
        "sec_bad_blk_mgmnt", "periodic_wakeup", "program_cid_csd_ddr_support", "native_sector_size",
        "use_native_sector", "data_sector_size", "ini_timeout_emu", "class_6_ctrl", "dyncap_needed",
        "exception_events_ctrl", "exception_events_status", "ext_partitions_attribute", "packed_command_status",
        "packed_failure_index", "power_off_notification", "cache_ctrl", "barrier_ctrl", "firmware_version",
        "device_life_time_est_typ_a", "device_life_time_est_typ_b", "pre_eol_info", "secure_removal_type",
        "cmdq_support", "cmdq_depth", "cmdq_mode_en"};
    const auto r = decode_ext_csd(blank());
    for (const auto& name : printed) EXPECT_NE(r.field(name), nullptr) << name;
    for (int i = 1; i <= 15; ++i) EXPECT_NE(r.field("context_conf_" + std::to_string(i)), nullptr) << i;
}

TEST(ExtCsdDecode, WrongSizeThrows)
{
    EXPECT_THROW(decode_ext_csd(std::vector<uint8_t>(511)), std::invalid_argument);
    EXPECT_THROW(decode_ext_csd(std::vector<uint8_t>(513)), std::invalid_argument);
    EXPECT_THROW(decode_ext_csd(std::vector<uint8_t>{}), std::invalid_argument);
}

TEST(ExtCsdDecode, RevisionNames)
{
    const std::array<std::string, 9> names{"4.0", "4.1", "4.2", "4.3", "obsolete", "4.41", "4.5/4.51", "5.0/5.01", "5.1/5.1A"};
    for (uint8_t rev = 0; rev < names.size(); ++rev) {
        const auto r = decode_ext_csd(blank(rev));
        EXPECT_EQ(value_of<std::string>(r, "mmc_version"), names[rev]) << int(rev);
        EXPECT_EQ(has_warning(r, "newer than"), false);
    }
    EXPECT_TRUE(has_warning(decode_ext_csd(blank(4)), "obsolete"));
    const auto future = decode_ext_csd(blank(9));
    EXPECT_EQ(value_of<std::string>(future, "mmc_version"), "unknown");
    EXPECT_TRUE(has_warning(future, "EXT_CSD_REV 9"));
    EXPECT_EQ(future.summary.rfind("eMMC (EXT_CSD rev 9, unknown)", 0), 0u) << future.summary;
}

TEST(ExtCsdDecode, DeviceTypeBits)
{
    auto reg = blank();
    reg[196] = 0x01;
    EXPECT_EQ(value_of<StringList>(decode_ext_csd(reg), "device_type_modes"), (StringList{"HS26"}));
    reg[196] = 0xff;
    EXPECT_EQ(value_of<StringList>(decode_ext_csd(reg), "device_type_modes"),
              (StringList{"HS26", "HS52", "DDR52_1.8V/3V", "DDR52_1.2V", "HS200_1.8V", "HS200_1.2V", "HS400_1.8V",
                          "HS400_1.2V"}));
    reg[196] = 0x57;
    const auto r = decode_ext_csd(reg);
    EXPECT_EQ(value_of<StringList>(r, "device_type_modes"),
              (StringList{"HS26", "HS52", "DDR52_1.8V/3V", "HS200_1.8V", "HS400_1.8V"}));
    EXPECT_NE(r.summary.find("HS400 capable"), std::string::npos);
    reg[196] = 0;
    EXPECT_EQ(text_of(decode_ext_csd(reg), "device_type_modes"), "none");
}

TEST(ExtCsdDecode, LifeTimeAndPreEolTexts)
{
    auto reg = blank();
    const std::vector<std::pair<uint8_t, std::string>> cases{
        {0x00, "not defined"},
        {0x01, "0%-10% device life time used"},
        {0x05, "40%-50% device life time used"},
        {0x0a, "90%-100% device life time used"},
        {0x0b, "exceeded its maximum estimated device life time"},
        {0x0c, "reserved"},
    };
    for (const auto& [v, text] : cases) {
        reg[268] = v;
        reg[269] = v;
        const auto r = decode_ext_csd(reg);
        EXPECT_EQ(value_of<std::string>(r, "device_life_time_est_typ_a_text"), text);
        EXPECT_EQ(value_of<std::string>(r, "device_life_time_est_typ_b_text"), text);
    }
    const std::array<std::string, 5> eol{"not defined", "normal", "warning: 80% of reserved blocks consumed", "urgent",
                                         "reserved"};
    for (uint8_t v = 0; v < eol.size(); ++v) {
        reg[267] = v;
        EXPECT_EQ(value_of<std::string>(decode_ext_csd(reg), "pre_eol_text"), eol[v]);
    }
}

TEST(ExtCsdDecode, ContradictionsWarn)
{
    auto reg = blank();
    reg[196] = 0x17; // up to HS200, no HS400
    reg[185] = 0x03; // HS400 selected
    reg[307] = 31;   // queue depth without queue support
    const auto r = decode_ext_csd(reg);
    EXPECT_TRUE(has_warning(r, "HS400"));
    EXPECT_TRUE(has_warning(r, "CMDQ_DEPTH"));
    EXPECT_EQ(r.find("cmdq_depth"), nullptr);
    EXPECT_EQ(r.field("cmdq_depth")->raw, 31u);
    EXPECT_EQ(value_of<std::string>(r, "hs_timing_text"), "HS400");

    reg[196] = 0x57;
    reg[307] = 0;
    EXPECT_TRUE(decode_ext_csd(reg).warnings.empty());
}

TEST(ExtCsdDecode, CapacityInCsdWhenSecCountMissing)
{
    auto reg = blank(8);
    const auto empty = decode_ext_csd(reg);
    EXPECT_EQ(empty.find("capacity_bytes"), nullptr);
    EXPECT_TRUE(value_of<bool>(empty, "capacity_in_csd"));
    EXPECT_NE(empty.summary.find("capacity in CSD"), std::string::npos);

    reg[212] = 0x00, reg[213] = 0x00, reg[214] = 0x40; // 0x400000 sectors = 2 GiB
    const auto small = decode_ext_csd(reg);
    EXPECT_EQ(value_of<int64_t>(small, "capacity_bytes"), int64_t{2} << 30);
    EXPECT_FALSE(value_of<bool>(small, "block_addressed"));
    reg[212] = 1;
    EXPECT_TRUE(value_of<bool>(decode_ext_csd(reg), "block_addressed"));

    reg[192] = 1; // before rev 1.2 SEC_COUNT is not defined
    EXPECT_EQ(decode_ext_csd(reg).find("capacity_bytes"), nullptr);
}

TEST(ExtCsdDecode, PartitionConfigAndSizes)
{
    auto reg = blank();
    reg[179] = 0x48; // ack, boot from boot0, access user
    reg[226] = 32;
    reg[168] = 4;
    reg[224] = 8;
    reg[221] = 2;
    reg[143] = 3; // GP1: 3 write protect groups
    auto r = decode_ext_csd(reg);
    EXPECT_TRUE(value_of<bool>(r, "boot_ack"));
    EXPECT_EQ(value_of<std::string>(r, "boot_partition_enable"), "boot0");
    EXPECT_EQ(value_of<std::string>(r, "partition_access"), "user");
    EXPECT_EQ(value_of<int64_t>(r, "boot_partition_bytes"), 4 << 20);
    EXPECT_EQ(value_of<int64_t>(r, "rpmb_bytes"), 512 << 10);
    EXPECT_EQ(value_of<int64_t>(r, "hc_erase_group_bytes"), 4 << 20);
    EXPECT_EQ(value_of<int64_t>(r, "hc_wp_group_bytes"), 8 << 20);
    EXPECT_EQ(value_of<IntList>(r, "gp_partition_bytes"), (IntList{24 << 20, 0, 0, 0}));

    reg[179] = 0x3b; // boot from user, access RPMB
    r = decode_ext_csd(reg);
    EXPECT_FALSE(value_of<bool>(r, "boot_ack"));
    EXPECT_EQ(value_of<std::string>(r, "boot_partition_enable"), "user");
    EXPECT_EQ(value_of<std::string>(r, "partition_access"), "rpmb");
    reg[179] = 0x07;
    EXPECT_EQ(value_of<std::string>(decode_ext_csd(reg), "partition_access"), "gp4");
    EXPECT_EQ(value_of<std::string>(decode_ext_csd(reg), "boot_partition_enable"), "not enabled");
}

TEST(ExtCsdDecode, FirmwareVersionInByteOrder)
{
    auto reg = blank();
    const std::string fw = "V1.2-abc";
    std::copy(fw.begin(), fw.end(), reg.begin() + 254);
    reg[262] = 0x34, reg[263] = 0x12;
    const auto r = decode_ext_csd(reg);
    EXPECT_EQ(value_of<std::string>(r, "firmware_version_hex"), "56312e322d616263");
    EXPECT_EQ(value_of<std::string>(r, "firmware_version_ascii"), fw);
    EXPECT_EQ(value_of<std::string>(r, "device_version_hex"), "1234");
    EXPECT_EQ(r.field("firmware_version")->raw, 0x6362612d322e3156u); // little-endian number
}

TEST(ExtCsdDecode, BusWidthAndTiming)
{
    auto reg = blank();
    reg[183] = 0x86;
    reg[184] = 1;
    reg[185] = 0x12;
    reg[196] = 0x10;
    const auto r = decode_ext_csd(reg);
    EXPECT_EQ(value_of<std::string>(r, "bus_width_text"), "8 bit DDR, enhanced strobe");
    EXPECT_EQ(value_of<std::string>(r, "hs_timing_text"), "HS200");
    EXPECT_EQ(value_of<int64_t>(r, "hs_timing_driver_strength"), 1);
    EXPECT_TRUE(r.warnings.empty());
}
