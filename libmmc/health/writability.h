// Whether a card can be written now, and if not every reason found, each with
// what the user can do and whether it can be undone. From facts only:
// registers (CSD, card status, EXT_CSD), the kernel's sysfs flags and the
// host's device tree, passed in; nothing is read here.
#pragma once

#include "dev/write_protect.h"
#include "health/reading.h"
#include "regs/card_registers.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::health {

// What the host and the kernel say, gathered by dev/ (nullopt: not known).
using HostFacts = dev::HostWriteFacts;

enum class WpCause {
    host_switch,          // the card's or adapter's lock switch, as the host reads it
    force_ro,             // sysfs force_ro
    kernel_ro,            // sysfs ro with no cause found
    csd_perm_write_protect,
    csd_tmp_write_protect,
    card_locked,          // CMD42 password lock (card status bit 25)
    end_of_life,          // the card reports its life used up; such cards turn read-only
    boot_area_protected,  // eMMC BOOT_WP_STATUS: boot partitions only
    group_protection_enabled, // eMMC USER_WP: CMD28 groups may be protected
};
std::string_view to_string(WpCause cause);

enum class WpScope { card, boot_areas, groups };
std::string_view to_string(WpScope scope);

struct WpReason {
    WpCause cause;
    WpScope scope;      // card: nothing on the user area can be written
    bool permanent;     // cannot be undone
    std::string what;   // what was found, with the evidence
    std::string remedy; // what the user can do (or that nothing can)
};

struct Writability {
    std::optional<bool> writable; // nullopt: no fact about it was given
    std::vector<WpReason> reasons;
};

Writability assess_writability(const regs::CardRegisters& registers, const HostFacts& host,
                               const std::vector<Reading>& readings);

} // namespace mmc::health
