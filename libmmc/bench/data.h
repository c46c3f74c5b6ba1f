// Data the benchmark writes: incompressible (a fast PRNG's output) and fresh
// for every run (seeded from the kernel's entropy and the clock). Before each
// write, every 512-byte sector of the buffer gets a new 16-byte stamp, so no
// two sectors written in a run are alike and a controller that compresses or
// deduplicates gains nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace mmc::bench {

// xoshiro256** seeded by splitmix64: fast, good enough to defeat compression.
class Prng {
public:
    explicit Prng(uint64_t seed);
    uint64_t next()
    {
        const uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    // Uniform in [0, n) (n > 0), by multiply-shift.
    uint64_t below(uint64_t n) { return mul_high(next(), n); }

    // The high 64 bits of a 64 x 64-bit product (no 128-bit type on 32-bit ARM).
    static uint64_t mul_high(uint64_t a, uint64_t b)
    {
#ifdef __SIZEOF_INT128__
        __extension__ using u128 = unsigned __int128;
        return static_cast<uint64_t>((static_cast<u128>(a) * b) >> 64);
#else
        return mul_high_portable(a, b);
#endif
    }
    static uint64_t mul_high_portable(uint64_t a, uint64_t b)
    {
        const uint64_t a_lo = a & 0xffffffffu, a_hi = a >> 32, b_lo = b & 0xffffffffu, b_hi = b >> 32;
        const uint64_t lo_lo = a_lo * b_lo, lo_hi = a_lo * b_hi, hi_lo = a_hi * b_lo, hi_hi = a_hi * b_hi;
        const uint64_t mid = (lo_lo >> 32) + (lo_hi & 0xffffffffu) + (hi_lo & 0xffffffffu);
        return hi_hi + (lo_hi >> 32) + (hi_lo >> 32) + (mid >> 32);
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t s_[4];
};

// A seed nobody has used before: getrandom() mixed with the clock.
uint64_t fresh_seed();

void fill_random(std::span<std::byte> buffer, Prng& prng);

// Overwrites the first 16 bytes of every 512-byte sector with a stamp unique
// to this write (a sequence number and PRNG output).
void stamp_sectors(std::span<std::byte> buffer, uint64_t sequence, Prng& prng);

} // namespace mmc::bench
