#include "tune/user_wp_apply.h"

#include "dev/write_protect.h"
#include "regs/ext_csd_config.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

// Every group is asked on its own, at its own address, and only the bits of
// the addressed group are read: a device that counts its groups otherwise
// than its registers say (QEMU's eMMC keeps 2 MiB groups whatever its CSD
// declares) still answers each question about the group asked for. The
// kernel's multi-command ioctl keeps that to one call per 255 groups.
std::vector<uint32_t> group_addresses(std::span<const uint8_t> ext_csd, uint64_t group_bytes, uint64_t groups)
{
    std::vector<uint32_t> out;
    for (uint64_t i = 0; i < groups; ++i) out.push_back(wp_address(ext_csd, i * group_bytes));
    return out;
}

} // namespace

UserWpListing list_user_wp(WpDevice& device, std::span<const uint8_t> ext_csd, std::span<const uint8_t> csd)
{
    UserWpListing l;
    const auto group = regs::user_wp_group(ext_csd, csd);
    if (!group) throw ApplyError("the device gives no write protect group (CSD WP_GRP_SIZE, EXT_CSD HC_WP_GRP_SIZE)");
    l.group = *group;
    l.user_area_bytes = regs::user_area_bytes(ext_csd);
    const uint64_t count = (l.user_area_bytes + group->bytes - 1) / group->bytes;
    const auto addresses = group_addresses(ext_csd, group->bytes, count);
    try {
        for (const auto& data : device.write_prot_types(addresses)) {
            const regs::WpType t = regs::wp_types_of(data)[0];
            l.groups.push_back({t != regs::WpType::none, t});
        }
    } catch (const std::exception& e) {
        l.types_known = false;
        l.types_unknown_reason = e.what();
        l.groups.clear();
        try {
            for (const auto& data : device.write_prot_bits(addresses)) l.groups.push_back({regs::wp_bits_of(data)[0], std::nullopt});
        } catch (const std::exception& e2) {
            throw ApplyError(fmt::format("the device answers neither SEND_WRITE_PROT_TYPE (CMD31: {}) nor SEND_WRITE_PROT (CMD30: {})",
                                         e.what(), e2.what()));
        }
        for (auto& g : l.groups)
            if (!g.protected_) g.type = regs::WpType::none;
    }
    l.protected_runs = protected_runs(l);
    return l;
}

UserWpResult apply_user_wp(WpDevice& device, const UserWpPlan& plan, std::span<const uint8_t> ext_csd,
                           std::span<const uint8_t> csd)
{
    if (!plan.applicable()) throw ApplyError("the plan has refusals or nothing to write; nothing was written");
    const auto now = device.read_ext_csd();
    if (regs::ext_csd_value(now, regs::ExtCsdField::user_wp) != plan.user_wp)
        throw ApplyError(fmt::format("USER_WP [171] changed since the plan was made (0x{:02x}, now 0x{:02x}); nothing was written: "
                                     "plan again",
                                     plan.user_wp, regs::ext_csd_value(now, regs::ExtCsdField::user_wp)));
    for (const auto& step : plan.steps) {
        const bool switched = step.user_wp_during != plan.user_wp;
        if (switched) device.write_user_wp(step.user_wp_during);
        try {
            device.protect(step.addresses, step.set);
        } catch (const std::exception& e) {
            std::string restored = "USER_WP was not changed";
            if (switched) {
                try {
                    device.write_user_wp(plan.user_wp);
                    restored = fmt::format("USER_WP put back to 0x{:02x}", plan.user_wp);
                } catch (const std::exception& e2) {
                    restored = fmt::format("USER_WP could not be put back to 0x{:02x} ({})", plan.user_wp, e2.what());
                }
            }
            throw ApplyError(fmt::format("{} failed: {}; {}; the groups before it hold, list them to see",
                                         step.set ? "SET_WRITE_PROT" : "CLR_WRITE_PROT", e.what(), restored));
        }
        if (switched) device.write_user_wp(plan.user_wp);
    }
    UserWpResult result{list_user_wp(device, ext_csd, csd), device.read_ext_csd()};
    std::string bad;
    for (const auto& step : plan.steps) {
        const regs::WpType want = step.set ? (step.user_wp_during & regs::user_wp_bit::us_perm_wp_en   ? regs::WpType::permanent
                                              : step.user_wp_during & regs::user_wp_bit::us_pwr_wp_en ? regs::WpType::power_on
                                                                                                       : regs::WpType::temporary)
                                           : regs::WpType::none;
        for (const uint64_t grp : step.groups) {
            const auto& s = result.after.groups.at(grp);
            const bool ok = result.after.types_known ? s.type == want : s.protected_ == (want != regs::WpType::none);
            if (!ok)
                bad += fmt::format("{}group {} reads {}, planned {}", bad.empty() ? "" : "; ", grp,
                                   s.type ? to_string(*s.type) : "protected", to_string(want));
        }
    }
    if (regs::ext_csd_value(result.ext_csd_after, regs::ExtCsdField::user_wp) != plan.user_wp)
        bad += fmt::format("{}USER_WP [171] reads 0x{:02x}, not 0x{:02x} as before", bad.empty() ? "" : "; ",
                           regs::ext_csd_value(result.ext_csd_after, regs::ExtCsdField::user_wp), plan.user_wp);
    if (!bad.empty()) throw ApplyError("read back: " + bad);
    return result;
}

std::vector<std::array<uint8_t, 8>> IoctlWpDevice::write_prot_types(const std::vector<uint32_t>& addresses)
{
    return dev::send_write_prot_type(channel_, addresses);
}

std::vector<std::array<uint8_t, 4>> IoctlWpDevice::write_prot_bits(const std::vector<uint32_t>& addresses)
{
    return dev::send_write_prot(channel_, addresses);
}

void IoctlWpDevice::write_user_wp(uint8_t value)
{
    const auto place = regs::field_place(regs::ExtCsdField::user_wp);
    switches_.switch_all({Write{place.lo, value, 0, fmt::format("USER_WP [{}]", place.lo)}});
}

void IoctlWpDevice::protect(const std::vector<uint32_t>& addresses, bool set) { dev::set_write_prot(channel_, rca_, addresses, set); }

} // namespace mmc::tune
