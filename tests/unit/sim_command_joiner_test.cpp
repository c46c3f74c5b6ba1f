// The SD lab's sector-at-a-time requests put back together into the
// commands they were (sim/command_joiner.h): counted by the card, timed on
// virtual time, and never at the cost of the data.
#include "sim/command_joiner.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc::sim;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB, sector = 512;

Params card_params()
{
    Params p = default_params();
    p.size_bytes = 64 * MiB;
    p.au_bytes = 4 * MiB;
    p.page_bytes = 16 * KiB;
    return p;
}

std::vector<uint8_t> pattern(uint64_t bytes, uint8_t seed)
{
    std::vector<uint8_t> v(bytes);
    for (uint64_t i = 0; i < bytes; ++i) v[i] = static_cast<uint8_t>(seed + i / sector + i % 251);
    return v;
}

// Reads [offset, + bytes) a sector at a time, each arriving when the last
// was answered; returns the data and sets `end` to the last answer.
std::vector<uint8_t> read_by_sector(CommandJoiner& j, uint64_t offset, uint64_t bytes, uint64_t& now)
{
    std::vector<uint8_t> out(bytes);
    for (uint64_t at = 0; at < bytes; at += sector) now = j.read(offset + at, {out.data() + at, sector}, now);
    return out;
}

void write_by_sector(CommandJoiner& j, uint64_t offset, const std::vector<uint8_t>& data, uint64_t& now)
{
    for (uint64_t at = 0; at < data.size(); at += sector) now = j.write(offset + at, {data.data() + at, sector}, now);
}

} // namespace

TEST(SimCommandJoiner, ASequentialReadBySectorCostsAFewCommandsNotOnePerSector)
{
    Card card(card_params());
    const auto data = pattern(MiB, 7);
    card.write(16 * MiB, data, 0);
    const uint64_t start = card.idle_at();
    const uint64_t reads_before = card.counters().reads.requests;

    CommandJoiner j(card);
    uint64_t now = start;
    EXPECT_EQ(read_by_sector(j, 16 * MiB, MiB, now), data);
    EXPECT_EQ(card.counters().reads.requests - reads_before, 2u) << "two host requests of 512 KiB, not 2048";
    const uint64_t joined_ns = now - start;
    EXPECT_EQ(joined_ns, card.predict_read(16 * MiB, 512 * KiB) + card.predict_read(16 * MiB + 512 * KiB, 512 * KiB))
        << "the modelled 1 MiB read, to the nanosecond";

    Card plain(card_params());
    plain.write(16 * MiB, data, 0);
    const uint64_t plain_start = plain.idle_at();
    uint64_t t = plain_start;
    std::vector<uint8_t> one(sector);
    for (uint64_t at = 0; at < MiB; at += sector) t = plain.read(16 * MiB + at, one, t);
    EXPECT_LT(joined_ns * 10, t - plain_start) << "unjoined, every sector pays a command and a page read";
}

