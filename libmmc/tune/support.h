// Whether this device can take a setting at all, from its own EXT_CSD
// (revision, support bits, sizes, protection): nullopt when it can, else
// the reason in words naming the field that decides. Shared by the view of
// the current configuration (catalogue.h) and the planner (plan.h). Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace mmc::tune {

using Bytes = std::span<const uint8_t>;

std::optional<std::string> cache_unsupported(Bytes ext_csd);
std::optional<std::string> bkops_auto_unsupported(Bytes ext_csd);
std::optional<std::string> bkops_manual_unsupported(Bytes ext_csd);
// Boot partition enable and boot ack (PARTITION_CONFIG), boot bus
// (BOOT_BUS_CONDITIONS): both guarded by BOOT_CONFIG_PROT.
std::optional<std::string> boot_config_unsupported(Bytes ext_csd);
// A boot partition to boot from or protect: BOOT_SIZE_MULT > 0.
std::optional<std::string> boot_partitions_absent(Bytes ext_csd);
std::optional<std::string> rst_n_unsupported(Bytes ext_csd);
std::optional<std::string> boot_wp_power_on_unsupported(Bytes ext_csd);
std::optional<std::string> boot_wp_permanent_unsupported(Bytes ext_csd);
// GP partitions and the enhanced user area (the latter also needs
// ENH_ATTRIBUTE_EN), and reliable write (WR_REL_PARAM HS_CTRL_REL): all
// one-time, all refused once PARTITION_SETTING_COMPLETED is set.
std::optional<std::string> partitioning_unsupported(Bytes ext_csd);
std::optional<std::string> enhanced_unsupported(Bytes ext_csd);
std::optional<std::string> write_reliability_unsupported(Bytes ext_csd);
std::optional<std::string> sanitize_unsupported(Bytes ext_csd);

// "eMMC 4.5": the version an EXT_CSD_REV stands for, for messages.
std::string emmc_version(uint64_t rev);

} // namespace mmc::tune
