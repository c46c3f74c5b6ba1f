// The one-time partition settings: the enhanced (pSLC) user area, the four
// general purpose partitions and reliable write, checked against the
// device's grouping and limits, and written with PARTITION_SETTING_COMPLETED
// in the same transaction, as JESD84-B51 6.2.4 requires ("all or none").
#include "cli/size.h"
#include "tune/plan.h"
#include "tune/support.h"

#include <array>
#include <fmt/format.h>

namespace mmc::tune {

namespace {

using regs::ExtCsdField;

constexpr uint64_t max_mult = 0xffffff; // 3-byte *_SIZE_MULT fields
constexpr std::array<ExtCsdField, 4> gp_fields{ExtCsdField::gp_size_mult_1, ExtCsdField::gp_size_mult_2,
                                               ExtCsdField::gp_size_mult_3, ExtCsdField::gp_size_mult_4};

uint64_t part_field(std::span<const uint8_t> b, ExtCsdField f) { return regs::ext_csd_value(b, f); }

std::string bytes_words(uint64_t bytes) { return cli::format_bytes_exact(bytes); }

// "" when `bytes` is a whole number of units; else why not, with the two
// nearest sizes that are.
std::string misaligned(std::string_view what, uint64_t bytes, uint64_t unit)
{
    if (bytes % unit == 0) return {};
    const uint64_t below = bytes / unit * unit;
    return fmt::format("{} {} is not a multiple of the device's write protect group ({}: HC_WP_GRP_SIZE x "
                       "HC_ERASE_GRP_SIZE x 512 KiB); the nearest are {} and {}",
                       what, bytes_words(bytes), bytes_words(unit), bytes_words(below), bytes_words(below + unit));
}

// Every partition setting is one-time, and the device takes it only at
// its next power cycle.
Change partition_change(SettingName setting, ExtCsdField field, uint64_t old_value, uint64_t new_value, std::string consequence)
{
    Change c = change_of(std::move(setting), field, old_value, new_value, Undo::one_time, std::move(consequence));
    c.after_power_cycle = true;
    return c;
}

// True when every partition setting asked for is what the device does now,
// so that completing the partitioning would change nothing. Sizes count
// only once completed (written but not completed, they are pending: the
// device has no such partition yet). WR_REL_SET is in force as it reads:
// the device ships with its own value (most with 0x1f, every area
// reliable), and completion only freezes it.
bool in_force(std::span<const uint8_t> b, const Request& r)
{
    const bool completed = part_field(b, ExtCsdField::partition_setting_completed) & 1;
    const uint64_t unit = regs::wp_group_bytes(b);
    if (r.enhanced_area) {
        const uint64_t start = part_field(b, ExtCsdField::enh_start_addr) * (regs::sector_addressed(b) ? 512 : 1);
        if (!completed || part_field(b, ExtCsdField::enh_size_mult) * unit != r.enhanced_area->size || start != r.enhanced_area->offset)
            return false;
    }
    for (std::size_t i = 0; i < 4; ++i)
        if (r.gp[i] && (!completed || part_field(b, gp_fields[i]) * unit != *r.gp[i])) return false;
    for (const RelPart part : r.write_reliability)
        if (!(part_field(b, ExtCsdField::wr_rel_set) >> static_cast<int>(part) & 1)) return false;
    return true;
}

} // namespace

void plan_partitions(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.partitions()) return;
    if (in_force(b, r)) {
        if (part_field(b, ExtCsdField::partition_setting_completed) & 1)
            return p.notes.push_back("the partition settings asked for are the device's completed partitioning already");
        return p.notes.push_back(fmt::format("{}: WR_REL_SET [167] 0x{:02x} already makes those writes reliable: nothing to "
                                             "write or complete",
                                             mention(Setting::write_reliability), part_field(b, ExtCsdField::wr_rel_set)));
    }
    const std::size_t refused_before = p.refusals.size();
    auto refuse = [&](SettingName setting, std::string reason) { p.refuse({std::move(setting), std::move(reason)}); };
    bool any_gp = false;
    for (const auto& g : r.gp) any_gp = any_gp || g.has_value();
    if (r.enhanced_area)
        if (auto why = enhanced_unsupported(b)) refuse(Setting::enhanced_area, *why);
    if (any_gp)
        if (auto why = partitioning_unsupported(b)) refuse(Setting::gp, *why);
    if (!r.write_reliability.empty())
        if (auto why = write_reliability_unsupported(b)) refuse(Setting::write_reliability, *why);
    if (p.refusals.size() != refused_before) return;

