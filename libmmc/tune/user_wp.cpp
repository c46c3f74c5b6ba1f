#include "tune/user_wp.h"

#include "cli/size.h"
#include "regs/ext_csd_config.h"
#include "tune/settings.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

using regs::WpType;
namespace bit = regs::user_wp_bit;

constexpr UserWpKind wp_kinds[] = {UserWpKind::temporary, UserWpKind::power_on, UserWpKind::permanent, UserWpKind::none};

std::string wp_bytes(uint64_t bytes) { return cli::format_bytes_exact(bytes); }

// The type a kind leaves on a group.
WpType wp_type_of(UserWpKind k)
{
    switch (k) {
    case UserWpKind::temporary: return WpType::temporary;
    case UserWpKind::power_on: return WpType::power_on;
    case UserWpKind::permanent: return WpType::permanent;
    case UserWpKind::none: return WpType::none;
    }
    return WpType::none;
}

// USER_WP while CMD28 runs: the kind's enable bit alone (mmc-utils does the
// same), the disable bits as they are.
uint8_t user_wp_for(UserWpKind k, uint8_t now)
{
    uint8_t v = now & static_cast<uint8_t>(~(bit::us_pwr_wp_en | bit::us_perm_wp_en));
    if (k == UserWpKind::power_on) v |= bit::us_pwr_wp_en;
    if (k == UserWpKind::permanent) v |= bit::us_perm_wp_en;
    return v;
}

// "" when the offset and size are whole groups; else why not, with the
// nearest values that are.
std::string wp_misaligned(const UserWpRange& r, const regs::WpGroupSize& g)
{
    auto one = [&](std::string_view what, uint64_t v) -> std::string {
        if (v % g.bytes == 0) return {};
        const uint64_t below = v / g.bytes * g.bytes;
        return fmt::format("the {} {} is not a multiple of the write protect group ({}, {}); the nearest are {} and {}", what,
                           wp_bytes(v), wp_bytes(g.bytes), g.source, wp_bytes(below), wp_bytes(below + g.bytes));
    };
    std::string why = one("offset", r.offset);
    if (why.empty()) why = one("size", r.size);
    return why;
}

} // namespace

std::string_view to_string(UserWpKind k)
{
    switch (k) {
    case UserWpKind::temporary: return "temporary";
    case UserWpKind::power_on: return "power-on";
    case UserWpKind::permanent: return "permanent";
    case UserWpKind::none: return "none";
    }
    return "?";
}

std::optional<UserWpKind> user_wp_kind(std::string_view word)
{
    for (const auto k : wp_kinds)
        if (to_string(k) == word) return k;
    return std::nullopt;
}

uint32_t wp_address(std::span<const uint8_t> ext_csd, uint64_t offset)
{
    return static_cast<uint32_t>(regs::sector_addressed(ext_csd) ? offset / 512 : offset);
}

std::vector<WpRun> protected_runs(const UserWpListing& listing)
{
    std::vector<WpRun> runs;
    const uint64_t g = listing.group.bytes;
    for (uint64_t i = 0; i < listing.groups.size(); ++i) {
        const auto& s = listing.groups[i];
        if (!s.protected_) continue;
        const uint64_t offset = i * g;
        const uint64_t bytes = std::min(g, listing.user_area_bytes > offset ? listing.user_area_bytes - offset : g);
        if (!runs.empty() && runs.back().first_group + runs.back().groups == i && runs.back().type == s.type) {
            runs.back().groups += 1;
            runs.back().bytes += bytes;
        } else {
            runs.push_back({offset, bytes, i, 1, s.type});
        }
    }
    return runs;
}

