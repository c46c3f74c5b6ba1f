#include "tune/support.h"

#include "regs/ext_csd_config.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

using regs::ExtCsdField;

uint64_t value_of(Bytes b, ExtCsdField f) { return regs::ext_csd_value(b, f); }

// nullopt when the device is at least `rev`, else why not.
std::optional<std::string> needs_rev(Bytes b, uint64_t rev, std::string_view what)
{
    const uint64_t have = value_of(b, ExtCsdField::ext_csd_rev);
    if (have >= rev) return std::nullopt;
    return fmt::format("{} needs {} (EXT_CSD_REV {}); this device is {} (EXT_CSD_REV {})", what, emmc_version(rev), rev,
                       emmc_version(have), have);
}

} // namespace

std::string emmc_version(uint64_t rev)
{
    static constexpr std::string_view versions[] = {"eMMC 4.0", "eMMC 4.1", "eMMC 4.2", "eMMC 4.3", "eMMC 4.4",
                                                    "eMMC 4.41", "eMMC 4.5", "eMMC 5.0", "eMMC 5.1"};
    return rev < std::size(versions) ? std::string(versions[rev]) : fmt::format("a revision newer than eMMC 5.1");
}

std::optional<std::string> cache_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 6, "a cache (CACHE_CTRL [33])")) return r;
    if (value_of(b, ExtCsdField::cache_size) == 0) return std::string("the device has no cache (CACHE_SIZE [252:249] is 0)");
    return std::nullopt;
}

std::optional<std::string> bkops_auto_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 7, "automatic background operations (BKOPS_EN [163] AUTO_EN)")) return r;
    if (!(value_of(b, ExtCsdField::bkops_support) & 1))
        return std::string("the device does not support background operations (BKOPS_SUPPORT [502] is 0)");
    return std::nullopt;
}

std::optional<std::string> bkops_manual_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 5, "background operations (BKOPS_EN [163] MANUAL_EN)")) return r;
    if (!(value_of(b, ExtCsdField::bkops_support) & 1))
        return std::string("the device does not support background operations (BKOPS_SUPPORT [502] is 0)");
    return std::nullopt;
}

std::optional<std::string> boot_config_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 3, "boot configuration (PARTITION_CONFIG [179])")) return r;
    const uint64_t prot = value_of(b, ExtCsdField::boot_config_prot);
    if (prot & 0x10)
        return fmt::format("the boot configuration is permanently protected (BOOT_CONFIG_PROT [178] 0x{:02x}, PERM_BOOT_CONFIG_PROT)", prot);
    if (prot & 0x01)
        return fmt::format("the boot configuration is protected until the next power cycle (BOOT_CONFIG_PROT [178] 0x{:02x}, "
                           "PWR_BOOT_CONFIG_PROT)",
                           prot);
    return std::nullopt;
}

std::optional<std::string> boot_partitions_absent(Bytes b)
{
    if (value_of(b, ExtCsdField::boot_size_mult) == 0) return std::string("the device has no boot partitions (BOOT_SIZE_MULT [226] is 0)");
    return std::nullopt;
}

std::optional<std::string> rst_n_unsupported(Bytes b)
{
    return needs_rev(b, 5, "the RST_n signal setting (RST_n_FUNCTION [162])");
}

std::optional<std::string> boot_wp_power_on_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 3, "boot area write protection (BOOT_WP [173])")) return r;
    if (auto r = boot_partitions_absent(b)) return r;
    if (value_of(b, ExtCsdField::boot_wp) & 0x40)
        return std::string("power-on write protection of the boot areas is disabled (BOOT_WP [173] B_PWR_WP_DIS) until the next power cycle");
    return std::nullopt;
}

std::optional<std::string> boot_wp_permanent_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 3, "boot area write protection (BOOT_WP [173])")) return r;
    if (auto r = boot_partitions_absent(b)) return r;
    if (value_of(b, ExtCsdField::boot_wp) & 0x10)
        return std::string("permanent write protection of the boot areas is disabled for good (BOOT_WP [173] B_PERM_WP_DIS)");
    return std::nullopt;
}

std::optional<std::string> partitioning_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 5, "partitioning (PARTITIONING_SUPPORT [160])")) return r;
    if (!(value_of(b, ExtCsdField::partitioning_support) & 1))
        return std::string("the device does not support partitioning (PARTITIONING_SUPPORT [160] PARTITIONING_EN is 0)");
    if (value_of(b, ExtCsdField::partition_setting_completed) & 1)
        return std::string("partitioning was already completed on this device (PARTITION_SETTING_COMPLETED [155] is 1): "
                           "its partitions can never be changed again");
    if (regs::wp_group_bytes(b) == 0)
        return std::string("the device gives no high-capacity write protect group (HC_WP_GRP_SIZE [221] or HC_ERASE_GRP_SIZE [224] is 0)");
    return std::nullopt;
}

std::optional<std::string> enhanced_unsupported(Bytes b)
{
    if (auto r = partitioning_unsupported(b)) return r;
    if (!(value_of(b, ExtCsdField::partitioning_support) & 2))
        return std::string("the device has no enhanced (pSLC) area (PARTITIONING_SUPPORT [160] ENH_ATTRIBUTE_EN is 0)");
    if (value_of(b, ExtCsdField::max_enh_size_mult) == 0) return std::string("MAX_ENH_SIZE_MULT [159:157] is 0: no enhanced area can be had");
    return std::nullopt;
}

std::optional<std::string> write_reliability_unsupported(Bytes b)
{
    if (auto r = partitioning_unsupported(b)) return r;
    if (!(value_of(b, ExtCsdField::wr_rel_param) & 1))
        return std::string("reliable write is fixed by the device (WR_REL_PARAM [166] HS_CTRL_REL is 0: WR_REL_SET is read-only)");
    return std::nullopt;
}

std::optional<std::string> sanitize_unsupported(Bytes b)
{
    if (auto r = needs_rev(b, 6, "sanitize (SANITIZE_START [165])")) return r;
    if (!(value_of(b, ExtCsdField::sec_feature_support) & 0x40))
        return std::string("the device does not support sanitize (SEC_FEATURE_SUPPORT [231] SEC_SANITIZE is 0)");
    return std::nullopt;
}

} // namespace mmc::tune