TEST(SimCommandJoiner, TheHostsOwnPaceOverlapsTheCardsWork)
{
    const uint64_t modelled = [] {
        Card c(card_params());
        return c.predict_read(16 * MiB, 512 * KiB);
    }();
    for (const uint64_t host_ns : {uint64_t{5'000}, uint64_t{2'000'000}}) {
        Card card(card_params());
        CommandJoiner j(card);
        uint64_t now = 0;
        std::vector<uint8_t> one(sector);
        for (uint64_t at = 0; at < 512 * KiB; at += sector) now = j.read(16 * MiB + at, one, now + host_ns);
        if (host_ns == 5'000) { // faster than the card: the first arrival, then the card's time, not the sum
            EXPECT_EQ(now, host_ns + modelled);
        } else { // slower than the card: the host's pace (the card had the first sector ready late, once)
            EXPECT_GE(now, 1024 * host_ns);
            EXPECT_LT(now, 1024 * host_ns + modelled);
        }
        EXPECT_EQ(card.counters().reads.busy_ns, modelled) << "the card was busy for the modelled time either way";
    }
}

TEST(SimCommandJoiner, AReadAcrossAnAuBoundaryPaysTheCrossingOnce)
{
    Card card(card_params());
    CommandJoiner j(card);
    uint64_t now = 0;
    read_by_sector(j, 8 * MiB - 2 * KiB, 4 * KiB, now);
    EXPECT_EQ(now, card.predict_read(8 * MiB - 2 * KiB, 4 * KiB));
    EXPECT_EQ(card.counters().au_crossings, 1u);
    EXPECT_EQ(card.counters().pages_read, 2u);
}

TEST(SimCommandJoiner, ALone4KiBReadIsOneCommand)
{
    Card card(card_params());
    CommandJoiner j(card);
    uint64_t now = 0;
    read_by_sector(j, 40 * MiB + 8 * KiB, 4 * KiB, now);
    EXPECT_EQ(card.counters().reads.requests, 1u);
    EXPECT_EQ(card.counters().reads.bytes, 4 * KiB);
    EXPECT_EQ(now, card.predict_read(40 * MiB + 8 * KiB, 4 * KiB));
}

TEST(SimCommandJoiner, ASequentialWriteBySectorReachesTheCardAsHostRequests)
{
    Card card(card_params());
    CommandJoiner j(card);
    const auto data = pattern(MiB, 3);
    uint64_t now = 0;
    write_by_sector(j, 8 * MiB, data, now);
    EXPECT_EQ(card.counters().writes.requests, 2u) << "two of 512 KiB";
    EXPECT_EQ(card.counters().writes.bytes, MiB);
    EXPECT_GE(now, card.idle_at()) << "the last sector is answered when the card is done";
    std::vector<uint8_t> back(MiB);
    card.read(8 * MiB, back, now);
    EXPECT_EQ(back, data);
}

TEST(SimCommandJoiner, GatheredWritesAreOnTheCardBeforeAnyReadOrDiscard)
{
    Card card(card_params());
    CommandJoiner j(card);
    const auto data = pattern(8 * KiB, 9);
    uint64_t now = 0;
    write_by_sector(j, 20 * MiB, data, now);
    EXPECT_EQ(card.counters().writes.requests, 0u) << "still gathered: the run has not ended";
    EXPECT_EQ(read_by_sector(j, 20 * MiB, 8 * KiB, now), data);
    EXPECT_EQ(card.counters().writes.requests, 1u);

    write_by_sector(j, 24 * MiB, data, now);
    now = j.discard(24 * MiB, 4 * MiB, now);
    EXPECT_EQ(card.counters().writes.requests, 2u);
    EXPECT_EQ(card.counters().discards.requests, 1u);
}

TEST(SimCommandJoiner, AWriteBetweenReadsEndsTheReadCommand)
{
    Card card(card_params());
    CommandJoiner j(card);
    uint64_t now = 0;
    read_by_sector(j, 30 * MiB, 8 * KiB, now);
    const auto fresh = pattern(sector, 77);
    now = j.write(30 * MiB + 8 * KiB, fresh, now);
    std::vector<uint8_t> got(sector);
    now = j.read(30 * MiB + 8 * KiB, got, now);
    EXPECT_EQ(got, fresh);
    EXPECT_EQ(card.counters().reads.requests, 2u) << "the read after the write is a command of its own";
}

TEST(SimCommandJoiner, ANonContiguousWriteEndsTheRun)
{
    Card card(card_params());
    CommandJoiner j(card);
    uint64_t now = 0;
    write_by_sector(j, 4 * MiB, pattern(4 * KiB, 1), now);
    write_by_sector(j, 12 * MiB, pattern(4 * KiB, 2), now);
    EXPECT_EQ(card.counters().writes.requests, 1u);
    now = j.settle(now);
    EXPECT_EQ(card.counters().writes.requests, 2u);
    EXPECT_EQ(j.settle(now), now) << "nothing left to hand over";
}
