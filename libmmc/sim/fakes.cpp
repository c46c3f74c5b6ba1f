#include "sim/fakes.h"

#include <algorithm>
#include <cstring>

namespace mmc::sim {

namespace {
constexpr uint64_t sector = 512;
}

FakeMap::FakeMap(const Params& p)
    : fake_(p.fake), real_(real_size(p)), module_(0), strict_(p.strict_cache), slots_(0)
{
    if (fake_ == Fake::wraparound || fake_ == Fake::chain) module_ = wrap_module(p);
    if (fake_ == Fake::limbo || fake_ == Fake::chain || fake_ == Fake::bad) slots_ = p.cache_bytes / sector;
}

std::optional<uint64_t> FakeMap::physical(uint64_t logical) const
{
    const uint64_t at = module_ ? logical % module_ : logical;
    if (fake_ == Fake::bad || at >= real_) return std::nullopt;
    return at;
}

void FakeMap::limbo_write(uint64_t logical, std::span<const uint8_t> data)
{
    if (!slots_) return; // dropped
    if (cache_.empty()) {
        cache_.assign(slots_ * sector, 0);
        if (strict_) tags_.assign(slots_, 0);
    }
    for (std::size_t i = 0; i < data.size();) {
        const uint64_t at = logical + i;
        const uint64_t slot = (at / sector) % slots_;
        const std::size_t n = std::min<std::size_t>(sector - at % sector, data.size() - i);
        std::memcpy(&cache_[slot * sector + at % sector], data.data() + i, n);
        if (strict_) tags_[slot] = at / sector + 1;
        i += n;
    }
}

void FakeMap::limbo_read(uint64_t logical, std::span<uint8_t> out) const
{
    for (std::size_t i = 0; i < out.size();) {
        const uint64_t at = logical + i;
        const std::size_t n = std::min<std::size_t>(sector - at % sector, out.size() - i);
        const uint64_t slot = slots_ ? (at / sector) % slots_ : 0;
        const bool hit = !cache_.empty() && (!strict_ || tags_[slot] == at / sector + 1);
        if (hit) std::memcpy(out.data() + i, &cache_[slot * sector + at % sector], n);
        else std::memset(out.data() + i, 0, n);
        i += n;
    }
}

} // namespace mmc::sim