UserWpPlan plan_user_wp(std::span<const uint8_t> ext_csd, std::span<const uint8_t> csd, const std::vector<UserWpRange>& ranges,
                        bool permanent, const std::optional<UserWpListing>& now)
{
    UserWpPlan plan;
    plan.ranges = ranges;
    plan.group = regs::user_wp_group(ext_csd, csd);
    plan.user_area_bytes = regs::user_area_bytes(ext_csd);
    plan.user_wp = static_cast<uint8_t>(regs::ext_csd_value(ext_csd, regs::ExtCsdField::user_wp));
    if (!plan.group) {
        plan.refusals.push_back({std::nullopt, "the device gives no write protect group (CSD WP_GRP_SIZE, EXT_CSD HC_WP_GRP_SIZE "
                                               "and HC_ERASE_GRP_SIZE are all missing or 0)"});
        return plan;
    }
    if (plan.group->enabled == false) {
        plan.refusals.push_back({std::nullopt, "the device does not support group write protection (CSD WP_GRP_ENABLE is 0)"});
        return plan;
    }
    if (!plan.user_area_bytes) {
        plan.refusals.push_back({std::nullopt, "the EXT_CSD gives no user area size (SEC_COUNT [215:212] is 0)"});
        return plan;
    }
    const uint64_t g = plan.group->bytes;
    const uint64_t group_count = (plan.user_area_bytes + g - 1) / g;
    if (!now)
        plan.notes.push_back("without the device the protection now is not known: every group of each range is planned");
    else if (!now->types_known)
        plan.notes.push_back(fmt::format("the device did not tell the kind of each protected group (CMD31 SEND_WRITE_PROT_TYPE: {}); "
                                         "protected groups are planned as if temporary, and the read-back shows what holds",
                                         now->types_unknown_reason));

    std::vector<int> claimed(group_count, -1);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const UserWpRange& r = ranges[i];
        auto refuse = [&](std::string why) { plan.refusals.push_back({i, std::move(why)}); };
        if (const auto why = wp_misaligned(r, *plan.group); !why.empty()) { refuse(why); continue; }
        if (r.offset + r.size > group_count * g || r.offset + r.size < r.offset) {
            refuse(fmt::format("the range ends at {}, past the user area ({})", wp_bytes(r.offset + r.size),
                               wp_bytes(plan.user_area_bytes)));
            continue;
        }
        if (r.kind == UserWpKind::permanent && !permanent) {
            refuse(fmt::format("permanent protection can never be removed from these groups, not even by erasing; give {} to mean it",
                               mention(Setting::permanent)));
            continue;
        }
        if (r.kind == UserWpKind::permanent && (plan.user_wp & bit::us_perm_wp_dis)) {
            refuse(fmt::format("the device disables permanent protection for good (USER_WP 0x{:02x}: US_PERM_WP_DIS)", plan.user_wp));
            continue;
        }
        if (r.kind == UserWpKind::power_on && (plan.user_wp & bit::us_pwr_wp_dis)) {
            refuse(fmt::format("the device disables power-on protection until its next power cycle (USER_WP 0x{:02x}: US_PWR_WP_DIS)",
                               plan.user_wp));
            continue;
        }
        UserWpStep step;
        step.range = i;
        step.set = r.kind != UserWpKind::none;
        step.user_wp_during = step.set ? user_wp_for(r.kind, plan.user_wp) : plan.user_wp;
        const WpType want = wp_type_of(r.kind);
        std::string blocked;
        for (uint64_t grp = r.offset / g; grp < (r.offset + r.size) / g; ++grp) {
            if (claimed[grp] >= 0) {
                blocked = fmt::format("it overlaps range {} at {}", claimed[grp] + 1, wp_bytes(grp * g));
                break;
            }
            claimed[grp] = static_cast<int>(i);
            const WpGroupState s = now && grp < now->groups.size() ? now->groups[grp] : WpGroupState{};
            const WpType have = !s.protected_ ? WpType::none : s.type.value_or(WpType::temporary);
            if (now && have == want) {
                ++step.already;
                continue;
            }
            // Power-on protection ends only at a power cycle and permanent
            // never; CMD28 cannot lower either, CMD29 clears neither.
            if (have == WpType::permanent || (have == WpType::power_on && want != WpType::permanent)) {
                blocked = fmt::format("the group at {} is protected {}, which {}", wp_bytes(grp * g), to_string(have),
                                      have == WpType::permanent ? "can never be cleared or changed"
                                                                : "lasts until the next power cycle");
                break;
            }
            step.groups.push_back(grp);
            step.addresses.push_back(wp_address(ext_csd, grp * g));
        }
        if (!blocked.empty()) { refuse(blocked); continue; }
        if (step.groups.empty()) {
            plan.notes.push_back(fmt::format("range {} ({} at {}): every group is already {}", i + 1, wp_bytes(r.size),
                                             wp_bytes(r.offset), to_string(want)));
            continue;
        }
        if (r.kind == UserWpKind::permanent) plan.one_time = true;
        if (r.kind == UserWpKind::power_on) plan.power_cycle = true;
        plan.steps.push_back(std::move(step));
    }
    if (!plan.refusals.empty()) plan.steps.clear();
    return plan;
}

} // namespace mmc::tune
