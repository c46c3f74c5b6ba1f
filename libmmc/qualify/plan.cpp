#include "qualify/plan.h"

#include <fmt/format.h>

namespace mmc::qualify {

std::vector<bench::Suite> default_suites(bool destructive)
{
    using bench::Suite;
    if (destructive) return {Suite::quick, Suite::iozone, Suite::a1};
    return {Suite::quick};
}

Plan make_plan(const std::vector<StepSpec>& table, const Settings& settings)
{
    Plan plan;
    plan.device = settings.device;
    plan.destructive = settings.destructive;
    plan.changes_host = settings.tune && settings.tune_apply;
    for (const auto& spec : table) {
        if (spec.needs == Needs::destructive && !settings.destructive) {
            plan.left_out.push_back(spec.name);
            continue;
        }
        plan.steps.push_back({spec, spec.describe ? spec.describe(settings) : std::string(),
                              spec.skip_when ? spec.skip_when(settings) : std::string()});
    }
    return plan;
}

std::string plan_text(const Plan& plan)
{
    std::string text = fmt::format("Plan for {} ({}{}):\n", plan.device,
                                   plan.destructive ? "DESTRUCTIVE: erases and writes" : "read-only",
                                   plan.changes_host ? "; CHANGES the host's bus mode for the trials" : "");
    std::size_t width = 0;
    for (const auto& s : plan.steps) width = std::max(width, s.spec.name.size());
    for (std::size_t i = 0; i < plan.steps.size(); ++i)
        text += fmt::format(" {}. {:<{}}  {}\n", i + 1, plan.steps[i].spec.name, width,
                            plan.steps[i].skip.empty() ? plan.steps[i].what : "skipped: " + plan.steps[i].skip);
    if (!plan.left_out.empty()) {
        std::string names;
        for (const auto& n : plan.left_out) names += (names.empty() ? "" : ", ") + n;
        text += fmt::format(" Not without --destructive: {}.\n", names);
    }
    return text;
}

json plan_json(const Plan& plan)
{
    json j;
    j["device"] = plan.device;
    j["destructive"] = plan.destructive;
    j["changes_host"] = plan.changes_host;
    auto& steps = j["steps"] = json::array();
    for (const auto& s : plan.steps)
        steps.push_back({{"name", s.spec.name},
                         {"tool", s.spec.tool},
                         {"needs_destructive", s.spec.needs == Needs::destructive},
                         {"what", s.what},
                         {"skipped", s.skip.empty() ? json(nullptr) : json(s.skip)}});
    j["left_out"] = plan.left_out;
    return j;
}

} // namespace mmc::qualify
