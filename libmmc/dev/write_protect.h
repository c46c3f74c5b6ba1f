// What the host and the kernel say about writing to a card: sysfs ro and
// force_ro of its block device, and its controller's device-tree wp-gpios and
// disable-wp. Read here; health/writability judges them.
#pragma once

#include "dev/card.h"

#include <optional>

namespace mmc::dev {

struct HostWriteFacts {
    std::optional<bool> ro;         // /sys/block/mmcblkN/ro
    std::optional<bool> force_ro;   // /sys/block/mmcblkN/force_ro
    std::optional<bool> wp_gpios;   // the controller's device-tree node has wp-gpios
    std::optional<bool> disable_wp; // ... has disable-wp (the switch is ignored)
};

HostWriteFacts read_host_write_facts(const Card& card, const SysRoots& roots);

} // namespace mmc::dev
