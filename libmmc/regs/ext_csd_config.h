// Typed access to the EXT_CSD fields that configure an eMMC (what mmc-tune
// reads and writes) and the device properties that say what may be
// configured. Each field's byte range comes from the EXT_CSD decoder's table
// (ext_csd.cpp), looked up here once, so an index is written in one place;
// only SANITIZE_START, a write-only trigger the decoder leaves out, is
// placed here. JESD84-B51 7.4; the indexes agree with mmc-utils' mmc.h and
// the kernel's include/linux/mmc/mmc.h. Pure: bytes in, numbers out.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace mmc::regs {

enum class ExtCsdField {
    // Modes segment: what a host may change with CMD6 SWITCH.
    cache_ctrl,                  // [33]  bit 0: cache on
    power_off_notification,      // [34]  the host's power-off promise (the kernel's)
    enh_start_addr,              // [139:136] enhanced user area start
    enh_size_mult,               // [142:140] enhanced user area size, in WP groups
    gp_size_mult_1,              // [145:143]
    gp_size_mult_2,              // [148:146]
    gp_size_mult_3,              // [151:149]
    gp_size_mult_4,              // [154:152]
    partition_setting_completed, // [155] bit 0, one-time
    partitions_attribute,        // [156] enhanced attribute: bit 0 user, bits 1-4 GP1-4
    rst_n_function,              // [162] bits 1:0, one-time
    bkops_en,                    // [163] bit 0 manual (one-time), bit 1 auto
    sanitize_start,              // [165] write-only trigger
    wr_rel_set,                  // [167] reliable write: bit 0 user, bits 1-4 GP1-4
    boot_wp,                     // [173] boot area write protection
    erase_group_def,             // [175] bit 0: high-capacity groups (volatile)
    boot_bus_conditions,         // [177]
    boot_config_prot,            // [178] PARTITION_CONFIG protection
    partition_config,            // [179] boot ack, boot partition enable, access
    // Properties segment: what the device says it is and supports.
    max_enh_size_mult,           // [159:157]
    partitioning_support,        // [160]
    wr_rel_param,                // [166]
    boot_wp_status,              // [174]
    ext_csd_rev,                 // [192]
    partition_switch_time,       // [199] 10 ms units
    sec_count,                   // [215:212]
    hc_wp_grp_size,              // [221] in erase groups
    erase_timeout_mult,          // [223] 300 ms units
    hc_erase_grp_size,           // [224] 512 KiB units
    boot_size_mult,              // [226] 128 KiB units
    boot_info,                   // [228]
    sec_feature_support,         // [231]
    generic_cmd6_time,           // [248] 10 ms units
    cache_size,                  // [252:249]
    bkops_support,               // [502]
    // Modes segment, appended after the properties.
    user_wp,                     // [171] user area write protection (USER_WP)
    // 512-byte emulation of a 4 KiB native sector device (JESD84-B51 7.4,
    // NATIVE_SECTOR_SIZE [63], USE_NATIVE_SECTOR [62], DATA_SECTOR_SIZE [61]).
    use_native_sector,           // [62] 0: emulation, 1: native sectors (after a power cycle)
    native_sector_size,          // [63] 0: 512 bytes, 1: 4 KiB
    data_sector_size,            // [61] the sector size in use: 0 512 bytes, 1 4 KiB
};

struct FieldPlace {
    int lo;                   // lowest byte index (the value is little-endian)
    int hi;                   // highest byte index
    std::string_view jedec;   // "PARTITION_CONFIG", as JESD84 names it
};

// Where a field lives. The spec name's byte range from the decoder's table.
FieldPlace field_place(ExtCsdField field);

// The field's value in a 512-byte EXT_CSD image; throws std::invalid_argument
// for any other size.
uint64_t ext_csd_value(std::span<const uint8_t> ext_csd, ExtCsdField field);

// Derived values everything that plans a change needs.
// HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE x 512 KiB: the unit of the enhanced
// area and the GP partitions (JESD84-B51 7.4.58, 7.4.90); 0 when either is 0.
uint64_t wp_group_bytes(std::span<const uint8_t> ext_csd);
// SEC_COUNT x 512: the user area's size now.
uint64_t user_area_bytes(std::span<const uint8_t> ext_csd);
// Devices over 2 GiB are sector addressed; ENH_START_ADDR is then in sectors.
bool sector_addressed(std::span<const uint8_t> ext_csd);

} // namespace mmc::regs
