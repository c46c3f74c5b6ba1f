// User-area write protection of an eMMC (mmc-tune emmc's user protection):
// which groups are protected and how (the listing), and a plan that sets or
// clears protection on whole groups. CMD28 SET_WRITE_PROT protects one
// group with the kind USER_WP [171] selects (neither enable bit: temporary;
// US_PWR_WP_EN: until the next power cycle; US_PERM_WP_EN: for good);
// CMD29 CLR_WRITE_PROT clears temporary protection only (JESD84-B51
// 6.6.23). The plan drops groups already as asked and refuses what the
// device cannot do: a misaligned range, a kind it disables, lowering
// power-on or permanent protection, permanent protection without the
// one-time qualifier. Pure: the device is behind WpDevice
// (user_wp_apply.h).
#pragma once

#include "regs/write_protect_groups.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::tune {

// One group's state: protected with a type, or protected with the type
// unknown (the device did not answer CMD31, only CMD30).
struct WpGroupState {
    bool protected_ = false;
    std::optional<regs::WpType> type; // nullopt when protected_ but CMD31 was not answered
};

// Consecutive groups in the same state, in bytes of the user area.
struct WpRun {
    uint64_t offset = 0;
    uint64_t bytes = 0;
    uint64_t first_group = 0;
    uint64_t groups = 0;
    std::optional<regs::WpType> type; // nullopt: protected, type not known
};

struct UserWpListing {
    regs::WpGroupSize group;
    uint64_t user_area_bytes = 0;
    std::vector<WpGroupState> groups;   // one per group, the last one possibly partial
    bool types_known = true;            // CMD31 answered
    std::string types_unknown_reason;   // why not (the error of CMD31)
    std::vector<WpRun> protected_runs;  // the protected groups, merged by type
};

// The groups of `listing.groups` that are protected, merged into runs.
std::vector<WpRun> protected_runs(const UserWpListing& listing);

// The data address of a byte offset for the write protect commands: the
// byte itself on a byte-addressed device, its sector on a sector-addressed one.
uint32_t wp_address(std::span<const uint8_t> ext_csd, uint64_t offset);

enum class UserWpKind { temporary, power_on, permanent, none };
std::string_view to_string(UserWpKind k); // the option's words: "temporary", "power-on", "permanent", "none"
// "temporary", "power-on", "permanent", "none"; nullopt for anything else.
std::optional<UserWpKind> user_wp_kind(std::string_view word);

struct UserWpRange {
    UserWpKind kind = UserWpKind::temporary;
    uint64_t offset = 0;
    uint64_t size = 0;
    bool operator==(const UserWpRange&) const = default;
};

// One range's commands: CMD28 (set) or CMD29 with USER_WP set to
// `user_wp_during` around them.
struct UserWpStep {
    std::size_t range = 0;             // index in the request
    bool set = true;                   // CMD28; false: CMD29
    uint8_t user_wp_during = 0;
    std::vector<uint64_t> groups;      // the groups to send it to
    std::vector<uint32_t> addresses;   // their data addresses
    uint64_t already = 0;              // groups of the range already as asked
};

struct UserWpRefusal {
    std::optional<std::size_t> range;  // the range refused; none: the request as a whole
    std::string reason;                // with mentions (settings.h)
};

struct UserWpPlan {
    std::optional<regs::WpGroupSize> group;
    uint64_t user_area_bytes = 0;
    uint8_t user_wp = 0;               // USER_WP as found, written back after each step
    std::vector<UserWpRange> ranges;   // as asked
    std::vector<UserWpStep> steps;
    std::vector<UserWpRefusal> refusals;
    std::vector<std::string> notes;
    bool one_time = false;             // permanent protection planned
    bool power_cycle = false;          // power-on protection planned

    bool empty() const { return steps.empty(); }
    bool applicable() const { return refusals.empty() && !steps.empty(); }
};

// ext_csd: 512 bytes; csd: the MMC CSD or empty; now: the listing when the
// device was read (nullopt for a pasted EXT_CSD: every group of a range is
// planned, with a note).
UserWpPlan plan_user_wp(std::span<const uint8_t> ext_csd, std::span<const uint8_t> csd, const std::vector<UserWpRange>& ranges,
                        bool permanent, const std::optional<UserWpListing>& now);

} // namespace mmc::tune
