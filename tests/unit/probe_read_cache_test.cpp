// The probes through a USB reader's read cache (sim/bridge_cache.h in front
// of the flash model, virtual clock): the geometry probe finds the cache,
// sizes it, reads past it, and gives the same page and AU as without it;
// a ladder read naively through it is wrong (what the defeat is for).
#include "probe/read_cache.h"
#include "probe/sampler.h"
#include "probe/words_view.h"
#include "probe_sim_device.h"

#include <gtest/gtest.h>

using namespace mmc::probe;
using SimCard = mmc::test::SimProbeDevice;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

mmc::sim::Params card(uint64_t size, uint32_t page, uint64_t au, uint64_t bridge)
{
    auto p = mmc::sim::default_params();
    p.size_bytes = size;
    p.page_bytes = page;
    p.au_bytes = au;
    p.bridge_cache_bytes = bridge;
    return p;
}

} // namespace

TEST(ProbeReadCache, NoneOnACardAlone)
{
    SimCard c(card(128 * MiB, 16 * KiB, 4 * MiB, 0), 20e3);
    const auto f = find_read_cache(c);
    EXPECT_FALSE(f.detected);
    EXPECT_TRUE(f.evidence.empty());
    EXPECT_EQ(c.reads, 16u); // eight places read twice, nothing more
}

TEST(ProbeReadCache, FoundAndSizedWithinTwiceItsSize)
{
    for (uint64_t bridge : {64 * KiB, 300 * KiB, 1 * MiB, 4 * MiB}) {
        SCOPED_TRACE(bridge);
        SimCard c(card(256 * MiB, 16 * KiB, 4 * MiB, bridge), 20e3);
        const auto f = find_read_cache(c);
        EXPECT_TRUE(f.detected);
        ASSERT_TRUE(f.bytes);
        EXPECT_GE(*f.bytes, bridge);
        EXPECT_LT(*f.bytes, 2 * bridge);
        EXPECT_LT(f.again_ns * 2, f.first_ns);
        EXPECT_NE(f.evidence.find("read cache"), std::string::npos);
    }
}

TEST(ProbeReadCache, TooLargeToEmptyIsSaid)
{
    // 64 MiB device: an eighth (8 MiB) is the most flooded; the cache is 16 MiB.
    SimCard c(card(64 * MiB, 16 * KiB, 4 * MiB, 16 * MiB));
    const auto f = find_read_cache(c);
    EXPECT_TRUE(f.detected);
    EXPECT_FALSE(f.bytes);
    EXPECT_NE(f.evidence.find("did not empty it"), std::string::npos) << f.evidence;
}

TEST(ProbeReadCache, ColdReadsReachTheCardEveryTime)
{
    SimCard c(card(128 * MiB, 16 * KiB, 4 * MiB, 1 * MiB));
    ColdReads cold(c, 1 * MiB);
    const double first = cold.read_ns(8 * MiB, 1024);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(cold.read_ns(8 * MiB, 1024), first);
    EXPECT_EQ(cold.floods(), 3u);
    // Without the floods the same re-reads are the bridge's.
    SimCard warm(card(128 * MiB, 16 * KiB, 4 * MiB, 1 * MiB));
    warm.read_ns(8 * MiB, 1024);
    EXPECT_LT(warm.read_ns(8 * MiB, 1024) * 2, first);
}

TEST(ProbeReadCache, ANaiveLadderThroughTheCacheLosesTheGeometry)
{
    SimCard c(card(256 * MiB, 16 * KiB, 4 * MiB, 4 * MiB));
    const auto g = analyze(sample_ladder(c, SampleOptions{}));
    // Every repeat after the first is the bridge's: the fastest read of each
    // place carries no flash time, so no page or AU step is left.
    EXPECT_FALSE(g.page_bytes && *g.page_bytes == 16 * KiB && g.au_bytes && *g.au_bytes == 4 * MiB);
}

