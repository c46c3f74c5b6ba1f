// The planner of mmc-tune emmc: a device's EXT_CSD and the settings asked
// for in; out, the changes (each field, old -> new, whether it can be
// undone, and its consequence in words), the refusals with their reasons,
// and the CMD6 SWITCH writes that make the changes, in the order they must
// be sent as one transaction. Pure: nothing here touches a device
// (apply.h does, with a plan made here).
#pragma once

#include "regs/ext_csd_config.h"
#include "tune/settings.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::tune {

// How a change can be undone. One-time: a field the device lets be set
// only once (RST_n_FUNCTION, BKOPS_EN's MANUAL_EN, BOOT_WP's B_PERM_WP_EN,
// the partition settings and PARTITION_SETTING_COMPLETED), planned only
// with the request's --permanent. An action (sanitize) changes no setting:
// what it destroys is gone, so it is given alone and confirmed, and
// --permanent, which qualifies settings, is not its to take.
enum class Undo {
    reversible,       // set it back any time
    power_cycle,      // stays until the device is power-cycled (power-on boot write protection)
    one_time,         // never: "this cannot be undone on this device"
    action,           // an irreversible action, not a setting (sanitize)
};
std::string_view to_string(Undo u);

struct Change {
    SettingName setting;       // what asked for it (the front end names its option: "--volatile-cache")
    regs::ExtCsdField field;
    std::string name;          // "CACHE_CTRL"
    int index = 0;             // the EXT_CSD byte (the lowest of a multi-byte field)
    uint64_t old_value = 0;
    uint64_t new_value = 0;
    uint64_t compare_mask = ~uint64_t{0}; // the bits the read-back must show as new_value
    Undo undo = Undo::reversible;
    bool after_power_cycle = false;       // takes effect only after a power cycle
    bool verify = true;                   // false for a write-only trigger (SANITIZE_START)
    bool raw = false;                     // one byte named by its index alone (--extcsd-write); field unused
    std::string consequence;
    bool reversible() const { return undo == Undo::reversible; }
};

struct Refusal {
    std::optional<SettingName> setting; // what was refused; none: the request as a whole
    std::string reason;                 // with mentions (settings.h: named())
};

// One CMD6 SWITCH (WRITE_BYTE access) and the busy time the device declares.
struct Write {
    int index = 0;
    uint8_t value = 0;
    unsigned timeout_ms = 0;
    std::string field; // "GP_SIZE_MULT_1 [145]"
};

struct Plan {
    std::vector<Change> changes;
    std::vector<Refusal> refusals;
    std::vector<std::string> notes;  // what is already so, what else a write completes (with mentions)
    std::vector<Write> writes;       // one transaction, in order
    bool power_cycle = false;        // some change waits for a power cycle
    bool destroys_data = false;      // sanitize, or a repartitioned user area
    bool one_time = false;           // some change can never be undone
    uint64_t user_area_before = 0;   // bytes
    uint64_t user_area_after = 0;    // estimate, when partitioning; else = before

    bool applicable() const { return refusals.empty() && !writes.empty(); }
    // A refused plan writes nothing, so it lists no writes; its changes
    // stay, to show what was asked.
    void refuse(Refusal r)
    {
        refusals.push_back(std::move(r));
        writes.clear();
    }
};

// The device's declared CMD6 busy times (GENERIC_CMD6_TIME [248],
// PARTITION_SWITCH_TIME [199] for PARTITION_CONFIG, the erase timeout for
// sanitize), with the kernel's defaults where the device gives none.
unsigned generic_cmd6_timeout_ms(std::span<const uint8_t> ext_csd);
unsigned partition_config_timeout_ms(std::span<const uint8_t> ext_csd);
unsigned sanitize_timeout_ms(std::span<const uint8_t> ext_csd);

Plan make_plan(std::span<const uint8_t> ext_csd, const Request& request);

// The partition settings (--enhanced-area, --gp, --write-reliability), for
// make_plan: their changes, refusals and writes, completed with
// PARTITION_SETTING_COMPLETED in the same transaction (plan_partitions.cpp).
void plan_partitions(std::span<const uint8_t> ext_csd, const Request& request, Plan& plan);

// The settings of emmc_extra.h (a single boot partition's protection,
// raw EXT_CSD writes, 512-byte emulation), for make_plan.
void plan_boot_wp_area(std::span<const uint8_t> ext_csd, const Request& request, Plan& plan);
void plan_extra_settings(std::span<const uint8_t> ext_csd, const Request& request, Plan& plan);

// What `ext_csd` holds where a change writes: its field, or its byte.
uint64_t planned_value(std::span<const uint8_t> ext_csd, const Change& c);

// A change of a whole field, named by its JEDEC name and first byte.
Change change_of(SettingName setting, regs::ExtCsdField field, uint64_t old_value, uint64_t new_value, Undo undo,
                 std::string consequence);

// Adds a change of a whole field and the byte writes that make it, lowest
// byte last (the order mmc-utils and the standard's examples use).
void add_field_change(Plan& plan, std::span<const uint8_t> ext_csd, Change change, unsigned timeout_ms);

} // namespace mmc::tune
