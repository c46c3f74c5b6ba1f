// The whole geometry probe (the ladder read and analysed, then the open-AU
// test with the page and AU it found) on the flash model's virtual clock,
// over the eight geometries tests/cli/mmc-probe-geometry.sh once probed
// through the simulator's real-time chain: page 4-32 KiB, AU 1-16 MiB and
// 12 MiB, open AUs 1-7, with and without a write cache, in the three
// starting states. Exact: what is found must be what was set, and every
// block written must read back as before. The read-timing steps are the
// model's defaults, with 20 us of jitter on every read for a busy host.
#include "probe_sim_device.h"

#include <gtest/gtest.h>

using namespace mmc::probe;
using SimCard = mmc::test::SimProbeDevice;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

struct CardGeometry {
    uint32_t page;
    uint64_t au;
    unsigned open;
    uint64_t cache;
    mmc::sim::StartState state;
    uint64_t size;
};

} // namespace

TEST(ProbeGeometryCards, EightGeometriesFoundExactlyAndRestored)
{
    using S = mmc::sim::StartState;
    for (const CardGeometry g : {CardGeometry{4 * KiB, 1 * MiB, 1, 0, S::clean, 64 * MiB},
                             CardGeometry{8 * KiB, 2 * MiB, 2, 256 * KiB, S::full, 128 * MiB},
                             CardGeometry{16 * KiB, 4 * MiB, 5, 0, S::fragmented, 256 * MiB},
                             CardGeometry{32 * KiB, 12 * MiB, 3, 1 * MiB, S::clean, 256 * MiB},
                             CardGeometry{16 * KiB, 16 * MiB, 4, 0, S::clean, 512 * MiB},
                             CardGeometry{4 * KiB, 8 * MiB, 7, 512 * KiB, S::clean, 512 * MiB},
                             CardGeometry{8 * KiB, 1 * MiB, 6, 0, S::fragmented, 128 * MiB},
                             CardGeometry{32 * KiB, 2 * MiB, 3, 0, S::full, 128 * MiB}}) {
        SCOPED_TRACE(testing::Message() << "page " << g.page << " AU " << g.au << " open " << g.open << " cache "
                                        << g.cache << " " << mmc::sim::to_string(g.state));
        auto p = mmc::sim::default_params();
        p.size_bytes = g.size;
        p.page_bytes = g.page;
        p.au_bytes = g.au;
        p.open_aus = g.open;
        p.cache_bytes = g.cache;
        p.state = g.state;
        SimCard card(p, 20e3);

        const auto reading = read_geometry(card, SampleOptions{}, true);
        ASSERT_TRUE(reading.geometry.page_bytes);
        EXPECT_EQ(*reading.geometry.page_bytes, g.page);
        ASSERT_TRUE(reading.geometry.au_bytes);
        EXPECT_EQ(*reading.geometry.au_bytes, g.au);

        OpenAuOptions o;
        o.au_bytes = *reading.geometry.au_bytes;
        o.page_bytes = *reading.geometry.page_bytes;
        const auto plan = plan_open_aus(card.size(), o);
        const auto before = card.contents(plan.end);
        const auto r = measure_open_aus(card, o);
        ASSERT_TRUE(r.linear);
        EXPECT_EQ(*r.linear, g.open);
        EXPECT_TRUE(r.restored);
        EXPECT_TRUE(card.contents(plan.end) == before) << "the blocks written are not back as they were";
    }
}

// A card whose page reads cost nothing has no page step: the first reading
// (3 repeats) is not clear, so a second with 9 is made, said first, and the
// AU is still found.
TEST(ProbeGeometryCards, NoPageStepIsReadAgainWithThriceTheRepeats)
{
    auto p = mmc::sim::default_params();
    p.size_bytes = 128 * MiB;
    p.page_bytes = 16 * KiB;
    p.au_bytes = 4 * MiB;
    p.timing.page_read_ns = 0;
    SimCard card(p);
    const auto r = read_geometry(card, SampleOptions{}, true);
    EXPECT_EQ(r.ladder.repeats, 9u);
    EXPECT_FALSE(r.geometry.page_bytes);
    ASSERT_TRUE(r.geometry.au_bytes);
    EXPECT_EQ(*r.geometry.au_bytes, 4 * MiB);
    ASSERT_FALSE(r.geometry.evidence.empty());
    EXPECT_EQ(r.geometry.evidence[0].rfind("a first reading with 3 repeats was not clear", 0), 0u) << r.geometry.evidence[0];
}
