// The request-level timing formulas of a simulated card, in one place for
// the card (card.h) and for the figures computed from parameters (figures.h).
#pragma once

#include "sim/params.h"

#include <cstdint>

namespace mmc::sim {

// The largest request a host hands a card: a 1 MiB read or write reaches
// it as two commands of 512 KiB. The block layer splits at 128 segments of
// a 4 KiB page (user buffers are not physically contiguous): sdhci hosts
// (SDHCI_MAX_SEGS 128, max_req_size 512 KiB) and the loop device in front
// of mmc-sim (max_segments 128) alike. The sequential figures (figures.h)
// are modelled at that size, so that they are what fio measures with
// --bs=1M; the SD lab's joined commands stop there (command_joiner.h).
inline constexpr uint64_t host_request_bytes = 512 * 1024;

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
