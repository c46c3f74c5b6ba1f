// Views of mmc-health: text (the verdict on each card's first line), JSON
// (the contract in man/mmc-health.1); the metrics are in health_metrics.h.
// Words live here, decisions in health/.
#pragma once

#include "health/assess.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::out {

struct CardHealth {
    std::string name;   // "mmc0:aaaa"; "input" for --decode
    std::string device; // "/dev/mmcblk0"; empty offline
    std::optional<nlohmann::ordered_json> identity; // dev::identity_json() of a live card
    health::HealthReport report;
};

std::string health_text(const CardHealth& card, bool color);
nlohmann::ordered_json health_json(const CardHealth& card);
nlohmann::ordered_json wear_json(const health::Reading& reading);
// mmc-health --canary's result: the card's "canary" in -J.
nlohmann::ordered_json canary_json(const health::CanaryResult& canary);

} // namespace mmc::out
