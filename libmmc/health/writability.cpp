#include "health/writability.h"

#include "regs/decode.h"
#include "cli/size.h"
#include "regs/register_facts.h"

#include <fmt/format.h>

namespace mmc::health {

namespace {

void add(Writability& w, WpCause cause, WpScope scope, bool permanent, std::string what, std::string remedy)
{
    w.reasons.push_back({cause, scope, permanent, std::move(what), std::move(remedy)});
}

std::string_view boot_wp_word(uint64_t two_bits)
{
    return two_bits == 1 ? "until the next power cycle" : two_bits == 2 ? "permanently" : "not";
}

} // namespace

std::string_view to_string(WpCause cause)
{
    switch (cause) {
    case WpCause::host_switch: return "host_switch";
    case WpCause::force_ro: return "force_ro";
    case WpCause::kernel_ro: return "kernel_ro";
    case WpCause::csd_perm_write_protect: return "csd_perm_write_protect";
    case WpCause::csd_tmp_write_protect: return "csd_tmp_write_protect";
    case WpCause::card_locked: return "card_locked";
    case WpCause::end_of_life: return "end_of_life";
    case WpCause::boot_area_protected: return "boot_area_protected";
    case WpCause::group_protection_enabled: return "group_protection_enabled";
    }
    return "?";
}

std::string_view to_string(WpScope scope)
{
    switch (scope) {
    case WpScope::card: return "card";
    case WpScope::boot_areas: return "boot_areas";
    case WpScope::groups: return "groups";
    }
    return "?";
}

Writability assess_writability(const regs::CardRegisters& registers, const HostFacts& host,
                               const std::vector<Reading>& readings)
{
    Writability w;
    bool known = false;
    const bool sd = registers.card == regs::CardFamily::sd;

    // The kernel's view. force_ro is the administrator's; a read-only SD
    // device without it is the host's switch (mmc_sd_get_ro), unless the
    // device tree tells the host to ignore the switch.
    if (host.force_ro) {
        known = true;
        if (*host.force_ro)
            add(w, WpCause::force_ro, WpScope::card, false, "the kernel keeps the device read-only (sysfs force_ro is 1)",
                "echo 0 > /sys/block/mmcblkN/force_ro as root");
    }
    if (host.ro) {
        known = true;
        if (*host.ro && !host.force_ro.value_or(false)) {
            if (sd && !host.disable_wp.value_or(false))
                add(w, WpCause::host_switch, WpScope::card, false,
                    fmt::format("the host reports the write-protect switch set (sysfs ro is 1{})",
                                host.wp_gpios.value_or(false) ? "; the switch is read through the device tree's wp-gpios" : ""),
                    "slide the lock switch on the card or its adapter towards the contacts and insert it again");
            else
                add(w, WpCause::kernel_ro, WpScope::card, false, "the kernel marks the device read-only (sysfs ro is 1)",
                    "clear the flag as root with blockdev's setrw command; if it comes back, the kernel log (dmesg) says why");
        }
    }

    if (const auto csd = regs::csd_facts(registers)) {
        known = true;
        if (csd->perm_write_protect)
            add(w, WpCause::csd_perm_write_protect, WpScope::card, true,
                "the CSD's PERM_WRITE_PROTECT bit is set", "none: the card is permanently read-only; copy the data off");
        if (csd->tmp_write_protect)
            add(w, WpCause::csd_tmp_write_protect, WpScope::card, false,
                "the CSD's TMP_WRITE_PROTECT bit is set",
                "clear it with CMD27 (PROGRAM_CSD), e.g. sdtool unlock; mmc-health does not send it");
    }
    if (const auto status = regs::status_facts(registers)) {
        known = true;
        if (status->card_is_locked)
            add(w, WpCause::card_locked, WpScope::card, false,
                "the card is locked with a password (card status CARD_IS_LOCKED, CMD42)",
                "unlock it with its password (CMD42); a forced erase also unlocks it but destroys all data");
    }
    if (const auto ext = regs::ext_csd_facts(registers)) {
        known = true;
        const uint64_t boot = ext->boot_wp_status;
        if (boot & 0x0f)
            add(w, WpCause::boot_area_protected, WpScope::boot_areas, ((boot & 3) == 2) || (((boot >> 2) & 3) == 2),
                fmt::format("boot0 is write-protected {}, boot1 {} (BOOT_WP_STATUS 0x{:02x}); the user area is not affected",
                            boot_wp_word(boot & 3), boot_wp_word((boot >> 2) & 3), boot),
                "power-on protection ends at the next power cycle; permanent protection cannot be undone");
        const uint64_t user_wp = ext->user_wp;
        if (host.user_wp_groups && !host.user_wp_groups->empty()) {
            // The card's own answer names the groups; USER_WP's enable bits
            // only choose what the next CMD28 sets.
            std::string groups;
            bool permanent = false;
            for (const auto& g : *host.user_wp_groups) {
                groups += fmt::format("{}{} at offset {} ({})", groups.empty() ? "" : ", ", cli::format_bytes_exact(g.bytes),
                                      cli::format_bytes_exact(g.offset), g.type ? regs::to_string(*g.type) : "kind not reported");
                permanent = permanent || g.type == regs::WpType::permanent;
            }
            add(w, WpCause::group_protection_enabled, WpScope::groups, permanent,
                fmt::format("write-protected groups of the user area: {}", groups),
                "temporary groups can be cleared (CMD29), power-on ones end at the next power cycle, permanent ones never");
        } else if (!host.user_wp_groups && (user_wp & 0x05))
            add(w, WpCause::group_protection_enabled, WpScope::groups, (user_wp & 0x04) != 0,
                fmt::format("USER_WP 0x{:02x} applies {} write protection to groups set with CMD28", user_wp,
                            (user_wp & 0x04) ? "permanent" : "power-on"),
                "list the protected groups with mmc-utils (mmc writeprotect user get); permanent groups stay read-only");
    }
    for (const auto& r : readings)
        if (r.wear.life_exhausted.value_or(false) || r.wear.pre_eol == PreEol::urgent) {
            add(w, WpCause::end_of_life, WpScope::card, true,
                fmt::format("{} reports the card's life used up; cards at end of life turn read-only", r.source),
                "none: copy the data off and replace the card");
            break;
        }

    // End of life alone is a risk, not a fact about writing now; the others are.
    bool blocked = false;
    for (const auto& r : w.reasons)
        if (r.scope == WpScope::card && r.cause != WpCause::end_of_life) blocked = true;
    if (known) w.writable = !blocked;
    return w;
}

} // namespace mmc::health
