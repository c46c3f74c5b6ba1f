// QEMU's SD card model moves the data of a multi-block read or write
// (CMD18, CMD25) through its drive 512 bytes at a time, so the simulated
// card behind the SD lab's drive (scripts/sdlab --sim) receives one request
// per sector. Charged as such, every sector pays a command and a page read:
// a 1 MiB read costs 2048 commands where a real card, which serves a
// multi-block command as one, pays for two. CommandJoiner, in front of a
// Card, puts the commands back together (the nbdkit plugin's join=sectors):
// - Reads: a read that starts where the previous one ended continues its
//   command (Card::read_on): no command overhead, the page it ends in not
//   read again; a new command every host_request_bytes, as a host splits
//   its requests. A run of sectors costs what the host's reads of them cost.
// - Writes: contiguous writes are gathered, each answered once its data
//   has crossed the bus, and handed to the card as one write when the run
//   ends: at a request that does not continue it, at host_request_bytes,
//   at a flush, or at settle(). The card's time for the whole run lands on
//   the request that ends it.
// Anything else (a discard, a flush, a read after writes, a write after
// reads) ends the runs first, so the card always holds what was written.
// Pure and on virtual time like the Card.
#pragma once

#include "sim/card.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace mmc::sim {

class CommandJoiner {
public:
    explicit CommandJoiner(Card& card) : card_(card) {}

    // Each returns the virtual time the request is answered.
    uint64_t read(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns);
    uint64_t write(uint64_t offset, std::span<const uint8_t> data, uint64_t arrival_ns);
    uint64_t discard(uint64_t offset, uint64_t length, uint64_t arrival_ns);
    uint64_t flush(uint64_t arrival_ns);

    // Hands gathered writes to the card (before its counters are read, and
    // at the end); returns when the card is done with them (arrival_ns if
    // nothing was gathered).
    uint64_t settle(uint64_t arrival_ns);

private:
    Card& card_;
    // Where the last read ended, while no other request came after it.
    std::optional<uint64_t> read_end_;
    uint64_t read_command_start_ = 0; // where the current read command began
    // Gathered writes: [run_offset_, + run_.size()), the first arriving at
    // run_arrival_; bus_free_ is when the last one's data crossed the bus.
    std::vector<uint8_t> run_;
    uint64_t run_offset_ = 0, run_arrival_ = 0, bus_free_ = 0;
};

} // namespace mmc::sim
