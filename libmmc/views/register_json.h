// JSON view of decoded registers, per the contract in man/mmc-info.1:
// {"hex","source","card","fields":{name: raw},"decoded":{key: value},"warnings":[...]}.
#pragma once

#include "regs/register.h"

#include <nlohmann/json.hpp>
#include <string_view>

namespace mmc::out {

nlohmann::ordered_json value_json(const regs::Value& value);
nlohmann::ordered_json register_json(const regs::DecodedRegister& reg, std::string_view source);

} // namespace mmc::out
