// The planners and value parsers of emmc_extra.h's settings. The fields:
// JESD84-B51 7.4 (Extended CSD register), by name and byte:
//  - BOOT_WP [173]: B_SEC_WP_SEL (bit 7) makes B_PERM_WP_SEC_SEL (bit 3) and
//    B_PWR_WP_SEC_SEL (bit 1) choose the boot partition B_PERM_WP_EN (bit 2)
//    and B_PWR_WP_EN (bit 0) protect (0: boot partition 1, 1: 2); without
//    it both are protected. BOOT_WP_STATUS [174]: two bits per partition
//    (0 none, 1 power-on, 2 permanent), partition 1 in bits 1:0. Both new
//    in eMMC 4.5 (EXT_CSD_REV 6).
//  - USE_NATIVE_SECTOR [62] (R/W): 1 turns 512-byte emulation off from the
//    next power cycle, where NATIVE_SECTOR_SIZE [63] is 1 (4 KiB);
//    DATA_SECTOR_SIZE [61] says which is in use. The large sector needs
//    the enhanced reliable write: WR_REL_PARAM [166] EN_REL_WR (bit 2).
#include "tune/emmc_extra.h"

#include "regs/ext_csd_config.h"
#include "tune/plan.h"
#include "tune/support.h"

#include <charconv>
#include <fmt/format.h>

