// The flash behaviour of the simulated card on virtual time: the read
// ladder, merges and erases, the open-AU cliff, full against clean, discard.
#include "sim/card.h"

#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace mmc::sim;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

Params card(StartState state, unsigned open_aus = 2)
{
    Params p = default_params();
    p.size_bytes = 256 * MiB;
    p.page_bytes = 16 * KiB;
    p.au_bytes = 4 * MiB;
    p.open_aus = open_aus;
    p.fat_area_bytes = 0; // the open-AU scheme everywhere: the FAT area has its own tests (sim_fat_area_test)
    p.state = state;
    return p;
}

// Service time of one request on an idle card.
uint64_t write_at(Card& c, uint64_t offset, uint64_t length)
{
    std::vector<uint8_t> data(length, 0x5a);
    const uint64_t start = c.idle_at();
    return c.write(offset, data, start) - start;
}

uint64_t read_at(Card& c, uint64_t offset, uint64_t length)
{
    std::vector<uint8_t> out(length);
    const uint64_t start = c.idle_at();
    return c.read(offset, out, start) - start;
}

// Sequential writes of `chunk` bytes over [offset, offset + length).
uint64_t write_range(Card& c, uint64_t offset, uint64_t length, uint64_t chunk = MiB)
{
    uint64_t ns = 0;
    for (uint64_t at = offset; at < offset + length; at += chunk) ns += write_at(c, at, chunk);
    return ns;
}

// 4 KiB writes at random 4 KiB-aligned places of random AUs among `aus`
// AUs starting at AU 8, each AU chosen at random.
uint64_t random_writes(Card& c, unsigned aus, unsigned count, uint64_t seed = 5)
{
    std::mt19937_64 rng(seed);
    const uint64_t au = c.params().au_bytes;
    uint64_t ns = 0;
    for (unsigned i = 0; i < count; ++i) {
        const uint64_t which = 8 + rng() % aus;
        const uint64_t in_au = (rng() % (au / (4 * KiB))) * 4 * KiB;
        ns += write_at(c, which * au + in_au, 4 * KiB);
    }
    return ns;
}

} // namespace

TEST(SimCardTiming, RandomWritesOverThreeAusWithTwoOpenCostOneMergeEach)
{
    Card c(card(StartState::full, 2));
    std::mt19937_64 rng(3);
    const uint64_t au = c.params().au_bytes;
    const unsigned writes = 30;
    for (unsigned i = 0; i < writes; ++i) // AUs 0, 1, 2, 0, ...: each finds its AU closed
        write_at(c, (i % 3) * au + (rng() % (au / 4096)) * 4096, 4096);
    const Counters& n = c.counters();
    EXPECT_EQ(n.merges, writes - 2); // the first two only open
    EXPECT_EQ(n.erases, writes);     // every opening takes a fresh block
    EXPECT_GT(n.pages_copied, (writes - 2) * (au / c.params().page_bytes) / 2);
    EXPECT_EQ(n.aus.open, 2u);
}

TEST(SimCardTiming, ASequentialAuWriteOnAFullCardCostsOneEraseAndNoCopies)
{
    Card c(card(StartState::full));
    write_range(c, 4 * MiB, 4 * MiB, 256 * KiB);
    const Counters& n = c.counters();
    EXPECT_EQ(n.erases, 1u);
    EXPECT_EQ(n.pages_copied, 0u);
    EXPECT_EQ(n.merges, 0u);
    EXPECT_EQ(n.pages_programmed, 4 * MiB / (16 * KiB));
    EXPECT_EQ(n.aus.open, 0u); // written to its end: closed
}

TEST(SimCardTiming, ReadLadderInsidePageAcrossPageAcrossAu)
{
    Card c(card(StartState::full));
    const uint64_t page = 16 * KiB, au = 4 * MiB;
    const uint64_t inside = read_at(c, 5 * au + 3 * page + 4096, 2048);
    const uint64_t across_page = read_at(c, 5 * au + 3 * page - 1024, 2048);
    const uint64_t across_au = read_at(c, 5 * au - 1024, 2048);
    EXPECT_LT(inside, across_page);
    EXPECT_LT(across_page, across_au);
    EXPECT_EQ(across_page - inside, c.params().timing.page_read_ns);
    EXPECT_EQ(across_au - across_page, c.params().timing.au_cross_ns);
    EXPECT_EQ(c.counters().au_crossings, 1u);
    EXPECT_EQ(inside, c.predict_read(7 * au + 4096, 2048));
}

