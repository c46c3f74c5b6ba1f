// Fake cards after F3's file device: what each returns where it has no storage.
#include "sim/card.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc::sim;

namespace {

constexpr uint64_t MiB = 1024 * 1024;

Params fake(Fake kind, uint64_t real, uint64_t module = 0, uint64_t cache = 0, bool strict = false)
{
    Params p = default_params();
    p.size_bytes = 256 * MiB;
    p.fake = kind;
    p.real_size_bytes = real;
    p.module_bytes = module;
    p.cache_bytes = cache;
    p.strict_cache = strict;
    p.erased_byte = 0xff; // so zeros from limbo are told apart from erased storage
    return p;
}

std::vector<uint8_t> stamp(uint8_t v, std::size_t n = 4096) { return std::vector<uint8_t>(n, v); }

std::vector<uint8_t> read(Card& c, uint64_t offset, std::size_t n = 4096)
{
    std::vector<uint8_t> out(n, 0x77);
    c.read(offset, out, c.idle_at());
    return out;
}

void write(Card& c, uint64_t offset, const std::vector<uint8_t>& data) { c.write(offset, data, c.idle_at()); }

} // namespace

TEST(SimFakes, WraparoundReadsAtRealSizeWhatWasWrittenAtZero)
{
    Card c(fake(Fake::wraparound, 64 * MiB));
    write(c, 0, stamp(0xa1));
    EXPECT_EQ(read(c, 64 * MiB), stamp(0xa1));
    EXPECT_EQ(read(c, 192 * MiB), stamp(0xa1));
    write(c, 128 * MiB + 8192, stamp(0xb2)); // and the other way round
    EXPECT_EQ(read(c, 8192), stamp(0xb2));
    EXPECT_EQ(c.counters().limbo_bytes_written, 0u);
}

TEST(SimFakes, WraparoundAtASmallerModule)
{
    Card c(fake(Fake::wraparound, 64 * MiB, 32 * MiB));
    write(c, 4096, stamp(0xc3));
    EXPECT_EQ(read(c, 32 * MiB + 4096), stamp(0xc3));
}

TEST(SimFakes, LimboDropsWritesBeyondRealSizeAndReadsZeros)
{
    Card c(fake(Fake::limbo, 64 * MiB));
    write(c, 64 * MiB - 4096, stamp(0xd4, 8192)); // straddles the real size
    const auto back = read(c, 64 * MiB - 4096, 8192);
    EXPECT_EQ(std::vector<uint8_t>(back.begin(), back.begin() + 4096), stamp(0xd4));
    EXPECT_EQ(std::vector<uint8_t>(back.begin() + 4096, back.end()), stamp(0x00));
    EXPECT_EQ(read(c, 200 * MiB), stamp(0x00));
    EXPECT_EQ(read(c, 0), stamp(0xff)); // real storage, discarded: the erased byte
    EXPECT_EQ(c.counters().limbo_bytes_written, 4096u);
    EXPECT_EQ(c.counters().pages_stored, 1u);
}

TEST(SimFakes, NonStrictLimboCacheReturnsWhateverLastLandedInTheSlot)
{
    const uint64_t cache = 64 * 1024; // 128 sector slots
    Card c(fake(Fake::limbo, 64 * MiB, 0, cache));
    write(c, 100 * MiB, stamp(0xe5));
    EXPECT_EQ(read(c, 100 * MiB), stamp(0xe5));           // the cache hands it back
    EXPECT_EQ(read(c, 100 * MiB + cache), stamp(0xe5));   // and to any sector of the same slots
    write(c, 100 * MiB + cache, stamp(0xf6));             // a later block takes the slots
    EXPECT_EQ(read(c, 100 * MiB), stamp(0xf6));           // stale data for the first
}

TEST(SimFakes, StrictLimboCacheReturnsDataOnlyToTheSectorThatWroteIt)
{
    const uint64_t cache = 64 * 1024;
    Card c(fake(Fake::limbo, 64 * MiB, 0, cache, true));
    write(c, 100 * MiB, stamp(0xe5));
    EXPECT_EQ(read(c, 100 * MiB), stamp(0xe5));
    EXPECT_EQ(read(c, 100 * MiB + cache), stamp(0x00)); // same slots, another sector
    write(c, 100 * MiB + cache, stamp(0xf6));
    EXPECT_EQ(read(c, 100 * MiB), stamp(0x00)); // evicted
    EXPECT_EQ(read(c, 100 * MiB + cache), stamp(0xf6));
}

TEST(SimFakes, ChainWrapsAtItsModuleAndIsLimboBetweenRealSizeAndModule)
{
    Card c(fake(Fake::chain, 64 * MiB, 128 * MiB));
    write(c, 4096, stamp(0x1a));
    EXPECT_EQ(read(c, 128 * MiB + 4096), stamp(0x1a)); // wrapped
    write(c, 80 * MiB, stamp(0x2b));                   // beyond real, below module: limbo
    EXPECT_EQ(read(c, 80 * MiB), stamp(0x00));
    EXPECT_EQ(read(c, 208 * MiB), stamp(0x00));        // 208 mod 128 = 80: limbo again
    EXPECT_GT(c.counters().limbo_bytes_written, 0u);
}

TEST(SimFakes, BadStoresNothing)
{
    Params p = fake(Fake::bad, 0);
    Card c(p);
    write(c, 0, stamp(0x3c));
    write(c, 100 * MiB, stamp(0x3c));
    EXPECT_EQ(read(c, 0), stamp(0x00));
    EXPECT_EQ(read(c, 100 * MiB), stamp(0x00));
    EXPECT_EQ(c.counters().pages_stored, 0u);
    EXPECT_EQ(c.counters().aus.total, 0u);
}

TEST(SimFakes, LimboWritesCostOnlyTheTransfer)
{
    Card c(fake(Fake::limbo, 64 * MiB));
    const Timing& t = c.params().timing;
    EXPECT_EQ(c.predict_write(100 * MiB, 4096), t.command_ns + static_cast<uint64_t>(4096 * 1e9 / t.bus_bytes_per_s + 0.5));
    EXPECT_GT(c.predict_write(0, 4096), c.predict_write(100 * MiB, 4096));
}

TEST(SimFakes, RequestsBeyondTheAnnouncedSizeAreRefused)
{
    Card c(fake(Fake::limbo, 64 * MiB));
    std::vector<uint8_t> out(4096);
    EXPECT_THROW(c.read(256 * MiB - 2048, out, 0), std::out_of_range);
    EXPECT_THROW(c.discard(256 * MiB, 1, 0), std::out_of_range);
    EXPECT_NO_THROW(c.read(256 * MiB - 4096, out, 0));
}
