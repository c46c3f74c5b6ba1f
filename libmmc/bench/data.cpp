#include "bench/data.h"

#include <cstring>
#include <ctime>
#include <sys/random.h>

namespace mmc::bench {

Prng::Prng(uint64_t seed)
{
    for (auto& s : s_) { // splitmix64
        seed += 0x9e3779b97f4a7c15ull;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        s = z ^ (z >> 31);
    }
}

uint64_t fresh_seed()
{
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != sizeof seed) seed = 0;
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    return seed ^ (static_cast<uint64_t>(ts.tv_sec) << 30) ^ static_cast<uint64_t>(ts.tv_nsec);
}

void fill_random(std::span<std::byte> buffer, Prng& prng)
{
    std::size_t i = 0;
    for (; i + 8 <= buffer.size(); i += 8) {
        const uint64_t v = prng.next();
        std::memcpy(buffer.data() + i, &v, 8);
    }
    if (i < buffer.size()) {
        const uint64_t v = prng.next();
        std::memcpy(buffer.data() + i, &v, buffer.size() - i);
    }
}

void stamp_sectors(std::span<std::byte> buffer, uint64_t sequence, Prng& prng)
{
    // splitmix64's finaliser is a bijection: distinct (write, sector) pairs
    // give distinct stamps that look as random as the rest of the data.
    uint64_t sector = sequence << 16;
    for (std::size_t at = 0; at + 16 <= buffer.size(); at += 512) {
        uint64_t z = ++sector * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        const uint64_t stamp[2] = {z, prng.next()};
        std::memcpy(buffer.data() + at, stamp, 16);
    }
}

} // namespace mmc::bench
