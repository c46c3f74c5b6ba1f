#include "tune/settings.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

std::vector<std::string_view> split_commas(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const auto comma = text.find(',', start);
        out.push_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

// "--gp SIZE: why", mentioning the setting.
uint64_t size_in(Setting setting, std::string_view part, std::string_view text)
{
    try {
        return cli::parse_size(text);
    } catch (const std::invalid_argument& e) {
        throw SettingError(fmt::format("{} {}: {}", mention(setting), part, e.what()));
    }
}

// A mention's mark: SOH, three bytes (setting, with + 1 or 0, partition), STX.
constexpr char mark_open = '\x01', mark_close = '\x02';

} // namespace

std::string mention(const SettingName& s)
{
    std::string m(1, mark_open);
    m += static_cast<char>('A' + static_cast<int>(s.setting));
    m += static_cast<char>(s.with ? 'B' + static_cast<int>(*s.with) : 'A');
    m += static_cast<char>('0' + s.partition);
    return m + mark_close;
}

std::string named(std::string_view words, const SettingNames& names)
{
    std::string out;
    for (std::size_t i = 0; i < words.size();) {
        if (words[i] == mark_open && i + 4 < words.size() && words[i + 4] == mark_close) {
            SettingName s(static_cast<Setting>(words[i + 1] - 'A'));
            if (words[i + 2] != 'A') s.with = static_cast<Setting>(words[i + 2] - 'B');
            s.partition = words[i + 3] - '0';
            out += names(s);
            i += 5;
        } else {
            out += words[i++];
        }
    }
    return out;
}

bool Request::empty() const
{
    return !cache && !bkops && !boot_partition && !boot_ack && !boot_bus && !rst_n && !boot_wp && !partitions() && !sanitize &&
           extcsd_writes.empty() && !sector_emulation;
}

bool Request::partitions() const
{
    if (enhanced_area || !write_reliability.empty()) return true;
    for (const auto& g : gp)
        if (g) return true;
    return false;
}

bool parse_on_off(Setting setting, std::string_view value)
{
    if (value == "on") return true;
    if (value == "off") return false;
    throw SettingError(fmt::format("{} {}: expected on or off", mention(setting), value));
}

Bkops parse_bkops(std::string_view value)
{
    if (value == "auto") return Bkops::automatic;
    if (value == "off") return Bkops::off;
    if (value == "manual") return Bkops::manual;
    throw SettingError(fmt::format("{} {}: expected auto, off or manual", mention(Setting::bkops), value));
}

BootPartition parse_boot_partition(std::string_view value)
{
    if (value == "1") return BootPartition::boot1;
    if (value == "2") return BootPartition::boot2;
    if (value == "user") return BootPartition::user;
    if (value == "none") return BootPartition::none;
    throw SettingError(fmt::format("{} {}: expected 1, 2, user or none", mention(Setting::boot_partition), value));
}

BootBus parse_boot_bus(std::string_view value)
{
    const auto parts = split_commas(value);
    BootBus b;
    if (parts[0] == "1") b.width = 1;
    else if (parts[0] == "4") b.width = 4;
    else if (parts[0] == "8") b.width = 8;
    else throw SettingError(fmt::format("{} {}: expected a width of 1, 4 or 8 bits, then ,ddr or ,hs and ,retain or ,reset if wanted",
                                        mention(Setting::boot_bus), value));
    if (parts.size() > 3) throw SettingError(fmt::format("{} {}: expected WIDTH[,MODE][,retain|reset]", mention(Setting::boot_bus), value));
    bool mode_given = false;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const auto part = parts[i];
        if (part == "retain" || part == "reset") {
            if (b.retain) throw SettingError(fmt::format("{} {}: retain or reset, once", mention(Setting::boot_bus), value));
            b.retain = part == "retain";
            continue;
        }
        if (mode_given || b.retain)
            throw SettingError(fmt::format("{} {}: expected WIDTH[,MODE][,retain|reset]", mention(Setting::boot_bus), value));
        mode_given = true;
        if (part == "ddr") b.mode = BootMode::ddr;
        else if (part == "hs") b.mode = BootMode::sdr_hs;
        else if (part == "sdr") b.mode = BootMode::sdr;
        else throw SettingError(fmt::format("{} {}: '{}' is not a boot mode; expected sdr, hs or ddr (or retain, reset)",
                                            mention(Setting::boot_bus), value, part));
    }
    return b;
}

BootWp parse_boot_wp(std::string_view value)
{
    if (value == "power-on") return BootWp::power_on;
    if (value == "permanent") return BootWp::permanent;
    throw SettingError(fmt::format("{} {}: expected power-on or permanent", mention(Setting::boot_wp), value));
}

Area parse_area(std::string_view value)
{
    const auto parts = split_commas(value);
    if (parts.size() != 2) throw SettingError(fmt::format("{} {}: expected OFFSET,SIZE (e.g. 0,1G)", mention(Setting::enhanced_area), value));
    return {size_in(Setting::enhanced_area, "OFFSET", parts[0]), size_in(Setting::enhanced_area, "SIZE", parts[1])};
}

std::pair<int, uint64_t> parse_gp(std::string_view value)
{
    const auto parts = split_commas(value);
    if (parts.size() != 2 || parts[0].size() != 1 || parts[0][0] < '1' || parts[0][0] > '4')
        throw SettingError(fmt::format("{} {}: expected N,SIZE with N from 1 to 4 (e.g. 1,512M)", mention(Setting::gp), value));
    return {parts[0][0] - '0', size_in(Setting::gp, "SIZE", parts[1])};
}

std::vector<RelPart> parse_rel_parts(std::string_view value)
{
    std::vector<RelPart> out;
    for (const auto part : split_commas(value)) {
        RelPart p;
        if (part == "user") p = RelPart::user;
        else if (part == "gp1") p = RelPart::gp1;
        else if (part == "gp2") p = RelPart::gp2;
        else if (part == "gp3") p = RelPart::gp3;
        else if (part == "gp4") p = RelPart::gp4;
        else throw SettingError(fmt::format("{} {}: '{}' is not a partition; expected user, gp1, gp2, gp3 or gp4", mention(Setting::write_reliability),
                                            value, part));
        out.push_back(p);
    }
    return out;
}

std::string_view to_string(Bkops b)
{
    switch (b) {
    case Bkops::off: return "off";
    case Bkops::automatic: return "auto";
    case Bkops::manual: return "manual";
    }
    return "?";
}

std::string_view to_string(BootPartition b)
{
    switch (b) {
    case BootPartition::none: return "none";
    case BootPartition::boot1: return "1";
    case BootPartition::boot2: return "2";
    case BootPartition::user: return "user";
    }
    return "?";
}

std::string to_string(const BootBus& b)
{
    static constexpr std::string_view modes[] = {"", ",hs", ",ddr"};
    return fmt::format("{}{}{}", b.width, modes[static_cast<int>(b.mode)], !b.retain ? "" : *b.retain ? ",retain" : ",reset");
}

std::string_view to_string(BootWp b) { return b == BootWp::power_on ? "power-on" : "permanent"; }

std::string_view to_string(RelPart p)
{
    static constexpr std::string_view names[] = {"user", "gp1", "gp2", "gp3", "gp4"};
    return names[static_cast<int>(p)];
}

} // namespace mmc::tune
