// The open-AU measurement on the flash model (virtual time): the count it
// finds is the model's, in order and at random, with and without a write
// cache, in the three starting states; and every block written is back as
// it was afterwards.
#include "probe/open_aus.h"
#include "probe_sim_device.h"
#include "sim/card.h"
#include "sim/params.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc::probe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

using SimWrites = mmc::test::SimProbeDevice;

mmc::sim::Params params(uint32_t page, uint64_t au, unsigned open, uint64_t cache, mmc::sim::StartState state,
                        uint64_t fat_area = mmc::sim::default_params().fat_area_bytes)
{
    auto p = mmc::sim::default_params();
    p.fat_area_bytes = fat_area;
    p.size_bytes = 256 * MiB;
    p.page_bytes = page;
    p.au_bytes = au;
    p.open_aus = open;
    p.cache_bytes = cache;
    p.state = state;
    return p;
}

std::vector<uint8_t> snapshot(SimWrites& d, uint64_t end) { return d.contents(end); }

} // namespace

TEST(ProbeOpenAus, FindsTheModelsCount)
{
    using S = mmc::sim::StartState;
    // fat: the model's FAT area (sim/ftl.h; 16 MiB by default), which the
    // start-area trial should find, or none.
    struct Case { uint32_t page; uint64_t au; unsigned open; uint64_t cache; S state; bool fat; };
    for (const Case c : {Case{16 * KiB, 4 * MiB, 5, 0, S::clean, true}, Case{4 * KiB, 1 * MiB, 1, 0, S::full, false},
                         Case{32 * KiB, 2 * MiB, 7, 1 * MiB, S::fragmented, true}, Case{8 * KiB, 1 * MiB, 3, 256 * KiB, S::clean, false},
                         Case{16 * KiB, 12 * MiB, 2, 0, S::full, true}}) {
        SCOPED_TRACE(testing::Message() << "page " << c.page << " au " << c.au << " open " << c.open << " cache "
                                        << c.cache << " state " << mmc::sim::to_string(c.state));
        SimWrites dev(params(c.page, c.au, c.open, c.cache, c.state, c.fat ? 16 * MiB : 0));
        OpenAuOptions o;
        o.au_bytes = c.au;
        o.page_bytes = c.page;
        const auto plan = plan_open_aus(dev.size(), o);
        const auto before = snapshot(dev, plan.end);
        const auto r = measure_open_aus(dev, o);
        ASSERT_TRUE(r.linear);
        EXPECT_EQ(*r.linear, c.open);
        ASSERT_TRUE(r.random);
        EXPECT_EQ(*r.random, c.open);
        ASSERT_TRUE(r.start_area_special);
        EXPECT_EQ(*r.start_area_special, c.fat);
        EXPECT_TRUE(r.restored);
        EXPECT_FALSE(r.interrupted);
        EXPECT_TRUE(snapshot(dev, plan.end) == before) << "data not restored";
        EXPECT_LE(r.bytes_written, 2 * plan.bytes);
    }
}

TEST(ProbeOpenAus, NoCliffWithinTheTrialsIsNoCount)
{
    SimWrites dev(params(16 * KiB, 1 * MiB, 12, 0, mmc::sim::StartState::clean));
    OpenAuOptions o;
    o.au_bytes = 1 * MiB;
    o.page_bytes = 16 * KiB;
    o.max_open = 8;
    const auto r = measure_open_aus(dev, o);
    EXPECT_FALSE(r.linear);
    EXPECT_FALSE(r.random);
    EXPECT_EQ(r.tried_up_to, 9u);
    EXPECT_TRUE(r.restored);
}

TEST(ProbeOpenAus, StopRestoresAndSaysSo)
{
    SimWrites dev(params(16 * KiB, 1 * MiB, 4, 0, mmc::sim::StartState::full));
    std::atomic<bool> stop{false};
    OpenAuOptions o;
    o.au_bytes = 1 * MiB;
    o.page_bytes = 16 * KiB;
    o.stop = &stop;
    int trials = 0;
    o.progress = [&](const std::string&) { if (++trials == 3) stop = true; };
    const auto before = snapshot(dev, 64 * MiB);
    const auto r = measure_open_aus(dev, o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_TRUE(r.restored);
    EXPECT_TRUE(snapshot(dev, 64 * MiB) == before);
}

// A busy moment that slows one whole trial is not a cliff: the recheck on
// other pages of the same AUs is fast again.
TEST(ProbeOpenAus, ABusyTrialIsRecheckedNotCounted)
{
    struct Busy : SimWrites {
        using SimWrites::SimWrites;
        unsigned writes = 0;
        double write_ns(uint64_t offset, std::span<const uint8_t> data) override
        {
            ++writes;
            const double extra = writes >= 8 && writes <= 21 ? 20e6 : 0; // all of trial n = 2
            return SimWrites::write_ns(offset, data) + extra;
        }
    };
    Busy dev(params(16 * KiB, 4 * MiB, 5, 0, mmc::sim::StartState::clean));
    OpenAuOptions o;
    o.au_bytes = 4 * MiB;
    o.page_bytes = 16 * KiB;
    const auto r = measure_open_aus(dev, o);
    ASSERT_TRUE(r.linear);
    EXPECT_EQ(*r.linear, 5u);
    ASSERT_FALSE(r.trials.empty());
    EXPECT_EQ(r.trials[1].aus, 2u);
    EXPECT_GT(r.trials[1].ns_per_write, 10e6);
    EXPECT_TRUE(r.trials[2].recheck);
    EXPECT_EQ(r.trials[2].aus, 2u);
}
