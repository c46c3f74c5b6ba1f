// mmc-format --check's views: the text a person reads and the JSON of
// mmc-format(1).
#pragma once
#include "format/check.h"
#include "format/make_plan.h"
#include <nlohmann/json.hpp>
#include <string>

namespace mmc::format {

std::string check_text(const std::string& device, const CheckResult& r);
nlohmann::ordered_json check_json(const std::string& device, const CheckResult& r);
nlohmann::ordered_json layout_json(const SdLayout& l);
// What mmc-format plans to write: the SD layout's figures, or for a Linux
// layout its file system, partition and how it meets the unit (the SD
// layout's FAT figures mean nothing there).
nlohmann::ordered_json plan_json(const MakePlan& p);

} // namespace mmc::format
