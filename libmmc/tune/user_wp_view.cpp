#include "tune/user_wp_view.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::tune {

namespace {

std::string run_type(const WpRun& r) { return r.type ? std::string(regs::to_string(*r.type)) : "protected (kind not reported)"; }

} // namespace

std::string user_wp_text(const std::optional<UserWpListing>& l, const std::string& error)
{
    if (!l) return fmt::format("user area write protection: not read: {}\n", error);
    std::string out = fmt::format("user area write protection (group {}, {}):\n", cli::format_bytes_exact(l->group.bytes),
                                  l->group.source);
    if (l->protected_runs.empty()) out += "  no group is protected\n";
    for (const auto& r : l->protected_runs)
        out += fmt::format("  {} at {}, {} group{} from {}: {}\n", cli::format_bytes_exact(r.bytes), cli::format_bytes_exact(r.offset),
                           r.groups, r.groups == 1 ? "" : "s", r.first_group, run_type(r));
    if (!l->types_known) out += fmt::format("  (the kinds are not known: CMD31 SEND_WRITE_PROT_TYPE: {})\n", l->types_unknown_reason);
    return out;
}

nlohmann::ordered_json user_wp_json(const std::optional<UserWpListing>& l, const std::string& error)
{
    nlohmann::ordered_json j;
    if (!l) {
        j["error"] = error;
        return j;
    }
    j["group_bytes"] = l->group.bytes;
    j["group_source"] = l->group.source;
    j["groups"] = l->groups.size();
    j["types_known"] = l->types_known;
    if (!l->types_known) j["types_unknown_reason"] = l->types_unknown_reason;
    j["protected"] = nlohmann::ordered_json::array();
    for (const auto& r : l->protected_runs)
        j["protected"].push_back({{"offset", r.offset},
                                  {"bytes", r.bytes},
                                  {"first_group", r.first_group},
                                  {"groups", r.groups},
                                  {"type", r.type ? nlohmann::ordered_json(regs::to_string(*r.type)) : nlohmann::ordered_json()}});
    return j;
}

std::string user_wp_plan_text(const UserWpPlan& p, const RangeNames& ranges, const SettingNames& names)
{
    std::string out;
    if (!p.steps.empty()) {
        out += fmt::format("User area write protection (group {}):\n", p.group ? cli::format_bytes_exact(p.group->bytes) : "?");
        for (const auto& s : p.steps) {
            const auto& r = p.ranges[s.range];
            out += fmt::format("  {}: {} group{} {} ({} with USER_WP 0x{:02x}, then back to 0x{:02x}){}\n", ranges(s.range),
                               s.groups.size(), s.groups.size() == 1 ? "" : "s",
                               s.set ? fmt::format("protected {}", to_string(r.kind)) : std::string("cleared of temporary protection"),
                               s.set ? "CMD28 SET_WRITE_PROT" : "CMD29 CLR_WRITE_PROT", s.user_wp_during, p.user_wp,
                               s.already ? fmt::format("; {} already so", s.already) : "");
            if (r.kind == UserWpKind::permanent) out += "    this can never be undone: the groups stay read-only for good\n";
            if (r.kind == UserWpKind::power_on) out += "    until the next power cycle; nothing clears it before\n";
        }
    }
    for (const auto& n : p.notes) out += fmt::format("Note: {}\n", named(n, names));
    for (const auto& r : p.refusals)
        out += fmt::format("Refused: {}{}\n", r.range ? ranges(*r.range) + ": " : "", named(r.reason, names));
    return out;
}

nlohmann::ordered_json user_wp_plan_json(const UserWpPlan& p, const RangeNames& ranges, const SettingNames& names)
{
    nlohmann::ordered_json j;
    j["group_bytes"] = p.group ? nlohmann::ordered_json(p.group->bytes) : nlohmann::ordered_json();
    j["user_wp"] = p.user_wp;
    j["steps"] = nlohmann::ordered_json::array();
    for (const auto& s : p.steps) {
        const auto& r = p.ranges[s.range];
        j["steps"].push_back({{"option", ranges(s.range)},
                              {"kind", to_string(r.kind)},
                              {"offset", r.offset},
                              {"bytes", r.size},
                              {"command", s.set ? 28 : 29},
                              {"user_wp_during", s.user_wp_during},
                              {"groups", s.groups},
                              {"already", s.already}});
    }
    j["refusals"] = nlohmann::ordered_json::array();
    for (const auto& r : p.refusals)
        j["refusals"].push_back({{"option", r.range ? ranges(*r.range) : ""}, {"reason", named(r.reason, names)}});
    j["notes"] = nlohmann::ordered_json::array();
    for (const auto& n : p.notes) j["notes"].push_back(named(n, names));
    j["one_time"] = p.one_time;
    j["power_cycle"] = p.power_cycle;
    return j;
}

std::string boot_image_plan_text(const BootImagePlan& p, const AreaNames& areas)
{
    std::string out;
    if (!p.jobs.empty()) {
        out += "Boot images (force_ro cleared for the write and put back, then read back and compared):\n";
        for (const auto& job : p.jobs)
            out += fmt::format("  {}: {} into boot partition {} ({} of {})\n", areas(job.area), job.file, job.area,
                               cli::format_bytes_exact(job.bytes), cli::format_bytes_exact(job.partition_bytes));
    }
    for (const auto& n : p.notes) out += fmt::format("Note: {}\n", n);
    for (const auto& r : p.refusals) out += fmt::format("Refused: {}: {}\n", areas(r.area), r.reason);
    return out;
}

nlohmann::ordered_json boot_image_plan_json(const BootImagePlan& p, const AreaNames& areas)
{
    nlohmann::ordered_json j;
    j["jobs"] = nlohmann::ordered_json::array();
    for (const auto& job : p.jobs)
        j["jobs"].push_back({{"option", areas(job.area)},
                             {"area", job.area},
                             {"file", job.file},
                             {"bytes", job.bytes},
                             {"partition_bytes", job.partition_bytes}});
    j["refusals"] = nlohmann::ordered_json::array();
    for (const auto& r : p.refusals) j["refusals"].push_back({{"option", areas(r.area)}, {"area", r.area}, {"reason", r.reason}});
    j["notes"] = p.notes;
    return j;
}

} // namespace mmc::tune
