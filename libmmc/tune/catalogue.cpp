#include "tune/catalogue.h"

#include "cli/size.h"
#include "tune/support.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

using regs::ExtCsdField;

struct RowBuilder {
    std::span<const uint8_t> b;
    std::vector<ConfigRow> rows;

    void add(Group g, std::optional<SettingName> setting, ExtCsdField f, std::string value, const std::optional<std::string>& why_not, Undo undo,
             bool after_power_cycle = false)
    {
        const auto place = regs::field_place(f);
        rows.push_back({g, std::move(setting), f, std::string(place.jedec), place.lo, regs::ext_csd_value(b, f), std::move(value),
                        !why_not.has_value(), why_not.value_or(""), undo, after_power_cycle, {}});
    }
    uint64_t v(ExtCsdField f) const { return regs::ext_csd_value(b, f); }
};

std::string on_off(bool on) { return on ? "on" : "off"; }

std::string boot_enable_text(uint64_t config)
{
    switch (config >> 3 & 7) {
    case 0: return "none";
    case 1: return "boot partition 1";
    case 2: return "boot partition 2";
    case 7: return "user area";
    default: return fmt::format("reserved ({})", config >> 3 & 7);
    }
}

std::string boot_bus_text(uint64_t v)
{
    static constexpr std::string_view widths[] = {"1 bit", "4 bits", "8 bits", "reserved width"};
    static constexpr std::string_view modes[] = {"SDR", "SDR high speed", "DDR", "reserved mode"};
    return fmt::format("{}, {}{}", widths[v & 3], modes[v >> 3 & 3], v & 4 ? ", kept after boot" : "");
}

std::string rst_n_text(uint64_t v)
{
    static constexpr std::string_view t[] = {"temporarily disabled", "permanently enabled", "permanently disabled", "reserved"};
    return std::string(t[v & 3]);
}

std::string boot_wp_text(uint64_t wp, uint64_t status)
{
    static constexpr std::string_view area[] = {"unprotected", "power-on protected", "permanently protected", "reserved"};
    return fmt::format("BOOT_WP 0x{:02x}; boot partition 1 {}, boot partition 2 {}", wp, area[status & 3], area[status >> 2 & 3]);
}

std::string rel_text(uint64_t v)
{
    std::string s;
    static constexpr std::string_view names[] = {"user", "gp1", "gp2", "gp3", "gp4"};
    for (int i = 0; i < 5; ++i)
        if (v >> i & 1) s += fmt::format("{}{}", s.empty() ? "" : ",", names[i]);
    return s.empty() ? "none" : s;
}

} // namespace

std::string_view to_string(Group g)
{
    static constexpr std::string_view names[] = {"cache", "background operations", "boot", "reset", "write protection",
                                                  "partitions", "reliability", "power-off notification", "sanitize"};
    return names[static_cast<int>(g)];
}

std::string_view group_key(Group g)
{
    static constexpr std::string_view keys[] = {"cache", "background_operations", "boot", "reset", "write_protection",
                                                "partitions", "reliability", "power_off_notification", "sanitize"};
    return keys[static_cast<int>(g)];
}

std::vector<ConfigRow> current_configuration(std::span<const uint8_t> b)
{
    RowBuilder r{b, {}};
    using F = ExtCsdField;
    const uint64_t unit = regs::wp_group_bytes(b);

    r.add(Group::cache, Setting::volatile_cache, F::cache_ctrl,
          fmt::format("{} (cache {})", on_off(r.v(F::cache_ctrl) & 1), cli::format_bytes(r.v(F::cache_size) * 1024)),
          cache_unsupported(b), Undo::reversible);

    const uint64_t bkops = r.v(F::bkops_en);
    r.add(Group::background_operations, Setting::bkops, F::bkops_en,
          fmt::format("auto {}, manual {}", on_off(bkops & 2), on_off(bkops & 1)), bkops_auto_unsupported(b), Undo::reversible);
    r.rows.back().one_time_value = std::string(to_string(Bkops::manual));

    const uint64_t config = r.v(F::partition_config);
    const auto boot_why = boot_config_unsupported(b);
    r.add(Group::boot, SettingName(Setting::boot_partition, Setting::boot_ack), F::partition_config,
          fmt::format("boot from {}, boot ack {}", boot_enable_text(config), on_off(config & 0x40)),
          boot_why ? boot_why : boot_partitions_absent(b), Undo::reversible);
    r.add(Group::boot, Setting::boot_bus, F::boot_bus_conditions, boot_bus_text(r.v(F::boot_bus_conditions)), boot_why, Undo::reversible);

    const uint64_t rst = r.v(F::rst_n_function);
    std::optional<std::string> rst_why = rst_n_unsupported(b);
    if (!rst_why && (rst & 3)) rst_why = "already set for good";
    r.add(Group::reset, Setting::rst_n, F::rst_n_function, rst_n_text(rst), rst_why, Undo::one_time);

    r.add(Group::write_protection, Setting::boot_wp, F::boot_wp, boot_wp_text(r.v(F::boot_wp), r.v(F::boot_wp_status)),
          boot_wp_power_on_unsupported(b), Undo::power_cycle);
    r.rows.back().one_time_value = std::string(to_string(BootWp::permanent));

    const auto part_why = partitioning_unsupported(b);
    const bool sectors = regs::sector_addressed(b);
    r.add(Group::partitions, Setting::enhanced_area, F::enh_size_mult,
          r.v(F::enh_size_mult) ? fmt::format("{} at {}", cli::format_bytes_exact(r.v(F::enh_size_mult) * unit),
                                              cli::format_bytes_exact(r.v(F::enh_start_addr) * (sectors ? 512 : 1)))
                                : "none",
          enhanced_unsupported(b), Undo::one_time, true);
    const std::array gp_fields{F::gp_size_mult_1, F::gp_size_mult_2, F::gp_size_mult_3, F::gp_size_mult_4};
    for (std::size_t i = 0; i < gp_fields.size(); ++i) {
        const uint64_t bytes = r.v(gp_fields[i]) * unit;
        r.add(Group::partitions, SettingName(Setting::gp, std::nullopt, static_cast<int>(i) + 1), gp_fields[i], bytes ? cli::format_bytes_exact(bytes) : "none",
              part_why, Undo::one_time, true);
    }
    r.add(Group::partitions, std::nullopt, F::partitions_attribute, fmt::format("0x{:02x}", r.v(F::partitions_attribute)), part_why,
          Undo::one_time, true);
    r.add(Group::partitions, std::nullopt, F::partition_setting_completed, r.v(F::partition_setting_completed) & 1 ? "completed" : "not completed",
          part_why, Undo::one_time, true);
    r.add(Group::reliability, Setting::write_reliability, F::wr_rel_set, rel_text(r.v(F::wr_rel_set)), write_reliability_unsupported(b),
          Undo::one_time, true);
    r.add(Group::power_off_notification, std::nullopt, F::power_off_notification,
          fmt::format("{} (the kernel's to set)", r.v(F::power_off_notification)), std::string("the kernel sets it"),
          Undo::reversible);
    r.add(Group::sanitize, Setting::sanitize, F::sanitize_start, "an action, not a state", sanitize_unsupported(b), Undo::action);
    return std::move(r.rows);
}

} // namespace mmc::tune