TEST(SimCardTiming, OneAuMoreThanOpenIsAtLeastTenTimesSlowerForRandomWrites)
{
    for (unsigned open : {2u, 4u}) {
        Card within(card(StartState::full, open)), beyond(card(StartState::full, open));
        const uint64_t fits = random_writes(within, open, 1000);
        const uint64_t spills = random_writes(beyond, open + 1, 1000);
        EXPECT_GT(spills, 10 * fits) << open << " open AUs: " << fits << " ns vs " << spills << " ns";
        EXPECT_LT(within.counters().merges, beyond.counters().merges);
    }
}

TEST(SimCardTiming, SequentialWritesAreSlowerOnAFullCardAndSlowerStillOnAFragmentedOne)
{
    Card clean(card(StartState::clean)), full(card(StartState::full)), fragmented(card(StartState::fragmented));
    const uint64_t t_clean = write_range(clean, 16 * MiB, 32 * MiB);
    const uint64_t t_full = write_range(full, 16 * MiB, 32 * MiB);
    const uint64_t t_fragmented = write_range(fragmented, 16 * MiB, 32 * MiB);
    EXPECT_LT(t_clean, t_full);
    EXPECT_LT(t_full, t_fragmented);
    EXPECT_EQ(clean.counters().erases, 0u);
    EXPECT_EQ(full.counters().erases, 8u);
    EXPECT_EQ(fragmented.counters().pages_copied, 8 * 4 * MiB / (16 * KiB)); // one full merge per AU
}

TEST(SimCardTiming, WholeAuDiscardRestoresCleanSpeedAndAHalfMisalignedOneLess)
{
    // The first quarter of eight AUs, one after the other: with two open,
    // each AU is closed with the rest of its valid pages copied.
    auto workload = [](Card& c) {
        uint64_t ns = 0;
        for (uint64_t au = 8; au < 16; ++au) ns += write_range(c, au * 4 * MiB, MiB, 256 * KiB);
        for (uint64_t au = 8; au < 16; ++au) ns += write_at(c, au * 4 * MiB + 2 * MiB, 4096);
        return ns;
    };
    Card untouched(card(StartState::full)), whole(card(StartState::full)), half(card(StartState::full)),
        clean(card(StartState::clean));
    whole.discard(8 * 4 * MiB, 8 * 4 * MiB, 0);
    EXPECT_EQ(whole.counters().erases, 8u);
    for (uint64_t au = 8; au < 16; ++au) half.discard(au * 4 * MiB + 100 * KiB, 2 * MiB, half.idle_at());
    EXPECT_EQ(half.counters().erases, 0u);

    const uint64_t t_untouched = workload(untouched), t_whole = workload(whole), t_half = workload(half),
                   t_clean = workload(clean);
    EXPECT_EQ(t_whole, t_clean);
    EXPECT_LT(t_whole, t_half);
    EXPECT_LT(t_half, t_untouched);
    EXPECT_LT(half.counters().pages_copied, untouched.counters().pages_copied);
}

TEST(SimCardTiming, DiscardCostsCommandPlusAnEraseForEachWholeAuNotYetErased)
{
    Card c(card(StartState::full));
    const Timing& t = c.params().timing;
    const uint64_t start = c.idle_at();
    EXPECT_EQ(c.discard(4 * MiB, 8 * MiB + 4096, start) - start, t.command_ns + 2 * t.block_erase_ns);
    const uint64_t again = c.idle_at();
    EXPECT_EQ(c.discard(4 * MiB, 8 * MiB, again) - again, t.command_ns); // already erased
    std::vector<uint8_t> out(4096, 0x11);
    c.read(4 * MiB + 4096, out, c.idle_at());
    EXPECT_EQ(out, std::vector<uint8_t>(4096, c.params().erased_byte));
}

TEST(SimCardTiming, AWriteCacheAnswersAtBusSpeedUntilFullAndFlushWaitsForTheDrain)
{
    const uint64_t chunk = 256 * KiB;
    Params p = card(StartState::clean);
    p.cache_bytes = 2 * chunk;
    Card cached(p), direct(card(StartState::clean));
    const Timing& t = p.timing;
    const uint64_t transfer = t.command_ns + static_cast<uint64_t>(chunk * 1e9 / t.bus_bytes_per_s + 0.5);
    std::vector<uint8_t> data(chunk, 1);
    uint64_t now = 0;
    for (int i = 0; i < 2; ++i) { // two fit: each answered after its transfer
        const uint64_t end = cached.write(i * chunk, data, now);
        EXPECT_EQ(end - now, transfer);
        now = end;
    }
    const uint64_t third = cached.write(2 * chunk, data, now); // waits for the first to drain
    EXPECT_GT(third - now, transfer);
    EXPECT_EQ(cached.counters().cache_wait_ns, third - now - transfer);
    const uint64_t drained = cached.flush(third);
    uint64_t direct_end = 0;
    for (int i = 0; i < 3; ++i) direct_end = direct.write(i * chunk, data, direct_end);
    // All the flash work is done when the flush returns: the first write's
    // transfer, then the flash back to back, then the flush command.
    EXPECT_EQ(drained, direct_end - 2 * transfer + t.command_ns);
    EXPECT_EQ(cached.counters().pages_programmed, direct.counters().pages_programmed);
}

