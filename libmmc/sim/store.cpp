#include "sim/store.h"

#include <algorithm>
#include <cstring>

namespace mmc::sim {

namespace {

// splitmix64's finaliser: a cheap, well-mixed, reproducible word per offset.
uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

} // namespace

PageStore::PageStore(uint32_t page_bytes, uint8_t erased_byte, uint64_t seed, bool initial_content)
    : page_bytes_(page_bytes), erased_byte_(erased_byte), seed_(seed), initial_content_(initial_content)
{
}

void PageStore::initial_pattern(uint64_t seed, uint64_t byte_offset, std::span<uint8_t> out)
{
    const uint64_t key = mix(seed);
    for (std::size_t i = 0; i < out.size();) {
        const uint64_t at = byte_offset + i;
        const uint64_t word = mix(key ^ (at / 8));
        const unsigned first = static_cast<unsigned>(at % 8);
        const std::size_t n = std::min<std::size_t>(8 - first, out.size() - i);
        for (std::size_t k = 0; k < n; ++k) out[i + k] = static_cast<uint8_t>(word >> (8 * (first + k)));
        i += n;
    }
}

void PageStore::fill(uint64_t page, uint32_t in_page, std::span<uint8_t> out, bool valid) const
{
    if (valid && initial_content_) initial_pattern(seed_, page * page_bytes_ + in_page, out);
    else std::fill(out.begin(), out.end(), erased_byte_);
}

void PageStore::read(uint64_t page, uint32_t in_page, std::span<uint8_t> out, bool valid) const
{
    const auto it = valid ? pages_.find(page) : pages_.end();
    if (it != pages_.end()) std::memcpy(out.data(), it->second.get() + in_page, out.size());
    else fill(page, in_page, out, valid);
}

void PageStore::write(uint64_t page, uint32_t in_page, std::span<const uint8_t> data, bool was_valid)
{
    auto& slot = pages_[page];
    if (!slot) {
        slot = std::make_unique_for_overwrite<uint8_t[]>(page_bytes_);
        if (data.size() != page_bytes_) fill(page, 0, {slot.get(), page_bytes_}, was_valid);
    }
    std::memcpy(slot.get() + in_page, data.data(), data.size());
}

void PageStore::drop(uint64_t page) { pages_.erase(page); }

} // namespace mmc::sim
