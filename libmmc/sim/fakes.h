// Where a logical address of a fake card really goes, after F3's file device
// (src/libdevs.c) and the classification of its probe (dev_param_to_type):
// - limbo: storage up to real_size; beyond it writes are dropped, or land in
//   a small cache whose slot is the sector number modulo the cache size;
//   reads there return zeros, or the cache slot's bytes. A strict cache
//   returns them only to a read of the very sector that wrote them (F3's
//   cache_entries), a non-strict one to any sector mapping to the slot.
// - wraparound: the address is taken modulo `module` (at most real_size), so
//   offset module reads what was written at 0.
// - chain: the address is taken modulo a module between the real and the
//   announced size; what then lands beyond real_size is limbo.
// - bad: no storage at all, everything is limbo.
// A genuine card maps every address to itself.
#pragma once

#include "sim/params.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace mmc::sim {

class FakeMap {
public:
    explicit FakeMap(const Params&);

    // The physical byte offset of `logical`, or nothing when it is limbo.
    // Pages map to whole pages (real size and module are page multiples).
    std::optional<uint64_t> physical(uint64_t logical) const;

    // The limbo region: a write is dropped or cached; a read returns zeros
    // or cached bytes. Both work on any byte range inside the limbo.
    void limbo_write(uint64_t logical, std::span<const uint8_t> data);
    void limbo_read(uint64_t logical, std::span<uint8_t> out) const;

private:
    Fake fake_;
    uint64_t real_;
    uint64_t module_; // 0: no wrap
    bool strict_;
    uint64_t slots_;                  // 512-byte cache slots (0: no cache)
    std::vector<uint8_t> cache_;      // slots_ * 512 bytes, allocated on first use
    std::vector<uint64_t> tags_;      // strict: the sector each slot holds (+1; 0 = none)
};

} // namespace mmc::sim
