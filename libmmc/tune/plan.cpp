#include "tune/plan.h"

#include "cli/size.h"
#include "tune/support.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::tune {

namespace {

using regs::ExtCsdField;

uint64_t read_field(std::span<const uint8_t> b, ExtCsdField f) { return regs::ext_csd_value(b, f); }

void refuse(Plan& p, SettingName setting, std::string reason) { p.refuse({std::move(setting), std::move(reason)}); }


// The partition setting a request names first, for a refusal of the
// partitioning as a whole (r.partitions() holds).
SettingName first_partition_setting(const Request& r)
{
    if (r.enhanced_area) return Setting::enhanced_area;
    for (std::size_t i = 0; i < r.gp.size(); ++i)
        if (r.gp[i]) return SettingName(Setting::gp, std::nullopt, static_cast<int>(i) + 1);
    return Setting::write_reliability;
}

void plan_cache(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.cache) return;
    if (auto why = cache_unsupported(b)) return refuse(p, Setting::volatile_cache, *why);
    const uint64_t old = read_field(b, ExtCsdField::cache_ctrl);
    if ((old & 1) == uint64_t(*r.cache)) return p.notes.push_back(fmt::format("{}: the cache is already {}", mention(Setting::volatile_cache), *r.cache ? "on" : "off"));
    const std::string size = cli::format_bytes(read_field(b, ExtCsdField::cache_size) * 1024);
    auto c = change_of(Setting::volatile_cache, ExtCsdField::cache_ctrl, old, (old & ~uint64_t{1}) | uint64_t(*r.cache), Undo::reversible,
                       *r.cache ? fmt::format("writes are acknowledged from the device's {} volatile cache; the kernel flushes "
                                              "it on sync and before power-off, a power loss loses what was not flushed",
                                              size)
                                : "writes reach flash before they are acknowledged: safer on a power loss, usually slower; "
                                  "the kernel turns the cache on again when it next initialises the device (boot, resume)");
    c.compare_mask = 1;
    add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
}

void plan_bkops(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.bkops) return;
    const uint64_t old = read_field(b, ExtCsdField::bkops_en);
    switch (*r.bkops) {
    case Bkops::automatic: {
        if (auto why = bkops_auto_unsupported(b)) return refuse(p, Setting::bkops, *why);
        if (old & 2) return p.notes.push_back(mention(Setting::bkops) + ": automatic background operations are already on");
        auto c = change_of(Setting::bkops, ExtCsdField::bkops_en, old, old | 2, Undo::reversible,
                           "the device runs its garbage collection and wear levelling by itself when idle");
        c.compare_mask = 2;
        return add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
    }
    case Bkops::off: {
        if (old & 1) p.notes.push_back(mention(Setting::bkops) + " off: MANUAL_EN (BKOPS_EN bit 0) stays set: it is one-time");
        if (!(old & 2)) return p.notes.push_back(mention(Setting::bkops) + ": automatic background operations are already off");
        auto c = change_of(Setting::bkops, ExtCsdField::bkops_en, old, old & ~uint64_t{2}, Undo::reversible,
                           "the device no longer cleans up by itself when idle: writes may stall on its garbage collection");
        c.compare_mask = 2;
        return add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
    }
    case Bkops::manual: {
        if (auto why = bkops_manual_unsupported(b)) return refuse(p, Setting::bkops, *why);
        if (old & 1) return p.notes.push_back(mention(Setting::bkops) + ": manual background operations are already enabled");
        auto c = change_of(Setting::bkops, ExtCsdField::bkops_en, old, old | 1, Undo::one_time,
                           "the host is to start background operations when the device asks (the kernel does); "
                           "this cannot be undone on this device");
        c.compare_mask = 1;
        return add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
    }
    }
}

std::string boot_enable_words(uint64_t enable)
{
    switch (enable) {
    case 0: return "boots from no partition";
    case 1: return "boots from boot partition 1 (mmcblkXboot0)";
    case 2: return "boots from boot partition 2 (mmcblkXboot1)";
    case 7: return "boots from the user area";
    default: return fmt::format("has the reserved boot partition enable {}", enable);
    }
}

