// The request-level timing formulas of a simulated card, in one place for
// the card (card.h) and for the figures computed from parameters (figures.h).
#pragma once

#include "sim/params.h"

#include <cstdint>

namespace mmc::sim {

// The data's time on the bus.
uint64_t bus_ns(const Timing&, uint64_t bytes);

// command + bus: what a write costs before the flash does anything.
uint64_t transfer_ns(const Timing&, uint64_t bytes);

// A read of [offset, offset + length): command + page_read per page touched
// + au_cross per AU boundary it crosses + bus. The flash state plays no
// part: reads of discarded pages cost the same (flashbench -a reads the
// ladder on any card).
uint64_t read_service_ns(const Params&, uint64_t offset, uint64_t length);

} // namespace mmc::sim
