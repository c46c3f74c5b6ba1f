// The configurable EXT_CSD settings of an eMMC as mmc-tune emmc shows them
// with no setting named: grouped, each with its field and byte index, its
// value on this device, whether this device lets it be changed (and why
// not), and how a change can be undone. Pure.
#pragma once

#include "regs/ext_csd_config.h"
#include "tune/plan.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::tune {

enum class Group { cache, background_operations, boot, reset, write_protection, partitions, reliability,
                   power_off_notification, sanitize };
std::string_view to_string(Group g); // "background operations"
std::string_view group_key(Group g); // "background_operations"

struct ConfigRow {
    Group group;
    std::optional<SettingName> setting; // what changes it (the front end names its option), none when nothing does
    regs::ExtCsdField field;
    std::string name;            // "CACHE_CTRL"
    int index = 0;
    uint64_t raw = 0;
    std::string value;           // "on", "boot partition 1", "512 MiB"
    bool writable = false;       // this device lets mmc-tune change it now
    std::string not_writable;    // why not, when not
    Undo undo = Undo::reversible;
    bool after_power_cycle = false;
    // The value of its option that is one-time where the others are not
    // ("manual" of BKOPS_EN, "permanent" of BOOT_WP): the plan labels that
    // change one-time and asks --permanent for it.
    std::string one_time_value;
};

std::vector<ConfigRow> current_configuration(std::span<const uint8_t> ext_csd);

} // namespace mmc::tune
