#include "tune/config_file.h"

#include "cli/size.h"
#include "regs/ext_csd_config.h"
#include "tune/emmc_extra.h"
#include "tune/support.h"

#include <fmt/format.h>
#include <tuple>

namespace mmc::tune {

namespace {

using regs::ExtCsdField;

uint64_t cfg_value(std::span<const uint8_t> b, ExtCsdField f) { return regs::ext_csd_value(b, f); }

std::string string_in(const nlohmann::ordered_json& obj, const char* key)
{
    const auto it = obj.find(key);
    if (it == obj.end()) return {};
    if (!it->is_string()) throw SettingError(fmt::format("configuration: \"{}\" is not a string", key));
    return it->get<std::string>();
}

} // namespace

Model model_of(std::span<const uint8_t> b, std::string manfid, std::string name)
{
    return {std::move(manfid), std::move(name), cfg_value(b, ExtCsdField::ext_csd_rev), cfg_value(b, ExtCsdField::sec_count)};
}

Request request_from_device(std::span<const uint8_t> b)
{
    Request r;
    if (!cache_unsupported(b)) r.cache = (cfg_value(b, ExtCsdField::cache_ctrl) & 1) != 0;
    if (!bkops_auto_unsupported(b)) r.bkops = cfg_value(b, ExtCsdField::bkops_en) & 2 ? Bkops::automatic : Bkops::off;
    if (!boot_config_unsupported(b)) {
        const uint64_t config = cfg_value(b, ExtCsdField::partition_config);
        const uint64_t enable = config >> 3 & 7;
        if (enable == 0 || enable == 1 || enable == 2 || enable == 7) r.boot_partition = static_cast<BootPartition>(enable);
        r.boot_ack = (config & 0x40) != 0;
        const uint64_t bus = cfg_value(b, ExtCsdField::boot_bus_conditions);
        if ((bus & 3) != 3 && (bus >> 3 & 3) != 3)
            r.boot_bus = BootBus{(bus & 3) == 0 ? 1 : (bus & 3) == 1 ? 4 : 8, static_cast<BootMode>(bus >> 3 & 3),
                                 bus & 4 ? std::optional<bool>(true) : std::nullopt};
    }
    const uint64_t rst = cfg_value(b, ExtCsdField::rst_n_function) & 3;
    if (rst == 1 || rst == 2) r.rst_n = rst == 1;
    const uint64_t wp = cfg_value(b, ExtCsdField::boot_wp);
    // With B_SEC_WP_SEL (bit 7) one boot partition alone, named by the
    // kind's selection bit (JESD84-B51 7.4, BOOT_WP [173]).
    if (wp & 0x04) r.boot_wp = BootWp::permanent;
    else if (wp & 0x01) r.boot_wp = BootWp::power_on;
    if (r.boot_wp && (wp & 0x80)) r.boot_wp_area = wp & (*r.boot_wp == BootWp::permanent ? 0x08 : 0x02) ? 2 : 1;
    if (cfg_value(b, ExtCsdField::partition_setting_completed) & 1) {
        const uint64_t unit = regs::wp_group_bytes(b);
        if (const uint64_t enh = cfg_value(b, ExtCsdField::enh_size_mult))
            r.enhanced_area = Area{cfg_value(b, ExtCsdField::enh_start_addr) * (regs::sector_addressed(b) ? 512 : 1), enh * unit};
        const ExtCsdField gp[] = {ExtCsdField::gp_size_mult_1, ExtCsdField::gp_size_mult_2, ExtCsdField::gp_size_mult_3,
                                  ExtCsdField::gp_size_mult_4};
        for (std::size_t i = 0; i < 4; ++i)
            if (const uint64_t m = cfg_value(b, gp[i])) r.gp[i] = m * unit;
        const uint64_t rel = cfg_value(b, ExtCsdField::wr_rel_set);
        if (!write_reliability_unsupported(b) || (cfg_value(b, ExtCsdField::wr_rel_param) & 1))
            for (int bit = 0; bit < 5; ++bit)
                if (rel >> bit & 1) r.write_reliability.push_back(static_cast<RelPart>(bit));
    }
    return r;
}

nlohmann::ordered_json config_json(const Model& m, const Request& r)
{
    nlohmann::ordered_json s = nlohmann::ordered_json::object();
    if (r.cache) s["volatile_cache"] = *r.cache ? "on" : "off";
    if (r.bkops) s["bkops"] = to_string(*r.bkops);
    if (r.boot_partition) s["boot_partition"] = to_string(*r.boot_partition);
    if (r.boot_ack) s["boot_ack"] = *r.boot_ack ? "on" : "off";
    if (r.boot_bus) s["boot_bus"] = to_string(*r.boot_bus);
    if (r.rst_n) s["rst_n"] = *r.rst_n ? "on" : "off";
    if (r.boot_wp) s["boot_wp"] = fmt::format("{}{}", to_string(*r.boot_wp), r.boot_wp_area ? fmt::format(",{}", r.boot_wp_area) : "");
    if (r.enhanced_area) s["enhanced_area"] = fmt::format("{},{}", r.enhanced_area->offset, r.enhanced_area->size);
    for (std::size_t i = 0; i < 4; ++i)
        if (r.gp[i]) s["gp"].push_back(fmt::format("{},{}", i + 1, *r.gp[i]));
    if (!r.write_reliability.empty()) {
        std::string parts;
        for (const auto p : r.write_reliability) parts += fmt::format("{}{}", parts.empty() ? "" : ",", to_string(p));
        s["write_reliability"] = parts;
    }
    nlohmann::ordered_json doc;
    doc["kind"] = "mmc-tune emmc configuration";
    doc["model"] = {{"manfid", m.manfid}, {"name", m.name}, {"ext_csd_rev", m.ext_csd_rev}, {"sec_count", m.sec_count}};
    doc["settings"] = s;
    return doc;
}

namespace {

// A setting by its key in the file, for the errors of the values read
// from it ("volatile_cache maybe: expected on or off").
std::string key_of(const SettingName& n)
{
    switch (n.setting) {
    case Setting::volatile_cache: return "volatile_cache";
    case Setting::bkops: return "bkops";
    case Setting::boot_partition: return "boot_partition";
    case Setting::boot_ack: return "boot_ack";
    case Setting::boot_bus: return "boot_bus";
    case Setting::rst_n: return "rst_n";
    case Setting::boot_wp: return "boot_wp";
    case Setting::enhanced_area: return "enhanced_area";
    case Setting::gp: return "gp";
    case Setting::write_reliability: return "write_reliability";
    case Setting::sanitize: return "sanitize";
    case Setting::permanent: return "permanent";
    case Setting::partitioning: return "partitioning";
    case Setting::extcsd_write: return "extcsd_write";
    case Setting::sector_emulation: return "sector_emulation";
    }
    return "?";
}

Request settings_of(const nlohmann::ordered_json& doc, const Model& device);

} // namespace

Request request_from_config(const nlohmann::ordered_json& doc, const Model& device)
{
    try {
        return settings_of(doc, device);
    } catch (const SettingError& e) {
        throw SettingError(named(e.what(), key_of));
    }
}

namespace {

Request settings_of(const nlohmann::ordered_json& doc, const Model& device)
{
    if (!doc.is_object() || doc.value("kind", nlohmann::ordered_json()) != "mmc-tune emmc configuration")
        throw SettingError("configuration: not an mmc-tune emmc configuration (no \"kind\": \"mmc-tune emmc configuration\")");
    const auto model = doc.find("model");
    const auto settings = doc.find("settings");
    if (model == doc.end() || !model->is_object() || settings == doc.end() || !settings->is_object())
        throw SettingError("configuration: \"model\" and \"settings\" must be objects");
    auto number = [&](const char* key) -> uint64_t {
        const auto it = model->find(key);
        if (it == model->end() || !it->is_number_unsigned()) throw SettingError(fmt::format("configuration: model \"{}\" is not a count", key));
        return it->get<uint64_t>();
    };
    const Model saved{string_in(*model, "manfid"), string_in(*model, "name"), number("ext_csd_rev"), number("sec_count")};
    auto differs = [](const std::string& a, const std::string& b) { return !a.empty() && !b.empty() && a != b; };
    if (differs(saved.manfid, device.manfid) || differs(saved.name, device.name) || saved.ext_csd_rev != device.ext_csd_rev)
        throw SettingError(fmt::format("configuration is for {} {} (EXT_CSD_REV {}), this device is {} {} (EXT_CSD_REV {}): not the same model",
                                       saved.manfid, saved.name, saved.ext_csd_rev, device.manfid, device.name, device.ext_csd_rev));
    Request r;
    for (const auto& [key, value] : settings->items()) {
        if (key == "gp") {
            if (!value.is_array()) throw SettingError("configuration: \"gp\" is not a list");
            for (const auto& g : value) {
                if (!g.is_string()) throw SettingError("configuration: a \"gp\" entry is not a string");
                const auto [n, size] = parse_gp(g.get<std::string>());
                r.gp[static_cast<std::size_t>(n - 1)] = size;
            }
            continue;
        }
        if (!value.is_string()) throw SettingError(fmt::format("configuration: \"{}\" is not a string", key));
        const std::string v = value.get<std::string>();
        if (key == "volatile_cache") r.cache = parse_on_off(Setting::volatile_cache, v);
        else if (key == "bkops") r.bkops = parse_bkops(v);
        else if (key == "boot_partition") r.boot_partition = parse_boot_partition(v);
        else if (key == "boot_ack") r.boot_ack = parse_on_off(Setting::boot_ack, v);
        else if (key == "boot_bus") r.boot_bus = parse_boot_bus(v);
        else if (key == "rst_n") r.rst_n = parse_on_off(Setting::rst_n, v);
        else if (key == "boot_wp") std::tie(r.boot_wp, r.boot_wp_area) = parse_boot_wp_area(v);
        else if (key == "enhanced_area") r.enhanced_area = parse_area(v);
        else if (key == "write_reliability") r.write_reliability = parse_rel_parts(v);
        else throw SettingError(fmt::format("configuration: unknown setting \"{}\"", key));
    }
    return r;
}

} // namespace

} // namespace mmc::tune