    const uint64_t unit = regs::wp_group_bytes(b);
    const uint64_t capacity = regs::user_area_bytes(b);
    const uint64_t attr_old = part_field(b, ExtCsdField::partitions_attribute);
    const uint64_t enh_old = part_field(b, ExtCsdField::enh_size_mult);
    const uint64_t start_old = part_field(b, ExtCsdField::enh_start_addr);
    const uint64_t rel_old = part_field(b, ExtCsdField::wr_rel_set);
    std::array<uint64_t, 4> gp_old{}, gp_new{};
    for (std::size_t i = 0; i < 4; ++i) gp_old[i] = gp_new[i] = part_field(b, gp_fields[i]);
    uint64_t enh_new = enh_old, start_new = start_old, attr_new = attr_old, rel_new = rel_old;

    if (enh_old || start_old || gp_old[0] || gp_old[1] || gp_old[2] || gp_old[3] || (attr_old & 0x1f))
        p.notes.push_back("partition settings already written but not completed are on the device; completing the "
                          "partitioning completes them too (they are counted below)");

    if (r.enhanced_area) {
        const Area a = *r.enhanced_area;
        if (a.size == 0) refuse(Setting::enhanced_area, "SIZE 0: an enhanced area of no size is none; leave " + mention(Setting::enhanced_area) + " out");
        else if (auto m = misaligned("SIZE", a.size, unit); !m.empty()) refuse(Setting::enhanced_area, m);
        else if (auto o = misaligned("OFFSET", a.offset, unit); !o.empty()) refuse(Setting::enhanced_area, o);
        else if (a.offset > capacity || a.size > capacity - a.offset)
            refuse(Setting::enhanced_area, fmt::format("{} at {} ends past the user area ({})", bytes_words(a.size), bytes_words(a.offset),
                                                  bytes_words(capacity)));
        else {
            enh_new = a.size / unit;
            // ENH_START_ADDR counts sectors on sector-addressed devices, bytes otherwise.
            start_new = regs::sector_addressed(b) ? a.offset / 512 : a.offset;
            attr_new |= 1;
            if (start_new > 0xffffffff) refuse(Setting::enhanced_area, "OFFSET does not fit ENH_START_ADDR");
        }
    }
    for (std::size_t i = 0; i < 4; ++i) {
        if (!r.gp[i]) continue;
        const uint64_t size = *r.gp[i];
        const SettingName setting(Setting::gp, std::nullopt, static_cast<int>(i) + 1);
        if (size == 0) refuse(setting, "SIZE 0: a general purpose partition of no size is none; leave it out");
        else if (auto m = misaligned("SIZE", size, unit); !m.empty()) refuse(setting, m);
        else if (size / unit > max_mult) refuse(setting, fmt::format("SIZE {} does not fit GP_SIZE_MULT (at most {} groups)", bytes_words(size), max_mult));
        else gp_new[i] = size / unit;
    }
    for (const RelPart part : r.write_reliability) {
        const int bit = static_cast<int>(part);
        if (rel_old >> bit & 1) continue; // already reliable: nothing to write
        if (bit > 0 && gp_new[static_cast<std::size_t>(bit - 1)] == 0)
            refuse(Setting::write_reliability, fmt::format("{} does not exist and is not being made: give {} {},SIZE too", to_string(part), mention(Setting::gp), bit));
        rel_new |= uint64_t{1} << bit;
    }
    if (p.refusals.size() != refused_before) return;

