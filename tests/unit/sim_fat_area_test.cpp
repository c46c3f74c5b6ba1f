// The FAT area of a simulated card (Params::fat_area_bytes, ftl.h): the
// first AUs take small writes in any order at the cost of the pages
// programmed, outside the open AUs, until a log fills and is merged.
// Exact counters on small cards.
#include "sim/card.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc::sim;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

Params card(StartState state, uint64_t au, uint64_t fat_area, unsigned open_aus = 1)
{
    Params p = default_params();
    p.size_bytes = 64 * MiB;
    p.page_bytes = 16 * KiB;
    p.au_bytes = au;
    p.open_aus = open_aus;
    p.fat_area_bytes = fat_area;
    p.state = state;
    return p;
}

void write_at(Card& c, uint64_t offset, uint64_t length)
{
    std::vector<uint8_t> data(length, 0x5a);
    c.write(offset, data, c.idle_at());
}

// A file system's pattern: a 4 KiB table update at a scattered place of AU
// 0, then 64 KiB of data appended in AU 2, forty times.
void table_and_data(Card& c)
{
    for (uint64_t i = 0; i < 40; ++i) {
        write_at(c, (i * 37 % 256) * 16 * KiB, 4 * KiB);
        write_at(c, 2 * 4 * MiB + i * 64 * KiB, 64 * KiB);
    }
}

} // namespace

TEST(SimFatArea, DefaultIsTheFirst16MiB)
{
    EXPECT_EQ(default_params().fat_area_bytes, 16 * MiB);
}

TEST(SimFatArea, ScatteredTableWritesCostOnlyTheirPagesAndNoOpenAu)
{
    Card fat(card(StartState::clean, 4 * MiB, 4 * MiB)), none(card(StartState::clean, 4 * MiB, 0));
    table_and_data(fat);
    table_and_data(none);
    const Counters& f = fat.counters();
    EXPECT_EQ(f.pages_programmed, 40u * 1 + 40u * 4); // a 4 KiB write programs its whole page
    EXPECT_EQ(f.pages_copied, 0u);
    EXPECT_EQ(f.merges, 0u);
    EXPECT_EQ(f.erases, 0u);   // a clean card: both logs start in erased blocks
    EXPECT_EQ(f.aus.open, 2u); // the FAT area's log beside the one open AU
    // Without a FAT area the table's AU and the data's share the one open AU:
    // every switch closes the other, 79 of the 80 writes.
    const Counters& n = none.counters();
    EXPECT_EQ(n.pages_programmed, f.pages_programmed);
    EXPECT_EQ(n.merges, 79u);
    EXPECT_GT(n.pages_copied, 0u);
    EXPECT_GT(n.erases, 0u);
}

TEST(SimFatArea, AFullLogIsMergedAndAFreshOneBegun)
{
    // 64 KiB AUs of four 16 KiB pages; AU 0 is the FAT area.
    Card c(card(StartState::clean, 64 * KiB, 64 * KiB));
    for (uint64_t page : {0, 1, 0, 0}) write_at(c, page * 16 * KiB, 16 * KiB); // the log: 4 of 4 pages
    EXPECT_EQ(c.counters().merges, 0u);
    EXPECT_EQ(c.counters().erases, 0u);
    write_at(c, 16 * KiB, 16 * KiB); // page 1 again: pages 0 and 1 merged into a block, a fresh log
    const Counters& n = c.counters();
    EXPECT_EQ(n.pages_programmed, 5u);
    EXPECT_EQ(n.pages_copied, 2u);
    EXPECT_EQ(n.merges, 1u);
    EXPECT_EQ(n.erases, 2u);
    for (uint64_t page : {2, 2, 3}) write_at(c, page * 16 * KiB, 16 * KiB); // the log: 4 of 4 again
    EXPECT_EQ(c.counters().merges, 1u);
    write_at(c, 0, 16 * KiB); // full: pages 0 to 3 merged
    EXPECT_EQ(c.counters().pages_copied, 2u + 4u);
    EXPECT_EQ(c.counters().merges, 2u);
    EXPECT_EQ(c.counters().erases, 4u);
}

