// The data of a simulated card, kept sparsely: only pages that were written
// are stored, so an announced 64 GB card costs what was written to it.
// Whether a page holds valid data is the flash translation layer's business
// (ftl.h); the store is told, and answers reads accordingly.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>

namespace mmc::sim {

class PageStore {
public:
    // initial_content: valid pages never written read as a deterministic
    // pattern of `seed` and their offset (a card filled before we met it);
    // otherwise they read as the erased byte.
    PageStore(uint32_t page_bytes, uint8_t erased_byte, uint64_t seed, bool initial_content);

    // Bytes [in_page, in_page + out.size()) of `page`, which must lie inside it.
    void read(uint64_t page, uint32_t in_page, std::span<uint8_t> out, bool valid) const;
    // A write into a page: the rest of the page keeps what it read before.
    void write(uint64_t page, uint32_t in_page, std::span<const uint8_t> data, bool was_valid);
    // The page was discarded or never held anything: forget its data.
    void drop(uint64_t page);

    uint64_t pages_stored() const { return pages_.size(); }

    // The pattern an unwritten valid page holds: 8-byte words of a hash of
    // (seed, absolute byte offset / 8), little-endian.
    static void initial_pattern(uint64_t seed, uint64_t byte_offset, std::span<uint8_t> out);

private:
    void fill(uint64_t page, uint32_t in_page, std::span<uint8_t> out, bool valid) const;

    uint32_t page_bytes_;
    uint8_t erased_byte_;
    uint64_t seed_;
    bool initial_content_;
    std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
};

} // namespace mmc::sim
