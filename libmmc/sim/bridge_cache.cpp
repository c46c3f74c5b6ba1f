#include "sim/bridge_cache.h"

#include <algorithm>
#include <stdexcept>

namespace mmc::sim {

BridgeCache::BridgeCache(uint64_t capacity_bytes) : capacity_(capacity_bytes / sector_bytes)
{
    if (capacity_bytes == 0 || capacity_bytes % sector_bytes)
        throw std::invalid_argument("bridge cache: not a whole number of sectors");
}

bool BridgeCache::answer(uint64_t offset, std::span<uint8_t> out)
{
    const bool aligned = offset % sector_bytes == 0 && out.size() % sector_bytes == 0 && !out.empty();
    const uint64_t first = offset / sector_bytes, count = out.size() / sector_bytes;
    bool held = aligned;
    for (uint64_t s = first; held && s < first + count; ++s) held = sectors_.contains(s);
    if (!held) {
        ++misses_;
        return false;
    }
    for (uint64_t s = first; s < first + count; ++s) {
        Entry& e = sectors_.at(s);
        std::copy(e.data.begin(), e.data.end(), out.begin() + (s - first) * sector_bytes);
        age_.splice(age_.begin(), age_, e.age); // used again: the newest
    }
    ++hits_;
    hit_bytes_ += out.size();
    return true;
}

void BridgeCache::remember(uint64_t offset, std::span<const uint8_t> data)
{
    const uint64_t end = offset + data.size();
    const uint64_t first_whole = (offset + sector_bytes - 1) / sector_bytes, end_whole = end / sector_bytes;
    // Partial sectors at the edges: what the bridge held there is stale now.
    if (offset % sector_bytes) drop(offset / sector_bytes);
    if (end % sector_bytes && end / sector_bytes >= first_whole) drop(end / sector_bytes);
    // A range larger than the cache leaves only its tail, as a bridge would.
    const uint64_t from = std::max(first_whole, end_whole > capacity_ ? end_whole - capacity_ : 0);
    for (uint64_t s = first_whole; s < from; ++s) drop(s);
    for (uint64_t s = from; s < end_whole; ++s) {
        auto src = data.subspan(s * sector_bytes - offset, sector_bytes);
        auto it = sectors_.find(s);
        if (it == sectors_.end()) {
            if (sectors_.size() == capacity_) drop(age_.back());
            age_.push_front(s);
            it = sectors_.emplace(s, Entry{age_.begin(), {}}).first;
        } else {
            age_.splice(age_.begin(), age_, it->second.age);
        }
        std::copy(src.begin(), src.end(), it->second.data.begin());
    }
}

void BridgeCache::forget(uint64_t offset, uint64_t length)
{
    if (length == 0) return;
    const uint64_t first = offset / sector_bytes, last = (offset + length - 1) / sector_bytes;
    if (last - first + 1 > sectors_.size()) { // a large discard: walk what is held, not the range
        for (auto it = sectors_.begin(); it != sectors_.end();) {
            if (it->first >= first && it->first <= last) {
                age_.erase(it->second.age);
                it = sectors_.erase(it);
            } else {
                ++it;
            }
        }
        return;
    }
    for (uint64_t s = first; s <= last; ++s) drop(s);
}

void BridgeCache::drop(uint64_t sector)
{
    auto it = sectors_.find(sector);
    if (it == sectors_.end()) return;
    age_.erase(it->second.age);
    sectors_.erase(it);
}

nlohmann::json BridgeCache::counters_json() const
{
    return {{"capacity", capacity_bytes()}, {"held", held_bytes()}, {"hits", hits_}, {"hit_bytes", hit_bytes_},
            {"misses", misses_}};
}

} // namespace mmc::sim
