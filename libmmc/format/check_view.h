// mmc-format --check's views: the text a person reads and the JSON of
// mmc-format(1).
#pragma once
#include "format/check.h"
#include <nlohmann/json.hpp>
#include <string>

namespace mmc::format {

std::string check_text(const std::string& device, const CheckResult& r);
nlohmann::ordered_json check_json(const std::string& device, const CheckResult& r);
nlohmann::ordered_json layout_json(const SdLayout& l);

} // namespace mmc::format