void plan_partition_config(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.boot_partition && !r.boot_ack) return;
    const SettingName setting = r.boot_partition && r.boot_ack ? SettingName(Setting::boot_partition, Setting::boot_ack)
                                : r.boot_partition          ? SettingName(Setting::boot_partition)
                                                            : SettingName(Setting::boot_ack);
    if (auto why = boot_config_unsupported(b)) return refuse(p, setting, *why);
    if (r.boot_partition && (*r.boot_partition == BootPartition::boot1 || *r.boot_partition == BootPartition::boot2))
        if (auto why = boot_partitions_absent(b)) return refuse(p, Setting::boot_partition, *why);
    const uint64_t old = read_field(b, ExtCsdField::partition_config);
    uint64_t now = old;
    if (r.boot_partition) now = (now & ~uint64_t{0x38}) | (uint64_t(*r.boot_partition) << 3);
    if (r.boot_ack) now = *r.boot_ack ? now | 0x40 : now & ~uint64_t{0x40};
    if (r.boot_ack && *r.boot_ack && (now & 0x38) == 0)
        return refuse(p, setting, mention(Setting::boot_ack) + " on with no boot partition enabled: the device would acknowledge a boot it does not do");
    if (now == old) return p.notes.push_back(fmt::format("{}: PARTITION_CONFIG already says so (0x{:02x})", mention(setting), old));
    std::string words = fmt::format("the device {}", boot_enable_words(now >> 3 & 7));
    words += now & 0x40 ? ", with the boot acknowledge" : ", without the boot acknowledge";
    words += ", when the SoC's boot ROM boots from it; the partition the kernel reads and writes is unchanged";
    auto c = change_of(setting, ExtCsdField::partition_config, old, now, Undo::reversible, words);
    c.compare_mask = 0x78; // the access bits [2:0] are the kernel's
    add_field_change(p, b, c, partition_config_timeout_ms(b));
}

void plan_boot_bus(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.boot_bus) return;
    if (auto why = boot_config_unsupported(b)) return refuse(p, Setting::boot_bus, *why);
    const uint64_t info = read_field(b, ExtCsdField::boot_info);
    if (r.boot_bus->mode == BootMode::ddr && r.boot_bus->width == 1)
        return refuse(p, Setting::boot_bus, "a DDR boot is 4 or 8 bits wide, not 1");
    if (r.boot_bus->mode == BootMode::ddr && !(info & 2))
        return refuse(p, Setting::boot_bus, fmt::format("the device cannot boot in DDR mode (BOOT_INFO [228] 0x{:02x}: DDR_BOOT_MODE is 0)", info));
    if (r.boot_bus->mode == BootMode::sdr_hs && !(info & 4))
        return refuse(p, Setting::boot_bus, fmt::format("the device cannot boot at high speed (BOOT_INFO [228] 0x{:02x}: HS_BOOT_MODE is 0)", info));
    const uint64_t old = read_field(b, ExtCsdField::boot_bus_conditions);
    const uint64_t width = r.boot_bus->width == 1 ? 0 : r.boot_bus->width == 4 ? 1 : 2;
    // RESET_BOOT_BUS_CONDITIONS [2] (JESD84-B51 7.4, BOOT_BUS_CONDITIONS
    // [177]): as the device has it unless retain or reset is asked for.
    const uint64_t retain = r.boot_bus->retain ? (*r.boot_bus->retain ? 0x04 : 0) : (old & 0x04);
    const uint64_t now = retain | (uint64_t(r.boot_bus->mode) << 3) | width;
    if (now == old) return p.notes.push_back(fmt::format("{}: BOOT_BUS_CONDITIONS already says {}", mention(Setting::boot_bus), to_string(*r.boot_bus)));
    static constexpr std::string_view modes[] = {"single data rate", "single data rate at high speed", "dual data rate"};
    auto c = change_of(Setting::boot_bus, ExtCsdField::boot_bus_conditions, old, now, Undo::reversible,
                       fmt::format("the boot ROM's boot reads use {} bits, {}; {}", r.boot_bus->width,
                                   modes[static_cast<int>(r.boot_bus->mode)],
                                   retain ? "the device keeps that bus after boot, until the host sets another"
                                          : "the device falls back to 1 bit SDR after boot; normal operation is unchanged"));
    c.compare_mask = r.boot_bus->retain ? 0x1f : 0x1b;
    add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
}

