#include "qualify/bundle.h"

#include <fmt/format.h>

namespace mmc::qualify {

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
    json health;
    for (const auto& s : outcome.steps) {
        in.steps.push_back(bundle_step(s));
        if (s.doc.is_null()) continue; // a step that made no document leaves its part out
        report::ToolDoc d{s.tool, "step " + s.name, s.doc, {}};
        switch (s.part) {
        case BundlePart::info: in.info = d; break;
        case BundlePart::bus: in.bus = d; break;
        case BundlePart::erase: in.erase = d; break;
        case BundlePart::bench: in.bench.push_back(d); break; // partial results still count
        case BundlePart::probe: in.probe.push_back(d); break;
        case BundlePart::health: health = s.doc; break;
        case BundlePart::tune: in.tune.push_back(d); break;
        case BundlePart::document: others[s.name] = s.doc; break;
        }
    }
    in.card_label = inputs.card_label;
    in.host_label = inputs.host_label;
    in.environment = inputs.environment;
    in.created = inputs.created;

    MadeBundle made;
    made.bundle = report::make_bundle(in);
    made.bundle.health = health;
    if (const auto& a = inputs.attachment) {
        auto& b = made.bundle;
        b.attachment = attachment_text(*a, b.bus);
        b.reader = a->reader;
        b.card.sectors = a->sectors;
        b.card.partition_table_id = a->partition_table_id;
        // A card in a reader has no registers to give its size: the disk's.
        if (!b.card.capacity_bytes && a->sectors) {
            b.card.capacity_bytes = *a->sectors * 512;
            if (!b.card.label_given) b.card.label = report::default_card_label(b.card);
        }
    }
    report::read_tool_parts(made.bundle);
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

report::WrittenBundle write_bundle(const std::string& dir, const MadeBundle& made)
{
    return report::write_bundle_file(dir, made.bundle, made.doc);
}

} // namespace mmc::qualify