    // The capacity arithmetic. GP partitions come out of the user area
    // whole; an enhanced byte costs capacity/max-enhanced bytes of normal
    // flash (the device can enhance at most MAX_ENH_SIZE_MULT groups of its
    // capacity), so the user area loses (ratio - 1) per enhanced byte. The
    // exact figure is the device's SEC_COUNT after the power cycle.
    const uint64_t max_enh = part_field(b, ExtCsdField::max_enh_size_mult) * unit;
    uint64_t enhanced = enh_new * unit, gp_total = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        gp_total += gp_new[i] * unit;
        if (attr_new >> (i + 1) & 1) enhanced += gp_new[i] * unit;
    }
    if (enhanced > 0 && enhanced > max_enh)
        return refuse(r.enhanced_area ? Setting::enhanced_area : Setting::gp,
                      fmt::format("the enhanced areas total {}, more than the device's maximum {} (MAX_ENH_SIZE_MULT [159:157] {})",
                                  bytes_words(enhanced), bytes_words(max_enh), part_field(b, ExtCsdField::max_enh_size_mult)));
    const double ratio = max_enh ? static_cast<double>(capacity) / static_cast<double>(max_enh) : 1.0;
    const uint64_t enh_cost = static_cast<uint64_t>(static_cast<double>(enh_new * unit) * (ratio > 1 ? ratio - 1 : 0));
    if (gp_total + enh_cost >= capacity) {
        // Only what is asked for or already written is named.
        std::string what;
        if (gp_total) what = fmt::format("{} of GP partitions", bytes_words(gp_total));
        if (enh_new) what += fmt::format("{}an enhanced area costing about {}", what.empty() ? "" : ", ", bytes_words(enh_cost));
        return refuse(any_gp ? Setting::gp : Setting::enhanced_area,
                      fmt::format("the partitions ({}) leave no user area of the {}", what, bytes_words(capacity)));
    }
    p.user_area_after = capacity - gp_total - enh_cost;
    const std::string after = fmt::format("after the power cycle the user area is about {} (now {})", bytes_words(p.user_area_after),
                                          bytes_words(capacity));

    const unsigned t = generic_cmd6_timeout_ms(b);
    // The sizes are counted in high-capacity groups only with ERASE_GROUP_DEF
    // set; it is volatile (the kernel sets it again at every initialisation
    // once the partitioning is completed: drivers/mmc/core/mmc.c).
    if (!(part_field(b, ExtCsdField::erase_group_def) & 1)) {
        Change c = partition_change(Setting::partitioning, ExtCsdField::erase_group_def, 0, 1,
                                    "the partition sizes are counted in high-capacity groups (until the next power cycle; "
                                    "the kernel sets it again at every initialisation once the partitioning is completed)");
        c.undo = Undo::reversible;
        c.after_power_cycle = false;
        c.compare_mask = 1;
        add_field_change(p, b, c, t);
    }
    if (start_new != start_old)
        add_field_change(p, b, partition_change(Setting::enhanced_area, ExtCsdField::enh_start_addr, start_old, start_new,
                                                fmt::format("the enhanced area starts at {}", bytes_words(r.enhanced_area->offset))), t);
    if (enh_new != enh_old)
        add_field_change(p, b, partition_change(Setting::enhanced_area, ExtCsdField::enh_size_mult, enh_old, enh_new,
                                                fmt::format("an enhanced (pSLC) area of {} ({} groups) in the user area: it costs "
                                                            "about {} of normal capacity; {}",
                                                            bytes_words(enh_new * unit), enh_new, bytes_words(enh_cost), after)), t);
    if (attr_new != attr_old)
        add_field_change(p, b, partition_change(Setting::enhanced_area, ExtCsdField::partitions_attribute, attr_old, attr_new,
                                                "the user area's enhanced attribute is set"), t);
    for (std::size_t i = 0; i < 4; ++i)
        if (gp_new[i] != gp_old[i])
            add_field_change(p, b, partition_change(SettingName(Setting::gp, std::nullopt, static_cast<int>(i) + 1), gp_fields[i], gp_old[i], gp_new[i],
                                                    fmt::format("general purpose partition {} of {} ({} groups), taken from the "
                                                                "user area: it loses {}; {}",
                                                                i + 1, bytes_words(gp_new[i] * unit), gp_new[i],
                                                                bytes_words(gp_new[i] * unit), after)), t);
    if (rel_new != rel_old)
        add_field_change(p, b, partition_change(Setting::write_reliability, ExtCsdField::wr_rel_set, rel_old, rel_new,
                                                "writes to the named partitions are reliable: an interrupted write leaves the old "
                                                "or the new data, never a mix, at some cost in write speed"), t);
    add_field_change(p, b, partition_change(Setting::partitioning, ExtCsdField::partition_setting_completed,
                                            part_field(b, ExtCsdField::partition_setting_completed), 1,
                                            fmt::format("completes the partitioning: the device must be power-cycled for it to take "
                                                        "effect; {}; the user area's partition table and filesystems no longer fit "
                                                        "it and must be made again; this cannot be undone on this device",
                                                        after)), t);
    p.destroys_data = true;
}

} // namespace mmc::tune
