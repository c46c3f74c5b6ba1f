// mmc-health --nagios (and check_mmc_health): the Monitoring Plugins' answer
// (monitoring-plugins.org, "Plugin Output" and "Plugin Return Codes"): one
// status line "MMC_HEALTH STATE - what | performance data" and the state as
// the exit status. The verdict decides the state (healthy OK, worn WARNING,
// end_of_life and read_only CRITICAL, unknown UNKNOWN); -w/-c ranges on the
// life used can only raise it. Pure: reports in, a line and a state out.
#pragma once

#include "health/assess.h"
#include "health/nagios_range.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::health {

// The values are the exit statuses the guidelines fix.
enum class NagiosState { ok = 0, warning = 1, critical = 2, unknown = 3 };
std::string_view to_string(NagiosState s); // "OK", "WARNING", "CRITICAL", "UNKNOWN"

NagiosState nagios_state_of(Verdict v);

// Worst first: CRITICAL, WARNING, UNKNOWN, OK (a card with a problem is
// said before one that could not be judged).
int nagios_severity(NagiosState s);

struct NagiosThresholds {
    std::optional<NagiosRange> warning, critical; // on the life used, percent
};

struct NagiosCard {
    std::string name; // the disk (mmcblk0) where known, else the card's name
    const HealthReport* report = nullptr;
};

struct NagiosAnswer {
    NagiosState state = NagiosState::unknown;
    std::string line; // one line, no newline
};

// The largest life used any reading of the card gives, or none.
std::optional<double> life_used_of(const HealthReport& report);

NagiosAnswer nagios_check(const std::vector<NagiosCard>& cards, const NagiosThresholds& thresholds);

// A check that could not run is UNKNOWN, with why.
NagiosAnswer nagios_unknown(std::string_view why);

} // namespace mmc::health
