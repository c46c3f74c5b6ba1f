// Which EXT_CSD bytes a raw write (--extcsd-write) may change, from the
// cell types of JESD84-B51 7.4 (Table "Extended CSD"): the modes segment
// [191:0] is where a host writes; the properties segment [511:192] is read
// only. Names come from the EXT_CSD decoder's table (regs/ext_csd.cpp), so
// a byte is named in one place.
#include "tune/emmc_extra.h"

#include "regs/decode.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace mmc::tune {

namespace {

struct Kind {
    std::string_view field; // the decoder table's name
    RawKind kind;
    uint8_t one_time_bits = 0;
    std::optional<Setting> typed_by = std::nullopt;
};

// The modes segment's fields by kind (JESD84-B51 7.4; cell types in
// brackets). A field missing here is free: R/W or R/W/E and no typed
// setting (SEC_BAD_BLK_MGMNT [134], PERIODIC_WAKEUP [131], CONTEXT_CONF
// [51:37], BARRIER_CTRL [31], ...).
constexpr std::array kinds = {
    // The typed settings' fields: written only through them, with their guards.
    Kind{"cache_ctrl", RawKind::typed, 0, Setting::volatile_cache},              // [33] R/W/E_P
    Kind{"enh_start_addr", RawKind::typed, 0, Setting::enhanced_area},           // [139:136] R/W
    Kind{"enh_size_mult", RawKind::typed, 0, Setting::enhanced_area},            // [142:140] R/W
    Kind{"gp_size_mult_1", RawKind::typed, 0, Setting::gp},                      // [145:143] R/W
    Kind{"gp_size_mult_2", RawKind::typed, 0, Setting::gp},                      // [148:146] R/W
    Kind{"gp_size_mult_3", RawKind::typed, 0, Setting::gp},                      // [151:149] R/W
    Kind{"gp_size_mult_4", RawKind::typed, 0, Setting::gp},                      // [154:152] R/W
    Kind{"partition_setting_completed", RawKind::typed, 0, Setting::partitioning}, // [155] R/W
    Kind{"partitions_attribute", RawKind::typed, 0, Setting::enhanced_area},     // [156] R/W
    Kind{"rst_n_function", RawKind::typed, 0, Setting::rst_n},                   // [162] R/W
    Kind{"bkops_en", RawKind::typed, 0, Setting::bkops},                         // [163] R/W/E
    Kind{"wr_rel_set", RawKind::typed, 0, Setting::write_reliability},           // [167] R/W
    Kind{"boot_wp", RawKind::typed, 0, Setting::boot_wp},                        // [173] R/W, R/W/C_P
    Kind{"boot_bus_conditions", RawKind::typed, 0, Setting::boot_bus},           // [177] R/W/E
    Kind{"partition_config", RawKind::typed, 0, Setting::boot_partition},        // [179] R/W/E, R/W/E_P
    Kind{"use_native_sector", RawKind::typed, 0, Setting::sector_emulation},     // [62] R/W
    // Bits set once and for good.
    Kind{"boot_config_prot", RawKind::one_time, 0x10},       // [178] PERM_BOOT_CONFIG_PROT (R/W/C_P)
    Kind{"user_wp", RawKind::one_time, 0xd4},                // [171] PERM_PSWD_DIS, CD_PERM_WP_DIS, US_PERM_WP_DIS, US_PERM_WP_EN
    Kind{"fw_config", RawKind::one_time, 0x01},              // [169] Update_Disable: FFU off for good
    Kind{"ext_partitions_attribute", RawKind::one_time, 0xff}, // [53:52] partitioning, completed once
    // The kernel's own state: a write behind its back desynchronises it.
    Kind{"cmd_set", RawKind::kernels},                       // [191] R/W/E_P
    Kind{"power_class", RawKind::kernels},                   // [187] R/W/E_P
    Kind{"hs_timing", RawKind::kernels},                     // [185] R/W/E_P
    Kind{"bus_width", RawKind::kernels},                     // [183] W/E_P
    Kind{"erase_group_def", RawKind::kernels},               // [175] R/W/E_P
    Kind{"hpi_mgmt", RawKind::kernels},                      // [161] R/W/E_P
    Kind{"power_off_notification", RawKind::kernels},        // [34] R/W/E_P
    Kind{"mode_config", RawKind::kernels},                   // [30] R/W/E_P: FFU or vendor mode
    Kind{"cmdq_mode_en", RawKind::kernels},                  // [15] R/W/E_P
    // Write-only triggers.
    Kind{"flush_cache", RawKind::trigger},                   // [32] W/E_P
    Kind{"mode_operation_codes", RawKind::trigger},          // [29] W/E_P
    // Read only in the modes segment.
    Kind{"cmd_set_rev", RawKind::read_only},                 // [189] R
    Kind{"strobe_support", RawKind::read_only},              // [184] R
    Kind{"erased_mem_cont", RawKind::read_only},             // [181] R
    Kind{"boot_wp_status", RawKind::read_only},              // [174] R
    Kind{"rpmb_size_mult", RawKind::read_only},              // [168] R
    Kind{"wr_rel_param", RawKind::read_only},                // [166] R
    Kind{"partitioning_support", RawKind::read_only},        // [160] R
    Kind{"max_enh_size_mult", RawKind::read_only},           // [159:157] R
    Kind{"program_cid_csd_ddr_support", RawKind::read_only}, // [130] R
    Kind{"native_sector_size", RawKind::read_only},          // [63] R
    Kind{"data_sector_size", RawKind::read_only},            // [61] R
    Kind{"ini_timeout_emu", RawKind::read_only},             // [60] R
    Kind{"dyncap_needed", RawKind::read_only},               // [58] R
    Kind{"exception_events_status", RawKind::read_only},     // [55:54] R
    Kind{"packed_command_status", RawKind::read_only},       // [36] R
    Kind{"packed_failure_index", RawKind::read_only},        // [35] R
    Kind{"max_pre_loading_data_size", RawKind::read_only},   // [21:18] R
};

// Bytes the decoder's table leaves out (write-only triggers, the vendor
// field): named here.
constexpr int bkops_start = 164, sanitize_start = 165, tcase_support = 132;
constexpr int vendor_lo = 64, vendor_hi = 127; // VENDOR_SPECIFIC_FIELD, R/W (vendor defined)

std::string upper(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

} // namespace

RawField raw_field(int index)
{
    RawField f;
    if (index == bkops_start) return {RawKind::trigger, "BKOPS_START", 0, std::nullopt};
    if (index == sanitize_start) return {RawKind::typed, "SANITIZE_START", 0, Setting::sanitize};
    if (index == tcase_support) return {RawKind::trigger, "TCASE_SUPPORT", 0, std::nullopt};
    if (index >= vendor_lo && index <= vendor_hi) return {RawKind::free, "VENDOR_SPECIFIC_FIELD", 0, std::nullopt};
    for (const auto& spec : regs::ext_csd_table()) {
        if (index < spec.lo || index > spec.hi) continue;
        f.name = upper(spec.name);
        if (index >= 192) {
            f.kind = RawKind::read_only;
            return f;
        }
        f.kind = RawKind::free;
        for (const auto& k : kinds)
            if (k.field == spec.name) {
                f.kind = k.kind;
                f.one_time_bits = k.one_time_bits;
                f.typed_by = k.typed_by;
            }
        return f;
    }
    f.kind = index >= 192 ? RawKind::read_only : RawKind::reserved;
    return f;
}

} // namespace mmc::tune