TEST(ProbeReadCache, GeometriesThroughABridgeCacheAreThoseWithout)
{
    struct G {
        uint32_t page;
        uint64_t au, size, bridge;
    };
    for (const G g : {G{4 * KiB, 1 * MiB, 64 * MiB, 128 * KiB}, G{16 * KiB, 4 * MiB, 256 * MiB, 1 * MiB},
                      G{32 * KiB, 12 * MiB, 256 * MiB, 4 * MiB}, G{8 * KiB, 2 * MiB, 128 * MiB, 512 * KiB}}) {
        SCOPED_TRACE(testing::Message() << "page " << g.page << " AU " << g.au << " bridge " << g.bridge);
        SimCard plain(card(g.size, g.page, g.au, 0), 20e3), bridged(card(g.size, g.page, g.au, g.bridge), 20e3);
        const auto a = read_geometry(plain, SampleOptions{}, true);
        const auto b = read_geometry(bridged, SampleOptions{}, true);
        ASSERT_TRUE(a.geometry.page_bytes && a.geometry.au_bytes);
        EXPECT_EQ(*a.geometry.page_bytes, g.page);
        EXPECT_EQ(*a.geometry.au_bytes, g.au);
        EXPECT_EQ(b.geometry.page_bytes, a.geometry.page_bytes);
        EXPECT_EQ(b.geometry.au_bytes, a.geometry.au_bytes);
        EXPECT_EQ(b.geometry.confidence, a.geometry.confidence);
        EXPECT_FALSE(a.read_cache.detected);
        EXPECT_TRUE(b.read_cache.detected);
        ASSERT_FALSE(b.geometry.evidence.empty());
        EXPECT_NE(b.geometry.evidence.back().find("read cache"), std::string::npos);
    }
}

TEST(ProbeReadCache, ALadderItCannotEmptyIsOfLowConfidence)
{
    SimCard c(card(64 * MiB, 16 * KiB, 4 * MiB, 16 * MiB));
    const auto r = read_geometry(c, SampleOptions{}, true);
    EXPECT_TRUE(r.read_cache.detected);
    EXPECT_FALSE(r.read_cache.bytes);
    EXPECT_TRUE(r.geometry.confidence == Confidence::low || r.geometry.confidence == Confidence::none) << confidence_name(r.geometry.confidence);
}

namespace {

// A host disturbed for a moment (the lab's QEMU beside a CPU-bound load):
// the small timed reads numbered [from, to) (flood reads not counted) each
// take `stall_ns` longer, re-reads and cold reads alike.
class StalledReads : public ReadTimer {
public:
    StalledReads(ReadTimer& dev, unsigned from, unsigned to, double stall_ns) : dev_(dev), from_(from), to_(to), stall_ns_(stall_ns) {}
    uint64_t size() const override { return dev_.size(); }
    uint32_t block() const override { return dev_.block(); }
    uint32_t max_read_bytes() const override { return dev_.max_read_bytes(); }
    double read_ns(uint64_t offset, uint32_t length) override
    {
        const double ns = dev_.read_ns(offset, length);
        if (length > 2 * dev_.block()) return ns;
        const unsigned n = small_++;
        return n >= from_ && n < to_ ? ns + stall_ns_ : ns;
    }

private:
    ReadTimer& dev_;
    unsigned from_, to_;
    double stall_ns_;
    unsigned small_ = 0;
};

} // namespace

TEST(ProbeReadCache, ASizingPassDisturbedByTheHostIsCaughtByTheSecond)
{
    // 4 MiB bridge cache; the detection's 16 reads are clean, then the first
    // sizing step's 9 small reads (3 fresh, 3 re-reads, 3 cold) each stall
    // 10 ms: the re-reads look as slow as the cold reads, so one pass alone
    // takes the first flood (64 KiB) for enough, as the lab once did.
    SimCard c(card(256 * MiB, 16 * KiB, 4 * MiB, 4 * MiB), 20e3);
    StalledReads noisy(c, 16, 25, 10e6);
    const auto f = find_read_cache(noisy);
    ASSERT_TRUE(f.detected);
    ASSERT_TRUE(f.bytes);
    EXPECT_GE(*f.bytes, 4 * MiB) << "the confirming pass must size past the cache";
    EXPECT_TRUE(f.passes_disagreed);
    EXPECT_EQ(f.confidence(), Confidence::medium);
    EXPECT_NE(f.evidence.find("second sizing pass"), std::string::npos) << f.evidence;
    // The size holds: a re-read after a flood of it reaches the card (the
    // bridge would answer in under half the time).
    ColdReads cold(c, *f.bytes);
    const double first = cold.read_ns(40 * MiB, 1024);
    EXPECT_GT(cold.read_ns(40 * MiB, 1024), first / 2);
    EXPECT_EQ(cold.floods(), 1u);
}

TEST(ProbeReadCache, TwoAgreeingPassesAreOfHighConfidence)
{
    SimCard c(card(256 * MiB, 16 * KiB, 4 * MiB, 1 * MiB), 20e3);
    const auto f = find_read_cache(c);
    ASSERT_TRUE(f.bytes);
    EXPECT_FALSE(f.passes_disagreed);
    EXPECT_EQ(f.confidence(), Confidence::high);
    SimCard none(card(256 * MiB, 16 * KiB, 4 * MiB, 0), 20e3);
    EXPECT_EQ(find_read_cache(none).confidence(), Confidence::high) << "nothing in the way";
}
