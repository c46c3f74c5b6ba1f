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

// `bytes` at `bytes_per_s`, rounded to the nanosecond (0 at a rate of 0).
uint64_t rate_ns(double bytes_per_s, uint64_t bytes);

// The data's time on the bus.
uint64_t bus_ns(const Timing&, uint64_t bytes);

// The time a write's data takes to program (Params::Sustained): `cached`
// bytes into the SLC cache at slc_rate and `native` bytes into the native
// flash at native_rate. A card with neither an SLC cache nor a native rate
// programs `pages` pages at page_program each, as it always has (its
// timing does not move by a rounding).
uint64_t program_ns(const Params&, uint64_t cached, uint64_t native, uint64_t pages);

// Garbage-collection stalls: the FTL made `made_free` more blocks free
// (ftl.h); with `pending` carried from before, a stall is due for every
// gc_every of them. Returns how many (0 when gc_stall is 0) and keeps the
// remainder in `pending`.
uint64_t gc_stalls_due(const Sustained&, uint64_t& pending, uint64_t made_free);

// command + bus: what a write costs before the flash does anything.
uint64_t transfer_ns(const Timing&, uint64_t bytes);

// A read of [offset, offset + length): command + page_read per page touched
// + au_cross per AU boundary it crosses + bus. The flash state plays no
// part: reads of discarded pages cost the same (flashbench -a reads the
// ladder on any card).
uint64_t read_service_ns(const Params&, uint64_t offset, uint64_t length);

} // namespace mmc::sim
