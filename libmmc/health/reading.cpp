#include "health/reading.h"

namespace mmc::health {

std::string_view to_string(PreEol p)
{
    switch (p) {
    case PreEol::normal: return "normal";
    case PreEol::warning: return "warning";
    case PreEol::urgent: return "urgent";
    }
    return "?";
}

void Wear::set_life_remaining(double remaining_percent)
{
    life_used_percent = remaining_percent >= 100 ? 0.0 : 100.0 - remaining_percent;
    life_exhausted = remaining_percent <= 0;
}

void Reading::add(std::string key, regs::Value value, std::string label, std::string text)
{
    if (text.empty()) text = regs::value_text(value);
    fields.push_back({std::move(key), std::move(value), std::move(label), std::move(text)});
}

} // namespace mmc::health