void plan_rst_n(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.rst_n) return;
    if (auto why = rst_n_unsupported(b)) return refuse(p, Setting::rst_n, *why);
    const uint64_t old = read_field(b, ExtCsdField::rst_n_function);
    const uint64_t want = *r.rst_n ? 1 : 2;
    if ((old & 3) == want) return p.notes.push_back(fmt::format("{}: RST_n is already permanently {}", mention(Setting::rst_n), *r.rst_n ? "enabled" : "disabled"));
    if (old & 3)
        return refuse(p, Setting::rst_n, fmt::format("RST_n_FUNCTION [162] is already set for good (0x{:02x}, permanently {}): it "
                                                "cannot be changed again",
                                                old, (old & 3) == 1 ? "enabled" : "disabled"));
    auto c = change_of(Setting::rst_n, ExtCsdField::rst_n_function, old, (old & ~uint64_t{3}) | want, Undo::one_time,
                       *r.rst_n ? "the device resets when the host pulses RST_n (the kernel's hardware reset then works); "
                                  "this cannot be undone on this device"
                                : "the device ignores RST_n for good; this cannot be undone on this device");
    c.compare_mask = 3;
    add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
}

void plan_boot_wp(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.boot_wp) return;
    if (r.boot_wp_area) return plan_boot_wp_area(b, r, p);
    const bool perm = *r.boot_wp == BootWp::permanent;
    if (auto why = perm ? boot_wp_permanent_unsupported(b) : boot_wp_power_on_unsupported(b)) return refuse(p, Setting::boot_wp, *why);
    const uint64_t old = read_field(b, ExtCsdField::boot_wp);
    const uint64_t bit = perm ? 0x04 : 0x01; // B_PERM_WP_EN, B_PWR_WP_EN
    if (old & bit) return p.notes.push_back(fmt::format("{}: {} write protection is already on", mention(Setting::boot_wp), to_string(*r.boot_wp)));
    // The other bits stay as they are: clearing B_SEC_WP_SEL could widen a
    // permanent protection already on one area to both.
    const std::string areas = old & 0x80 ? "the boot partition BOOT_WP's selection bits name" : "both boot partitions (mmcblkXboot0 and boot1)";
    auto c = change_of(Setting::boot_wp, ExtCsdField::boot_wp, old, old | bit, perm ? Undo::one_time : Undo::power_cycle,
                       perm ? fmt::format("{} become read-only for good: their contents can never change again; this cannot "
                                          "be undone on this device",
                                          areas)
                            : fmt::format("{} are read-only until the next power cycle or hardware reset", areas));
    // The kernel learns of a protection only when it sets one itself.
    c.consequence += "; the kernel is not told: until it next initialises the device it still offers them for writing, "
                     "and writes to them fail";
    c.compare_mask = bit;
    add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
}

void plan_sanitize(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.sanitize) return;
    if (auto why = sanitize_unsupported(b)) return refuse(p, Setting::sanitize, *why);
    Request others = r;
    others.sanitize = false;
    if (!others.empty())
        return refuse(p, Setting::sanitize, "sanitize is run on its own: give the other settings in another run");
    if (r.permanent)
        return refuse(p, Setting::sanitize, "sanitize is run on its own, without " + mention(Setting::permanent) +
                                                ": it is an action, not a one-time setting, and is confirmed as one");
    auto c = change_of(Setting::sanitize, ExtCsdField::sanitize_start, 0, 1, Undo::action,
                       fmt::format("every block the device holds unmapped is purged: whatever was erased, trimmed or "
                                   "discarded (deleted files included) becomes unrecoverable; mapped data stays; the device "
                                   "is busy until it finishes (allowed {} s)",
                                   sanitize_timeout_ms(b) / 1000));
    c.verify = false;
    add_field_change(p, b, c, sanitize_timeout_ms(b));
    p.destroys_data = true;
}

} // namespace

Change change_of(SettingName setting, regs::ExtCsdField field, uint64_t old_value, uint64_t new_value, Undo undo,
                 std::string consequence)
{
    const auto place = regs::field_place(field);
    Change c;
    c.setting = std::move(setting);
    c.field = field;
    c.name = std::string(place.jedec);
    c.index = place.lo;
    c.old_value = old_value;
    c.new_value = new_value;
    c.undo = undo;
    c.consequence = std::move(consequence);
    return c;
}