TEST(SimCardTiming, RequestsQueueInArrivalOrder)
{
    Card c(card(StartState::clean));
    std::vector<uint8_t> out(4096);
    const uint64_t first = c.read(0, out, 1000);
    const uint64_t second = c.read(0, out, 1000); // arrived while the first was served
    EXPECT_EQ(second - first, first - 1000);
    const uint64_t later = c.read(0, out, second + 5000);
    EXPECT_EQ(later - (second + 5000), first - 1000);
    EXPECT_EQ(c.counters().reads.busy_ns, 3 * (first - 1000));
}

TEST(SimCardTiming, PredictionsMatchAndLeaveNoTrace)
{
    Card c(card(StartState::full));
    write_at(c, 0, 4096);
    const auto before = c.counters_json();
    const uint64_t predicted = c.predict_write(9 * 4 * MiB + 8192, 4096);
    EXPECT_EQ(c.counters_json(), before);
    EXPECT_EQ(write_at(c, 9 * 4 * MiB + 8192, 4096), predicted);
}

TEST(SimCardTiming, SameSeedSameBehaviour)
{
    auto run = [](uint64_t seed) {
        Params p = card(StartState::fragmented, 3);
        p.seed = seed;
        Card c(p);
        random_writes(c, 5, 200, 11);
        std::vector<uint8_t> out(4096);
        c.read(20 * MiB, out, c.idle_at());
        return std::pair{c.counters_json(), out};
    };
    EXPECT_EQ(run(1), run(1));
    EXPECT_EQ(run(1).first, run(2).first);   // the seed shapes content, not timing
    EXPECT_NE(run(1).second, run(2).second);
}

TEST(SimCardTiming, CountersJsonCarriesTheGroundTruth)
{
    Card c(card(StartState::full));
    write_at(c, 0, 8192);
    read_at(c, 0, 4096);
    const auto j = c.counters_json();
    EXPECT_EQ(j["write"]["requests"], 1);
    EXPECT_EQ(j["write"]["bytes"], 8192);
    EXPECT_EQ(j["read"]["bytes"], 4096);
    EXPECT_EQ(j["erases"], 1);
    EXPECT_EQ(j["aus"]["total"], 64);
    EXPECT_EQ(j["aus"]["open"], 1);
    EXPECT_EQ(j["aus"]["valid_pages"], 256 * MiB / (16 * KiB));
    EXPECT_EQ(j["busy_ns"], j["write"]["busy_ns"].get<uint64_t>() + j["read"]["busy_ns"].get<uint64_t>());
}

TEST(SimCardTiming, SequentialSmallWritesFillAnAuWithoutCopies)
{
    Card c(card(StartState::full));
    write_range(c, 4 * MiB, 4 * MiB, 4 * KiB); // four writes per 16 KiB page
    const Counters& n = c.counters();
    EXPECT_EQ(n.pages_copied, 0u);
    EXPECT_EQ(n.merges, 0u);
    EXPECT_EQ(n.erases, 1u);
    EXPECT_EQ(n.pages_programmed, 4 * MiB / (4 * KiB)); // a partial page costs a whole program
    EXPECT_EQ(n.aus.open, 0u);
}

TEST(SimCardTiming, AMisalignedSequentialWriteCopiesWhatPrecedesItInTheAu)
{
    Card aligned(card(StartState::full)), misaligned(card(StartState::full));
    write_range(aligned, 4 * MiB, 4 * MiB);
    write_range(misaligned, 4 * MiB + MiB, 4 * MiB); // the last MiB lands in the next AU
    EXPECT_EQ(aligned.counters().pages_copied, 0u);
    EXPECT_EQ(misaligned.counters().pages_copied, MiB / (16 * KiB)); // the first MiB of the first AU
    EXPECT_EQ(misaligned.counters().aus.open, 1u);                  // the second AU, written a quarter
}

TEST(SimCardTiming, FlashbenchOpenAuLinearPatternCollapsesPastTheOpenCount)
{
    // flashbench --open-au: each block position in turn, written in each of
    // N AUs; every AU is written in order, interleaved with the others.
    auto rate = [](unsigned aus) {
        Card c(card(StartState::full, 3));
        const uint64_t block = 64 * KiB, au = 4 * MiB;
        uint64_t ns = 0;
        for (uint64_t at = 0; at < au; at += block)
            for (uint64_t i = 0; i < aus; ++i) ns += write_at(c, (4 + i) * au + at, block);
        return static_cast<double>(aus * au) / ns;
    };
    EXPECT_GT(rate(3), 10 * rate(4));
}