namespace mmc::tune {

namespace {

using regs::ExtCsdField;

constexpr uint8_t sec_wp_sel = 0x80, perm_sec_sel = 0x08, perm_en = 0x04, pwr_sec_sel = 0x02, pwr_en = 0x01;
constexpr uint64_t status_power_on = 1, status_permanent = 2;

// The number after a prefix: decimal or 0x hex, all of `text`.
std::optional<unsigned> number(std::string_view text)
{
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        base = 16;
    }
    unsigned v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

std::string_view kind_words(uint64_t status)
{
    return status == status_permanent ? "permanently" : status == status_power_on ? "power-on" : "not";
}

void plan_raw_write(std::span<const uint8_t> b, const RawWrite& w, const Request& r, Plan& p)
{
    const RawField f = raw_field(w.index);
    const std::string where = fmt::format("EXT_CSD [{}]{}", w.index, f.name.empty() ? "" : " " + f.name);
    const SettingName s = Setting::extcsd_write;
    switch (f.kind) {
    case RawKind::reserved: return p.refuse({s, fmt::format("{} is reserved: no field to write", where)});
    case RawKind::read_only:
        return p.refuse({s, fmt::format("{} is read-only{}", where, w.index >= 192 ? " (the properties segment, [511:192])" : "")});
    case RawKind::typed:
        return p.refuse({s, fmt::format("{} is written by {}, with its guards and read-back: use it", where, mention(*f.typed_by))});
    case RawKind::kernels:
        return p.refuse({s, fmt::format("{} is the kernel's own state (bus, power or queue): a write behind its back leaves "
                                        "the kernel driving the device otherwise than it thinks",
                                        where)});
    case RawKind::trigger:
        return p.refuse({s, fmt::format("{} is a write-only trigger: an action its read-back cannot confirm", where)});
    case RawKind::free:
    case RawKind::one_time: break;
    }
    for (const auto& other : r.extcsd_writes)
        if (&other != &w && other.index == w.index)
            return p.refuse({s, fmt::format("{} given twice; give one value per byte", where)});
    const uint8_t old = b[static_cast<std::size_t>(w.index)];
    if (old == w.value) return p.notes.push_back(fmt::format("{} {}: already 0x{:02x}", mention(s), where, old));
    if (old & f.one_time_bits & ~w.value)
        return p.refuse({s, fmt::format("{} holds 0x{:02x}: bits 0x{:02x} are set for good and cannot be cleared", where, old,
                                        old & f.one_time_bits & ~w.value)});
    const bool one_time = (w.value & f.one_time_bits & ~old) != 0;
    Change c;
    c.setting = s;
    c.field = ExtCsdField::ext_csd_rev; // unused: the change is raw
    c.raw = true;
    c.name = f.name.empty() ? fmt::format("EXT_CSD[{}]", w.index) : f.name;
    c.index = w.index;
    c.old_value = old;
    c.new_value = w.value;
    c.undo = one_time ? Undo::one_time : Undo::reversible;
    c.consequence = fmt::format("a raw write: the device does what JESD84-B51 (or its vendor) says {} = 0x{:02x} means{}",
                                c.name, w.value, one_time ? "; bits set here are set for good: this cannot be undone on this device" : "");
    p.writes.push_back({w.index, w.value, generic_cmd6_timeout_ms(b), fmt::format("{} [{}]", c.name, w.index)});
    p.changes.push_back(std::move(c));
}

void plan_sector_emulation(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    if (!r.sector_emulation) return;
    const SettingName s = Setting::sector_emulation;
    const uint64_t rev = regs::ext_csd_value(b, ExtCsdField::ext_csd_rev);
    if (rev < 6)
        return p.refuse({s, fmt::format("512-byte emulation (USE_NATIVE_SECTOR [62]) needs eMMC 4.5 (EXT_CSD_REV 6); this device is "
                                        "{} (EXT_CSD_REV {})",
                                        emmc_version(rev), rev)});
    if (regs::ext_csd_value(b, ExtCsdField::native_sector_size) != 1)
        return p.refuse({s, "the device's native sector is 512 bytes (NATIVE_SECTOR_SIZE [63] is 0): there is no emulation to change"});
    const uint64_t use = regs::ext_csd_value(b, ExtCsdField::use_native_sector), want = *r.sector_emulation ? 0 : 1;
    const uint64_t in_use = regs::ext_csd_value(b, ExtCsdField::data_sector_size);
    if (use == want)
        return p.notes.push_back(fmt::format("{}: USE_NATIVE_SECTOR [62] is already {}{}", mention(s), use,
                                             in_use == want ? "" : " (in effect after the next power cycle)"));
    if (want == 1 && !(regs::ext_csd_value(b, ExtCsdField::wr_rel_param) & 0x04))
        return p.refuse({s, "4 KiB sectors need the enhanced reliable write, which the device lacks (WR_REL_PARAM [166] EN_REL_WR is 0)"});
    auto c = change_of(s, ExtCsdField::use_native_sector, use, want, Undo::reversible,
                       want ? "after the next power cycle the device reads and writes 4 KiB sectors only: every partition table and "
                              "filesystem laid out in 512-byte sectors no longer fits; the block layer sees a new device"
                            : "after the next power cycle the device emulates 512-byte sectors again: what was laid out in 4 KiB "
                              "sectors no longer fits");
    c.after_power_cycle = true;
    add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
    p.power_cycle = true;
    p.destroys_data = true;
}

} // namespace

std::pair<BootWp, int> parse_boot_wp_area(std::string_view value)
{
    const auto comma = value.find(',');
    if (comma == std::string_view::npos) return {parse_boot_wp(value), 0};
    const auto area = value.substr(comma + 1);
    if (area.size() != 1 || (area[0] != '1' && area[0] != '2'))
        throw SettingError(fmt::format("{} {}: expected power-on or permanent, then ,1 or ,2 for one boot partition alone",
                                       mention(Setting::boot_wp), value));
    return {parse_boot_wp(value.substr(0, comma)), area[0] - '0'};
}

RawWrite parse_extcsd_write(std::string_view value)
{
    const auto eq = value.find('=');
    const auto bad = [&](std::string_view why) {
        return SettingError(fmt::format("{} {}: {}", mention(Setting::extcsd_write), value, why));
    };
    if (eq == std::string_view::npos) throw bad("expected OFFSET=VALUE (e.g. 134=0x01)");
    const auto index = number(value.substr(0, eq)), byte = number(value.substr(eq + 1));
    if (!index || *index > 511) throw bad("OFFSET is an EXT_CSD byte, 0 to 511 (decimal or 0x hex)");
    if (!byte || *byte > 255) throw bad("VALUE is a byte, 0 to 255 (decimal or 0x hex)");
    return {static_cast<int>(*index), static_cast<uint8_t>(*byte)};
}

void plan_boot_wp_area(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    const bool perm = *r.boot_wp == BootWp::permanent;
    const int area = r.boot_wp_area;
    const SettingName s = Setting::boot_wp;
    if (auto why = perm ? boot_wp_permanent_unsupported(b) : boot_wp_power_on_unsupported(b)) return p.refuse({s, *why});
    const uint64_t rev = regs::ext_csd_value(b, ExtCsdField::ext_csd_rev);
    if (rev < 6)
        return p.refuse({s, fmt::format("protecting one boot partition alone (BOOT_WP [173] B_SEC_WP_SEL) needs eMMC 4.5 "
                                        "(EXT_CSD_REV 6); this device is {} (EXT_CSD_REV {}): protect both instead",
                                        emmc_version(rev), rev)});
    const uint64_t old = regs::ext_csd_value(b, ExtCsdField::boot_wp), status = regs::ext_csd_value(b, ExtCsdField::boot_wp_status);
    const uint64_t mine = status >> (2 * (area - 1)) & 3;
    if (mine == status_permanent || (mine == status_power_on && !perm))
        return p.notes.push_back(fmt::format("{}: boot partition {} is already {} protected (BOOT_WP_STATUS [174] 0x{:02x})",
                                             mention(s), area, kind_words(mine), status));
    const uint8_t en = perm ? perm_en : pwr_en, sel = perm ? perm_sec_sel : pwr_sec_sel;
    const uint8_t other_en = perm ? pwr_en : perm_en;
    // One partition per kind of protection: an enabled one already names
    // its partition (or both, without B_SEC_WP_SEL), which a new selection
    // would move or narrow.
    if (old & en)
        return p.refuse({s, fmt::format("{} protection is already on for the other boot partition (BOOT_WP [173] 0x{:02x}) and "
                                        "BOOT_WP selects one partition per kind: protect both instead",
                                        perm ? "permanent" : "power-on", old)});
    if ((old & other_en) && !(old & sec_wp_sel))
        return p.refuse({s, fmt::format("{} protection covers both boot partitions (BOOT_WP [173] 0x{:02x}, B_SEC_WP_SEL 0): "
                                        "selecting one partition now would narrow it; protect both instead",
                                        perm ? "power-on" : "permanent", old)});
    uint64_t now = old | sec_wp_sel | en;
    now = area == 2 ? now | sel : now & ~uint64_t{sel};
    const std::string which = fmt::format("boot partition {} (mmcblkXboot{})", area, area - 1);
    auto c = change_of(s, ExtCsdField::boot_wp, old, now, perm ? Undo::one_time : Undo::power_cycle,
                       perm ? fmt::format("{} becomes read-only for good: its contents can never change again; the other boot "
                                          "partition stays as it is; this cannot be undone on this device",
                                          which)
                            : fmt::format("{} is read-only until the next power cycle or hardware reset; the other boot partition "
                                          "stays as it is",
                                          which));
    c.consequence += "; the kernel is not told: until it next initialises the device it still offers it for writing, and writes to it fail";
    c.compare_mask = sec_wp_sel | en | sel;
    add_field_change(p, b, c, generic_cmd6_timeout_ms(b));
}

void plan_extra_settings(std::span<const uint8_t> b, const Request& r, Plan& p)
{
    for (const auto& w : r.extcsd_writes) plan_raw_write(b, w, r, p);
    plan_sector_emulation(b, r, p);
}

} // namespace mmc::tune
