#include "qualify/bundle.h"

#include "cli/file_out.h"
#include "cli/json_out.h"
#include "report/make_bundle.h"

#include <filesystem>
#include <fmt/format.h>

namespace mmc::qualify {

namespace fs = std::filesystem;

namespace {

// The bundle's words for a step: ok, and "exit N: why" when it failed.
report::Step bundle_step(const StepRecord& s)
{
    report::Step step{s.name, false, s.message};
    switch (s.state) {
    case StepState::ok: step.ok = true; break;
    case StepState::skipped:
        step.ok = true; // optional and absent: nothing failed
        step.message = "skipped: " + s.message;
        break;
    case StepState::failed: step.message = fmt::format("exit {}{}{}", s.exit_status.value_or(1), s.message.empty() ? "" : ": ", s.message); break;
    case StepState::not_started: break;
    }
    return step;
}

} // namespace

MadeBundle make_bundle(const Outcome& outcome, const BundleInputs& inputs)
{
    report::MakeInputs in;
    json others = json::object();
    for (const auto& s : outcome.steps) {
        in.steps.push_back(bundle_step(s));
        if (s.doc.is_null()) continue; // a step that made no document leaves its part out
        report::ToolDoc d{s.tool, "step " + s.name, s.doc, {}};
        if (s.tool == "mmc-info") in.info = d;
        else if (s.tool == "mmc-bus") in.bus = d;
        else if (s.tool == "mmc-erase") in.erase = d;
        else if (s.tool == "mmc-bench") in.bench.push_back(d); // partial results still count
        else others[s.name] = s.doc;
    }
    in.card_label = inputs.card_label;
    in.host_label = inputs.host_label;
    in.environment = inputs.environment;
    in.created = inputs.created;

    MadeBundle made;
    made.bundle = report::make_bundle(in);
    made.doc = report::to_json(made.bundle);
    auto& steps = made.doc["steps"];
    for (std::size_t i = 0; i < outcome.steps.size() && i < steps.size(); ++i) {
        const auto& rc = outcome.steps[i].exit_status;
        steps[i]["exit_status"] = rc ? json(*rc) : json(nullptr);
    }
    // Tools the bundle format has no part for yet keep their documents whole.
    if (!others.empty()) made.doc["documents"] = others;
    made.doc["interrupted"] = outcome.interrupted;
    made.doc["partial"] = !outcome.all_ok();
    return made;
}

std::string write_bundle(const std::string& dir_name, const MadeBundle& made)
{
    const fs::path dir(dir_name);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(fmt::format("{}: {}", dir_name, ec.message()));
    std::string name = report::bundle_file_name(made.bundle);
    const std::string stem = name.substr(0, name.size() - 5);
    for (int n = 2; fs::exists(dir / name); ++n) name = fmt::format("{}-{}.json", stem, n);
    const fs::path path = dir / name;
    const auto text = cli::dump_json(made.doc);
    cli::write_output_file(path, text.text + "\n");
    return path.string();
}

} // namespace mmc::qualify
