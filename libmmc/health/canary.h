// The write canary's word on a card's verdict (probe/canary.h runs it).
#pragma once

#include "health/assess.h"
#include "health/canary_result.h"

namespace mmc::health {

// read_only makes the card read_only, any other failure end_of_life (a
// card that loses what it acknowledges is done), unless the registers
// already say worse. The report keeps the canary.
void apply_canary(HealthReport& report, const CanaryResult& canary);

} // namespace mmc::health
