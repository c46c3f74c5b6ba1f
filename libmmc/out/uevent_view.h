// The two line formats of mmc-watch: text for people (local time, action,
// subsystem, devpath, the MMC keys) and one JSON object per line.
#pragma once

#include "dev/uevent.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace mmc::out {

std::string uevent_text_line(const dev::Uevent& e, std::chrono::system_clock::time_point when);
nlohmann::ordered_json uevent_json(const dev::Uevent& e, std::chrono::system_clock::time_point when);
// uevent_json on one line, invalid UTF-8 replaced by U+FFFD.
std::string uevent_json_line(const dev::Uevent& e, std::chrono::system_clock::time_point when);

} // namespace mmc::out
