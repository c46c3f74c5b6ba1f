// The two line formats of mmc-watch: text for people (local time, action,
// subsystem, devpath, the MMC keys) and one JSON object per line.
#pragma once

#include "dev/uevent.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace mmc::out {

// When an event was received: local HH:MM:SS.mmm for people, UTC RFC 3339
// for machines (utc). Every line mmc-watch prints starts with it.
std::string uevent_timestamp(std::chrono::system_clock::time_point when, bool utc);

std::string uevent_text_line(const dev::Uevent& e, std::chrono::system_clock::time_point when);
nlohmann::ordered_json uevent_json(const dev::Uevent& e, std::chrono::system_clock::time_point when);
// uevent_json on one line, invalid UTF-8 replaced by U+FFFD.
std::string uevent_json_line(const dev::Uevent& e, std::chrono::system_clock::time_point when);

} // namespace mmc::out
