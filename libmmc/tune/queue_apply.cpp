#include "tune/queue_apply.h"

#include "cli/file_out.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "tune/queue_bench.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace mmc::tune {

namespace fs = std::filesystem;

namespace {

nlohmann::ordered_json setting_json(const QueueSetting& s)
{
    return {{"scheduler", s.scheduler}, {"read_ahead_kb", s.read_ahead_kb}};
}

QueueSetting setting_from(const nlohmann::json& j)
{
    return {j.at("scheduler").get<std::string>(), j.at("read_ahead_kb").get<uint64_t>()};
}

// The state file as mmc-tune wrote it, or why it is not.
struct State {
    QueueSetting start;
    fs::path rule;
};

State read_state(const fs::path& path, const QueueApplyPaths& paths, const std::string& disk)
{
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw std::runtime_error(fmt::format("nothing to undo: no state file {} (the --apply of this device writes it)", path.string()));
    const std::string text = cli::read_input(path.string(), cli::json_input_cap, "state file");
    try {
        const auto j = cli::parse_json_capped(text);
        State s{setting_from(j.at("start")), fs::path(j.at("rule").get<std::string>())};
        if (j.at("disk").get<std::string>() != disk)
            throw std::runtime_error(fmt::format("it is for {}, not {}", j.at("disk").get<std::string>(), disk));
        const std::string name = s.rule.filename().string();
        if (s.rule.parent_path() != (paths.rules_dir / "x").parent_path() || !name.starts_with("60-mmckit-queue-") || !name.ends_with(".rules"))
            throw std::runtime_error(fmt::format("its rule {} is not one mmc-tune writes in {}", s.rule.string(),
                                                 paths.rules_dir.string()));
        return s;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: not a state file mmc-tune wrote: {}", path.string(), e.what()));
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(fmt::format("{}: {}; nothing was changed", path.string(), e.what()));
    }
}

void set_and_record(const fs::path& syspath, const QueueSetting& from, const QueueSetting& to, std::vector<QueueChange>& out)
{
    put_queue_setting(syspath, to);
    if (from.scheduler != to.scheduler) out.push_back({"queue/scheduler", from.scheduler, to.scheduler});
    if (from.read_ahead_kb != to.read_ahead_kb)
        out.push_back({"queue/read_ahead_kb", std::to_string(from.read_ahead_kb), std::to_string(to.read_ahead_kb)});
}

} // namespace

fs::path queue_state_path(const QueueApplyPaths& paths, const std::string& disk)
{
    return paths.run_dir / fmt::format("tune-queue-{}.json", disk);
}

QueueApplied apply_queue(const QueueApplyPaths& paths, const std::string& device, const std::string& disk,
                         const fs::path& disk_syspath, const QueueSetting& now, const QueueSetting& chosen,
                         const std::string& rule_file_name, const std::string& rule_text)
{
    QueueApplied a;
    a.state_path = queue_state_path(paths, disk);
    a.rule_path = paths.rules_dir / rule_file_name;
    QueueSetting start = now;
    std::error_code ec;
    if (fs::exists(a.state_path, ec)) start = read_state(a.state_path, paths, disk).start;
    nlohmann::ordered_json state{{"tool", "mmc-tune"},          {"subcommand", "queue"},
                                 {"device", device},            {"disk", disk},
                                 {"start", setting_json(start)}, {"applied", setting_json(chosen)},
                                 {"rule", a.rule_path.string()}};
    fs::create_directories(paths.run_dir, ec);
    cli::write_output_file(a.state_path, cli::dump_json(state).text + "\n");
    fs::create_directories(paths.rules_dir, ec);
    const bool had_rule = fs::exists(a.rule_path, ec);
    cli::write_output_file(a.rule_path, rule_text);
    a.changes.push_back({"udev rule", had_rule ? a.rule_path.string() + " (earlier)" : "(none)", a.rule_path.string()});
    set_and_record(disk_syspath, now, chosen, a.changes);
    return a;
}

QueueApplied undo_queue(const QueueApplyPaths& paths, const std::string& disk, const fs::path& disk_syspath,
                        const QueueSetting& now)
{
    QueueApplied a;
    a.state_path = queue_state_path(paths, disk);
    const State s = read_state(a.state_path, paths, disk);
    a.rule_path = s.rule;
    std::error_code ec;
    if (fs::remove(s.rule, ec)) a.changes.push_back({"udev rule", s.rule.string(), "(removed)"});
    else if (ec)
        throw std::runtime_error(fmt::format("{}: cannot remove it: {}", s.rule.string(), ec.message()));
    set_and_record(disk_syspath, now, s.start, a.changes);
    fs::remove(a.state_path, ec);
    return a;
}

} // namespace mmc::tune
