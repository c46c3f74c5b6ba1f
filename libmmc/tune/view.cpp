#include "tune/view.h"

#include "cli/size.h"
#include "cli/text_table.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

std::string undo_words(Undo u, bool after_power_cycle)
{
    std::string s(to_string(u));
    if (after_power_cycle) s += ", after power cycle";
    return s;
}

std::string field_words(const std::string& name, int index) { return fmt::format("{} [{}]", name, index); }

} // namespace

std::string configuration_text(const std::vector<ConfigRow>& rows, const SettingNames& names)
{
    std::string out;
    std::optional<Group> group;
    cli::TextTable table;
    auto flush = [&] {
        if (!table.rows.empty()) out += cli::render_table(table, 2);
        table.rows.clear();
    };
    table.header = {"field", "value", "option", "writable", "change"};
    table.right_aligned = {false, false, false, false, false};
    for (const auto& r : rows) {
        if (r.group != group) {
            flush();
            group = r.group;
            out += fmt::format("{}{}:\n", out.empty() ? "" : "\n", to_string(r.group));
        }
        std::string undo = undo_words(r.undo, r.after_power_cycle);
        if (!r.one_time_value.empty()) undo += fmt::format("; {}: one-time", r.one_time_value);
        table.rows.push_back({field_words(r.name, r.index), r.value, r.setting ? names(*r.setting) : "-", r.writable ? "yes" : "no", undo});
    }
    flush();
    std::string why;
    for (const auto& r : rows)
        if (!r.writable) why += fmt::format("  {}: {}\n", field_words(r.name, r.index), r.not_writable);
    if (!why.empty()) out += "\nNot writable on this device:\n" + why;
    return out;
}

nlohmann::ordered_json configuration_json(const std::vector<ConfigRow>& rows, const SettingNames& names)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& r : rows) {
        nlohmann::ordered_json j;
        j["group"] = group_key(r.group);
        j["field"] = r.name;
        j["index"] = r.index;
        j["raw"] = r.raw;
        j["value"] = r.value;
        j["option"] = r.setting ? nlohmann::ordered_json(names(*r.setting)) : nlohmann::ordered_json();
        j["writable"] = r.writable;
        if (!r.writable) j["not_writable"] = r.not_writable;
        j["undo"] = to_string(r.undo);
        if (!r.one_time_value.empty()) j["one_time_value"] = r.one_time_value;
        j["reversible"] = r.undo == Undo::reversible;
        j["after_power_cycle"] = r.after_power_cycle;
        out.push_back(j);
    }
    return out;
}

std::string plan_text(const Plan& p, const SettingNames& names)
{
    std::string out;
    if (!p.changes.empty()) {
        out += "Plan:\n";
        for (const auto& c : p.changes)
            out += fmt::format("  {} {}: 0x{:x} -> 0x{:x} ({})\n    {}\n", names(c.setting), field_words(c.name, c.index), c.old_value,
                               c.new_value, undo_words(c.undo, c.after_power_cycle), c.consequence);
    }
    if (p.user_area_after != p.user_area_before)
        out += fmt::format("  User area: {} now, about {} after the power cycle\n", cli::format_bytes_exact(p.user_area_before),
                           cli::format_bytes_exact(p.user_area_after));
    if (!p.writes.empty() && p.refusals.empty()) {
        out += "Writes (CMD6 SWITCH, in this order):\n";
        for (const auto& w : p.writes) out += fmt::format("  {} = 0x{:02x} (busy up to {} ms)\n", w.field, w.value, w.timeout_ms);
    }
    for (const auto& n : p.notes) out += fmt::format("Note: {}\n", named(n, names));
    for (const auto& r : p.refusals)
        out += fmt::format("Refused: {}{}{}\n", r.setting ? names(*r.setting) : "", r.setting ? ": " : "", named(r.reason, names));
    if (p.changes.empty() && p.refusals.empty()) out += "Nothing to change.\n";
    return out;
}

nlohmann::ordered_json plan_json(const Plan& p, const SettingNames& names)
{
    nlohmann::ordered_json j;
    j["changes"] = nlohmann::ordered_json::array();
    for (const auto& c : p.changes)
        j["changes"].push_back({{"setting", names(c.setting)},
                                {"field", c.name},
                                {"index", c.index},
                                {"old", c.old_value},
                                {"new", c.new_value},
                                {"reversible", c.reversible()},
                                {"undo", to_string(c.undo)},
                                {"after_power_cycle", c.after_power_cycle},
                                {"consequence", c.consequence}});
    j["refusals"] = nlohmann::ordered_json::array();
    for (const auto& r : p.refusals)
        j["refusals"].push_back({{"setting", r.setting ? names(*r.setting) : ""}, {"reason", named(r.reason, names)}});
    j["notes"] = nlohmann::ordered_json::array();
    for (const auto& n : p.notes) j["notes"].push_back(named(n, names));
    j["writes"] = nlohmann::ordered_json::array();
    for (const auto& w : p.writes)
        j["writes"].push_back({{"index", w.index}, {"value", w.value}, {"timeout_ms", w.timeout_ms}, {"field", w.field}});
    j["power_cycle"] = p.power_cycle;
    j["destroys_data"] = p.destroys_data;
    j["one_time"] = p.one_time;
    j["user_area_bytes"] = p.user_area_before;
    j["user_area_bytes_after"] = p.user_area_after;
    return j;
}

} // namespace mmc::tune
