// mmc-tune emmc's two views of its answers: text for a person, JSON (the
// plan's "changes", each with field, index, old, new, reversible and
// consequence) for a program. Pure: strings and documents out.
#pragma once

#include "tune/catalogue.h"
#include "tune/plan.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mmc::tune {

// `names`: the front end's name of each setting (its option), for the
// rows, the changes, the refusals and the mentions in the words.
std::string configuration_text(const std::vector<ConfigRow>& rows, const SettingNames& names);
nlohmann::ordered_json configuration_json(const std::vector<ConfigRow>& rows, const SettingNames& names);

std::string plan_text(const Plan& plan, const SettingNames& names);
nlohmann::ordered_json plan_json(const Plan& plan, const SettingNames& names);

} // namespace mmc::tune
