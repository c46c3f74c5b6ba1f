#include "regs/ext_csd_config.h"

#include "regs/bitfield.h"
#include "regs/decode.h"

#include <array>
#include <stdexcept>
#include <string>

namespace mmc::regs {

namespace {

struct ConfigFieldName {
    ExtCsdField field;
    std::string_view spec; // the decoder table's name
    std::string_view jedec;
};

// Indexed by ExtCsdField, in its order (checked by the unit tests).
constexpr std::array<ConfigFieldName, 39> config_field_names{{
    {ExtCsdField::cache_ctrl, "cache_ctrl", "CACHE_CTRL"},
    {ExtCsdField::power_off_notification, "power_off_notification", "POWER_OFF_NOTIFICATION"},
    {ExtCsdField::enh_start_addr, "enh_start_addr", "ENH_START_ADDR"},
    {ExtCsdField::enh_size_mult, "enh_size_mult", "ENH_SIZE_MULT"},
    {ExtCsdField::gp_size_mult_1, "gp_size_mult_1", "GP_SIZE_MULT_1"},
    {ExtCsdField::gp_size_mult_2, "gp_size_mult_2", "GP_SIZE_MULT_2"},
    {ExtCsdField::gp_size_mult_3, "gp_size_mult_3", "GP_SIZE_MULT_3"},
    {ExtCsdField::gp_size_mult_4, "gp_size_mult_4", "GP_SIZE_MULT_4"},
    {ExtCsdField::partition_setting_completed, "partition_setting_completed", "PARTITION_SETTING_COMPLETED"},
    {ExtCsdField::partitions_attribute, "partitions_attribute", "PARTITIONS_ATTRIBUTE"},
    {ExtCsdField::rst_n_function, "rst_n_function", "RST_n_FUNCTION"},
    {ExtCsdField::bkops_en, "bkops_en", "BKOPS_EN"},
    {ExtCsdField::sanitize_start, "", "SANITIZE_START"},
    {ExtCsdField::wr_rel_set, "wr_rel_set", "WR_REL_SET"},
    {ExtCsdField::boot_wp, "boot_wp", "BOOT_WP"},
    {ExtCsdField::erase_group_def, "erase_group_def", "ERASE_GROUP_DEF"},
    {ExtCsdField::boot_bus_conditions, "boot_bus_conditions", "BOOT_BUS_CONDITIONS"},
    {ExtCsdField::boot_config_prot, "boot_config_prot", "BOOT_CONFIG_PROT"},
    {ExtCsdField::partition_config, "partition_config", "PARTITION_CONFIG"},
    {ExtCsdField::max_enh_size_mult, "max_enh_size_mult", "MAX_ENH_SIZE_MULT"},
    {ExtCsdField::partitioning_support, "partitioning_support", "PARTITIONING_SUPPORT"},
    {ExtCsdField::wr_rel_param, "wr_rel_param", "WR_REL_PARAM"},
    {ExtCsdField::boot_wp_status, "boot_wp_status", "BOOT_WP_STATUS"},
    {ExtCsdField::ext_csd_rev, "ext_csd_rev", "EXT_CSD_REV"},
    {ExtCsdField::partition_switch_time, "partition_switch_time", "PARTITION_SWITCH_TIME"},
    {ExtCsdField::sec_count, "sec_count", "SEC_COUNT"},
    {ExtCsdField::hc_wp_grp_size, "hc_wp_grp_size", "HC_WP_GRP_SIZE"},
    {ExtCsdField::erase_timeout_mult, "erase_timeout_mult", "ERASE_TIMEOUT_MULT"},
    {ExtCsdField::hc_erase_grp_size, "hc_erase_grp_size", "HC_ERASE_GRP_SIZE"},
    {ExtCsdField::boot_size_mult, "boot_size_mult", "BOOT_SIZE_MULT"},
    {ExtCsdField::boot_info, "boot_info", "BOOT_INFO"},
    {ExtCsdField::sec_feature_support, "sec_feature_support", "SEC_FEATURE_SUPPORT"},
    {ExtCsdField::generic_cmd6_time, "generic_cmd6_time", "GENERIC_CMD6_TIME"},
    {ExtCsdField::cache_size, "cache_size", "CACHE_SIZE"},
    {ExtCsdField::bkops_support, "bkops_support", "BKOPS_SUPPORT"},
    {ExtCsdField::user_wp, "user_wp", "USER_WP"},
    {ExtCsdField::use_native_sector, "use_native_sector", "USE_NATIVE_SECTOR"},
    {ExtCsdField::native_sector_size, "native_sector_size", "NATIVE_SECTOR_SIZE"},
    {ExtCsdField::data_sector_size, "data_sector_size", "DATA_SECTOR_SIZE"},
}};

// SANITIZE_START [165] (JESD84-B51 7.4.81): write-only, so not in the
// decoder's table of fields to show.
constexpr int sanitize_start_index = 165;

FieldPlace lookup_place(ExtCsdField field)
{
    const auto& names = config_field_names[static_cast<std::size_t>(field)];
    if (names.field != field) throw std::logic_error("ext_csd_config: field table out of order");
    if (field == ExtCsdField::sanitize_start) return {sanitize_start_index, sanitize_start_index, names.jedec};
    for (const auto& spec : ext_csd_table())
        if (spec.name == names.spec) return {spec.lo, spec.hi, names.jedec};
    throw std::logic_error("ext_csd_config: " + std::string(names.spec) + " is not in the EXT_CSD table");
}

} // namespace

FieldPlace field_place(ExtCsdField field)
{
    // Looked up once per field: the table is constant.
    static const auto places = [] {
        std::array<FieldPlace, config_field_names.size()> out{};
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = lookup_place(static_cast<ExtCsdField>(i));
        return out;
    }();
    return places[static_cast<std::size_t>(field)];
}

uint64_t ext_csd_value(std::span<const uint8_t> ext_csd, ExtCsdField field)
{
    require_size(RegKind::ext_csd, ext_csd);
    const FieldPlace p = field_place(field);
    return le_bytes(ext_csd, p.hi, p.lo);
}

uint64_t wp_group_bytes(std::span<const uint8_t> ext_csd)
{
    return ext_csd_value(ext_csd, ExtCsdField::hc_wp_grp_size) * ext_csd_value(ext_csd, ExtCsdField::hc_erase_grp_size) *
           512 * 1024;
}

uint64_t user_area_bytes(std::span<const uint8_t> ext_csd) { return ext_csd_value(ext_csd, ExtCsdField::sec_count) * 512; }

bool sector_addressed(std::span<const uint8_t> ext_csd)
{
    return ext_csd_value(ext_csd, ExtCsdField::sec_count) > (uint64_t{2} << 30) / 512;
}

} // namespace mmc::regs