TEST(SimFatArea, AnAuWrittenInOrderToItsEndIsClosedForFree)
{
    Card c(card(StartState::clean, 4 * MiB, 4 * MiB));
    for (int pass = 0; pass < 2; ++pass)
        for (uint64_t at = 0; at < 4 * MiB; at += 512 * KiB) write_at(c, at, 512 * KiB);
    const Counters& n = c.counters();
    EXPECT_EQ(n.pages_programmed, 2u * 256);
    EXPECT_EQ(n.pages_copied, 0u);
    EXPECT_EQ(n.merges, 0u);
    EXPECT_EQ(n.erases, 1u); // the second pass's log: the first one's block holds data
    EXPECT_EQ(n.aus.open, 0u);
}

TEST(SimFatArea, AWriteMidAuOnAFullCardCopiesNothingBeforeIt)
{
    // The open-AU log starts at the write and copies the valid pages before
    // it; the page-mapped FAT area copies nothing.
    Card fat(card(StartState::full, 4 * MiB, 4 * MiB)), none(card(StartState::full, 4 * MiB, 0));
    write_at(fat, 100 * 16 * KiB, 16 * KiB);
    write_at(none, 100 * 16 * KiB, 16 * KiB);
    EXPECT_EQ(fat.counters().pages_copied, 0u);
    EXPECT_EQ(fat.counters().erases, 1u); // a fresh block for the log
    EXPECT_EQ(none.counters().pages_copied, 100u);
    EXPECT_EQ(none.counters().erases, 1u);
}

TEST(SimFatArea, CoversTheAusThatBeginBelowIt)
{
    // 5 MiB over 4 MiB AUs: AUs 0 and 1. With one open AU, AU 1 and AU 3
    // alternate without closing each other; AU 2 and AU 3 do not.
    Card c(card(StartState::clean, 4 * MiB, 5 * MiB));
    for (int i = 0; i < 4; ++i) {
        write_at(c, 4 * MiB + (3 - i) * 16 * KiB, 16 * KiB);
        write_at(c, 3 * 4 * MiB + i * 16 * KiB, 16 * KiB);
    }
    EXPECT_EQ(c.counters().merges, 0u);
    write_at(c, 2 * 4 * MiB, 16 * KiB); // AU 2 takes AU 3's open slot
    EXPECT_EQ(c.counters().merges, 1u);
}

TEST(SimFatArea, AWholeAuDiscardDropsItsLog)
{
    Card c(card(StartState::clean, 4 * MiB, 4 * MiB));
    write_at(c, 16 * KiB, 16 * KiB);
    EXPECT_EQ(c.counters().aus.open, 1u);
    c.discard(0, 4 * MiB, c.idle_at());
    EXPECT_EQ(c.counters().aus.open, 0u);
    EXPECT_EQ(c.counters().erases, 1u); // its block had been written
    write_at(c, 16 * KiB, 16 * KiB);    // a new log in the erased block: free
    EXPECT_EQ(c.counters().erases, 1u);
}

TEST(SimFatArea, OptionParsesRoundTripsAndIsRefusedBeyondTheCard)
{
    Params p = default_params();
    set_option(p, "fat-area", "8M");
    EXPECT_EQ(p.fat_area_bytes, 8 * MiB);
    EXPECT_EQ(to_json(p)["fat_area"], 8 * MiB);
    EXPECT_EQ(params_from_json(to_json(p)).fat_area_bytes, 8 * MiB);
    set_option(p, "fat-area", "0");
    EXPECT_NO_THROW(validate(p));
    p.fat_area_bytes = p.size_bytes + 512;
    EXPECT_THROW(validate(p), std::invalid_argument);
}
