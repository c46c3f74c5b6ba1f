// A USB card reader's read cache. The bridge chip between the USB link and
// the card keeps the sectors it last moved (read or written) in its RAM and
// answers a re-read of them without asking the card: the data comes back at
// bus speed with no command, no page read, and from the bridge rather than
// the flash. That is why F3 resets the USB device between writing and
// verifying (f3probe's reset, F3 issues 14 and 79): a limbo fake's last
// writes read back intact from the bridge until they are pushed out of it.
//
// Modelled: a write-through cache of whole 512-byte sectors, least recently
// used dropped first; a read is answered only when every sector it asks for
// is held (a bridge forwards a partly cached read to the card whole); a
// discard drops the sectors it covers. Pure: no I/O, no clock.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <nlohmann/json.hpp>
#include <span>
#include <unordered_map>

namespace mmc::sim {

class BridgeCache {
public:
    static constexpr uint64_t sector_bytes = 512;

    explicit BridgeCache(uint64_t capacity_bytes); // a whole number of sectors, > 0

    // Fills `out` from the cache when it holds every sector of the read
    // (a sector-aligned one) and returns true; otherwise leaves `out` alone.
    bool answer(uint64_t offset, std::span<uint8_t> out);
    // Keeps what the card returned for a read or was given by a write; the
    // partial sectors at an unaligned edge are dropped, not kept half-new.
    void remember(uint64_t offset, std::span<const uint8_t> data);
    // A discard: the sectors touched are no longer what the card holds.
    void forget(uint64_t offset, uint64_t length);

    uint64_t capacity_bytes() const { return capacity_ * sector_bytes; }
    uint64_t held_bytes() const { return sectors_.size() * sector_bytes; }
    uint64_t hits() const { return hits_; }
    uint64_t hit_bytes() const { return hit_bytes_; }
    uint64_t misses() const { return misses_; }
    // {"capacity", "held", "hits", "hit_bytes", "misses"}: bytes and counts.
    nlohmann::json counters_json() const;

private:
    using Sector = std::array<uint8_t, sector_bytes>;
    struct Entry {
        std::list<uint64_t>::iterator age; // position in age_, newest at the front
        Sector data;
    };
    void drop(uint64_t sector);

    uint64_t capacity_; // in sectors
    std::unordered_map<uint64_t, Entry> sectors_;
    std::list<uint64_t> age_;
    uint64_t hits_ = 0, hit_bytes_ = 0, misses_ = 0;
};

} // namespace mmc::sim
