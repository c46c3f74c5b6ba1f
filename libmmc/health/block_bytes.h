// Reading numbers and text out of a vendor health block at the offsets its
// layout documents. Every read is bounds-checked against the block, so a
// short block yields nothing rather than a read past its end.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace mmc::health {

class BlockBytes {
public:
    explicit BlockBytes(std::span<const uint8_t> bytes) : b_(bytes) {}

    std::size_t size() const { return b_.size(); }
    uint8_t u8(std::size_t at) const { return at < b_.size() ? b_[at] : 0; }
    // Big- and little-endian unsigned integers of `width` bytes (1-8).
    uint64_t be(std::size_t at, std::size_t width) const;
    uint64_t le(std::size_t at, std::size_t width) const;
    // Printable ASCII of [at, at+len), stopping at NUL, trailing spaces cut;
    // other bytes become '.', so the text is always valid UTF-8.
    std::string ascii(std::size_t at, std::size_t len) const;
    // Lower-case hex of [at, at+len).
    std::string hex(std::size_t at, std::size_t len) const;
    // Sum of the bytes of [at, at+len) (per-die counters).
    uint64_t sum(std::size_t at, std::size_t len) const;
    bool starts_with(std::string_view text) const;

private:
    std::span<const uint8_t> b_;
};

} // namespace mmc::health