uint64_t planned_value(std::span<const uint8_t> ext_csd, const Change& c)
{
    if (!c.raw) return regs::ext_csd_value(ext_csd, c.field);
    regs::ext_csd_value(ext_csd, regs::ExtCsdField::ext_csd_rev); // checks the size
    return ext_csd[static_cast<std::size_t>(c.index)];
}

std::string_view to_string(Undo u)
{
    switch (u) {
    case Undo::reversible: return "reversible";
    case Undo::power_cycle: return "until power cycle";
    case Undo::one_time: return "one-time";
    case Undo::action: return "irreversible action";
    }
    return "?";
}

unsigned generic_cmd6_timeout_ms(std::span<const uint8_t> b)
{
    // The kernel's DEFAULT_CMD6_TIMEOUT_MS when the device declares none.
    const uint64_t t = read_field(b, ExtCsdField::generic_cmd6_time);
    return t ? static_cast<unsigned>(t * 10) : 500;
}

unsigned partition_config_timeout_ms(std::span<const uint8_t> b)
{
    return std::max<unsigned>(generic_cmd6_timeout_ms(b), static_cast<unsigned>(read_field(b, ExtCsdField::partition_switch_time) * 10));
}

unsigned sanitize_timeout_ms(std::span<const uint8_t> b)
{
    // JESD84 bounds sanitize by no timeout; the kernel allows 240 s
    // (MMC_SANITIZE_TIMEOUT_MS), longer when the erase timeout says so.
    return std::max<unsigned>(240000, static_cast<unsigned>(read_field(b, ExtCsdField::erase_timeout_mult) * 300));
}

void add_field_change(Plan& plan, std::span<const uint8_t> b, Change change, unsigned timeout_ms)
{
    (void)b;
    const auto place = regs::field_place(change.field);
    for (int i = place.hi; i >= place.lo; --i) {
        const auto shift = 8 * (i - place.lo);
        plan.writes.push_back({i, static_cast<uint8_t>(change.new_value >> shift), timeout_ms,
                               place.hi == place.lo ? fmt::format("{} [{}]", place.jedec, i)
                                                    : fmt::format("{} [{}] (byte {})", place.jedec, i, i - place.lo)});
    }
    plan.changes.push_back(std::move(change));
}

Plan make_plan(std::span<const uint8_t> b, const Request& r)
{
    Plan p;
    p.user_area_before = p.user_area_after = regs::user_area_bytes(b);
    plan_sanitize(b, r, p);
    if (!p.refusals.empty() || r.sanitize) return p;
    plan_cache(b, r, p);
    plan_bkops(b, r, p);
    plan_partition_config(b, r, p);
    plan_boot_bus(b, r, p);
    plan_rst_n(b, r, p);
    plan_boot_wp(b, r, p);
    plan_partitions(b, r, p);
    plan_extra_settings(b, r, p);

    std::vector<SettingName> needs_permanent;
    bool completion = false;
    for (const auto& c : p.changes) {
        p.one_time = p.one_time || c.undo == Undo::one_time;
        p.power_cycle = p.power_cycle || c.after_power_cycle;
        // The partitioning as a whole: the completion the partition
        // settings bring, refused with them.
        if (c.undo == Undo::one_time && c.setting.setting == Setting::partitioning) completion = true;
        else if (c.undo == Undo::one_time && !r.permanent &&
                 std::find(needs_permanent.begin(), needs_permanent.end(), c.setting) == needs_permanent.end())
            needs_permanent.push_back(c.setting);
    }
    // A completion alone (the sizes asked for are written already, pending)
    // is one-time too: refused with the first partition setting asked for.
    const auto partition_setting = [](const SettingName& s) {
        return s.setting == Setting::enhanced_area || s.setting == Setting::gp || s.setting == Setting::write_reliability;
    };
    if (completion && !r.permanent && std::none_of(needs_permanent.begin(), needs_permanent.end(), partition_setting))
        needs_permanent.push_back(first_partition_setting(r));
    for (const auto& s : needs_permanent)
        refuse(p, s, "this cannot be undone on this device: give " + mention(Setting::permanent) + " as well to mean it");
    // A refused plan writes nothing, so it lists no writes, including those
    // of the settings planned after a refusal.
    if (!p.refusals.empty()) p.writes.clear();
    return p;
}

} // namespace mmc::tune
