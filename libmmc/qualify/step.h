// A pipeline step: one row of the step table (steps.h), what it needs to be
// run, and what it gives back. A step runs in this process (a libmmc call)
// or as a sibling tool's child process (child_step.h); either way it ends
// with the exit status that tool would have had, so the bundle records real
// statuses, not "ok" or "fail" alone.
#pragma once

#include "dev/identify.h"
#include "qualify/settings.h"

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mmc::qualify {

using json = nlohmann::ordered_json;

// When a step belongs in the plan.
enum class Needs { always, destructive };

struct StepResult {
    int exit_status = 0;  // the tool's: 0 ok, 1 failure, 2 usage, 130 interrupted
    bool skipped = false; // an optional step whose tool is not installed
    // A non-zero exit status that is the tool's answer, not a failure:
    // mmc-probe capacity exits 10-13 for the fake it names. The step worked.
    bool status_is_answer = false;
    json doc;             // the step's -J document; null when it made none
    std::string message;  // why it failed or was skipped, one line
    std::string summary;  // a few lines for the person at the terminal
};

// What a running step can use: the settings, the stop flag Ctrl-C sets,
// a way to say something on stderr, one to show how far it is (the tool
// draws it on its progress line; `last` marks an update that must show),
// and what an earlier step learned.
struct StepContext {
    StepContext(const Settings& s, const std::atomic<bool>& stop_flag) : settings(s), stop(stop_flag) {}

    const Settings& settings;
    const std::atomic<bool>& stop;
    std::function<void(const std::string&)> note;
    std::function<void(const std::string& text, bool last)> progress;
    // The run's card, identified once by the first step that asks (info,
    // bus, erase read this one record); its identity object for the tool's
    // JSON, set by the info step.
    const dev::Identified& identify(const dev::Card& card)
    {
        if (!identified || identified->card.name != card.name)
            identified = dev::identify(card, settings.roots, {settings.use_ioctl});
        return *identified;
    }
    json card = nullptr;
    // Learned by the geometry step: mmc-probe geometry's document (null
    // when it did not run or failed); the state step takes its AU from it
    // when the registers give none.
    json geometry = nullptr;

private:
    std::optional<dev::Identified> identified;
};

// Where a step's -J document goes in the bundle: the part of the tool that
// made it. `document`: a tool the bundle format has no part for yet; its
// document is kept whole, under "documents".
enum class BundlePart { info, bus, erase, bench, probe, health, tune, document };

struct StepSpec {
    std::string name;  // "info", "bench-quick": the bundle's step name
    std::string tool;  // the program whose -J document it makes ("mmc-info"), as the plan names it
    BundlePart part = BundlePart::document;
    Needs needs = Needs::always;
    // What it will read, erase or write, for the plan (-n) and the
    // confirmation; it may look at the device but never changes it.
    std::function<std::string(const Settings&)> describe;
    std::function<StepResult(StepContext&)> run;
    // Why this step cannot run on this device (a card in a USB reader has
    // no registers to read), or "" when it can; null: it always can. The
    // plan shows the reason and the pipeline records the step as skipped
    // with it, without running it.
    std::function<std::string(const Settings&)> skip_when = nullptr;
};

} // namespace mmc::qualify
