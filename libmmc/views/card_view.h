// Views of a whole card's registers: the document mmc-info prints.
#pragma once

#include "views/register_text.h"
#include "regs/card_registers.h"

#include <nlohmann/json.hpp>
#include <string>

namespace mmc::out {

struct SummaryLine {
    std::string key;   // JSON key: "card", "capacity", "classes", ...
    std::string label; // "Card"
    std::string text;
};

// "What card, how big, which classes", from whichever registers are present.
std::vector<SummaryLine> card_summary(const regs::CardRegisters& card);

std::string card_text(const regs::CardRegisters& card, const TextStyle& style);

// {"registers":{kind: register_json...},"summary":{...},"warnings":[...]};
// the tool adds "tool" and "version" in front.
nlohmann::ordered_json card_json(const regs::CardRegisters& card);

} // namespace mmc::out
