// mmc-tune bus's two views: text for a person, JSON for a program (the
// contract in man/mmc-tune.1: plan, ruled_out, trials, chosen, restored,
// persistent).
// Pure: strings and documents out.
#pragma once

#include "tune/bus_persist.h"
#include "tune/bus_plan.h"
#include "tune/bus_trial.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::tune {

struct BusReport {
    std::string device;                       // "/dev/mmcblk0", "" for a pasted dump
    BusPlan plan;
    std::optional<TrialRun> run;              // --apply
    std::vector<PersistentForm> persistent;
    std::string persistent_for;               // "SDR104 (untested on this card: trial it with --apply first)"; "" when no form
    bool persistent_tested = false;           // the form is for a mode a trial found clean
    std::string persistent_none;              // why there is no form ("" when there is one)
    std::optional<std::string> persistent_not_written; // --emit wrote nothing: why
    std::vector<std::string> overlay_check;   // what dtc and fdtoverlay said of the overlay
};

std::string bus_report_text(const BusReport& report);
nlohmann::ordered_json bus_report_json(const BusReport& report);

} // namespace mmc::tune
