// Helpers built on the decoded SD status (SSR) that other parts of mmckit
// use, e.g. the erase tool's timeout.
#pragma once

#include "regs/register.h"

#include <cstdint>

namespace mmc::regs {

// Erase timeout in seconds for au_count allocation units, by the SD
// Physical Layer Specification 4.14 (Equation 6):
//   ERASE_TIMEOUT / ERASE_SIZE * au_count + ERASE_OFFSET.
// When the card does not support the calculation (ERASE_SIZE or
// ERASE_TIMEOUT is 0) it falls back to 250 ms per AU, the figure Linux
// uses (mmc_sd_erase_timeout, counted per erase unit, i.e. per AU).
// Throws std::invalid_argument unless ssr is a decoded SSR.
double sd_erase_timeout_seconds(const DecodedRegister& ssr, uint64_t au_count);

} // namespace mmc::regs
