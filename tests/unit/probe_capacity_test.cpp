// The capacity probe against F3's matrix of fakes, scaled down to an
// announced 256 MiB, on in-process simulated cards: the verdict, the usable
// size to the block, the module, the cache, and the card's storage
// byte-identical afterwards. The card's own counters say what was written.
#include "probe/capacity.h"
#include "probe/capacity_run.h"
#include "probe/read_cache.h"
#include "probe/words_view.h"
#include "probe_sim_device.h"
#include "sim/card.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <string>
#include <vector>

using namespace mmc;
using mmc::probe::Verdict;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

// The probe's BlockIo over a simulated card (512-byte blocks).
class SimBlocks : public probe::BlockIo {
public:
    explicit SimBlocks(sim::Card& c, uint32_t block_size = 512) : card_(c), bs_(block_size) {}
    uint64_t block_count() const override { return card_.size_bytes() / bs_; }
    uint32_t block_size() const override { return bs_; }
    void read(uint64_t block, std::span<uint8_t> out) override { card_.read(block * bs_, out, card_.idle_at()); }
    void write(uint64_t block, std::span<const uint8_t> data) override
    {
        if (fail_after_ && written_ >= *fail_after_) throw std::runtime_error("injected write error");
        written_ += data.size() / bs_;
        card_.write(block * bs_, data, card_.idle_at());
    }
    std::optional<uint64_t> fail_after_;

private:
    sim::Card& card_;
    uint32_t bs_;
    uint64_t written_ = 0;
};

struct Fake {
    std::string name;
    sim::Fake kind;
    uint64_t real = 0, module = 0, cache = 0;
    bool strict = false;
    Verdict verdict;
    uint64_t usable; // bytes
};

sim::Params params(const Fake& f, uint64_t size = 256 * MiB)
{
    sim::Params p = sim::default_params();
    p.size_bytes = size;
    p.fake = f.kind;
    p.real_size_bytes = f.real;
    p.module_bytes = f.module;
    p.cache_bytes = f.cache;
    p.strict_cache = f.strict;
    p.state = sim::StartState::full; // every page holds data the probe must give back
    p.seed = 42;
    return p;
}

// A 64-bit digest of the card's bytes [0, length), read through the card
// (any changed byte changes a word, and each word's place is mixed in).
uint64_t digest(sim::Card& c, uint64_t length)
{
    uint64_t h = 0xcbf29ce484222325;
    std::vector<uint8_t> buf(MiB);
    for (uint64_t at = 0; at < length; at += buf.size()) {
        const std::size_t n = std::min<uint64_t>(buf.size(), length - at);
        c.read(at, std::span(buf.data(), n), c.idle_at());
        for (std::size_t i = 0; i + 8 <= n; i += 8) {
            uint64_t w;
            std::memcpy(&w, buf.data() + i, 8);
            h = (h ^ w) * 0x100000001b3 + (at + i);
        }
    }
    return h;
}

// The storage there is: what a read of [0, storage) reaches.
uint64_t storage(const sim::Params& p)
{
    if (p.fake == sim::Fake::bad) return 0;
    if (p.fake == sim::Fake::wraparound) return sim::wrap_module(p);
    return sim::real_size(p);
}

const uint64_t odd_real = 27 * MiB + 48 * KiB; // not a power of two, like F3's 1.66 GB limbo drive

const std::vector<Fake> matrix = {
    {"good", sim::Fake::none, 0, 0, 0, false, Verdict::good, 256 * MiB},
    {"bad", sim::Fake::bad, 0, 0, 0, false, Verdict::bad, 0},
    {"limbo", sim::Fake::limbo, odd_real, 0, 0, false, Verdict::limbo, odd_real},
    {"limbo_just_past_the_anchor", sim::Fake::limbo, MiB + 16 * KiB, 0, 0, false, Verdict::limbo, MiB + 16 * KiB},
    {"limbo_strict_cache", sim::Fake::limbo, 30 * MiB, 0, MiB, true, Verdict::limbo, 30 * MiB},
    {"limbo_cache", sim::Fake::limbo, 30 * MiB, 0, MiB, false, Verdict::limbo, 30 * MiB},
    {"limbo_odd_cache", sim::Fake::limbo, odd_real, 0, 1536 * KiB, false, Verdict::limbo, odd_real},
    {"wraparound", sim::Fake::wraparound, 32 * MiB, 0, 0, false, Verdict::wraparound, 32 * MiB},
    {"wraparound_below_real", sim::Fake::wraparound, 64 * MiB, 32 * MiB, 0, false, Verdict::wraparound, 32 * MiB},
    {"chain", sim::Fake::chain, 32 * MiB, 64 * MiB, 0, false, Verdict::chain, 32 * MiB},
    {"chain_cache", sim::Fake::chain, 32 * MiB, 64 * MiB, 512 * KiB, false, Verdict::chain, 32 * MiB},
    {"devil_strict", sim::Fake::bad, 0, 0, 2 * MiB, true, Verdict::bad, 0},
    {"devil", sim::Fake::bad, 0, 0, 2 * MiB, false, Verdict::bad, 0},
};

class ProbeCapacity : public ::testing::TestWithParam<Fake> {};

} // namespace

TEST_P(ProbeCapacity, NamesTheFakeExactlyAndGivesEveryByteBack)
{
    const Fake& f = GetParam();
    const sim::Params p = params(f);
    sim::Card card(p);
    const uint64_t kept = storage(p);
    const uint64_t before = digest(card, kept);
    const uint64_t written_before = card.counters().writes.bytes;

    SimBlocks io(card);
    probe::CapacityOptions o;
    o.seed = 7;
    const auto r = probe::probe_capacity(io, o);

    ASSERT_TRUE(r.verdict.has_value());
    EXPECT_EQ(probe::verdict_name(*r.verdict), std::string(probe::verdict_name(f.verdict)));
    EXPECT_EQ(r.usable_bytes, f.usable);
    EXPECT_FALSE(r.usable_is_lower_bound);
    EXPECT_EQ(r.announced_bytes, 256 * MiB);
    if (f.verdict == Verdict::wraparound || f.verdict == Verdict::chain) {
        ASSERT_TRUE(r.module_bytes.has_value());
        EXPECT_EQ(*r.module_bytes, sim::wrap_module(p));
    } else {
        EXPECT_FALSE(r.module_bytes.has_value());
    }
    if (f.cache) {
        // An upper bound, within a sixteenth (the check's spacing) and 64 blocks.
        ASSERT_TRUE(r.cache_bytes.has_value());
        EXPECT_GE(*r.cache_bytes, f.cache);
        EXPECT_LE(*r.cache_bytes, f.cache + f.cache / 16 + 64 * 512);
    } else if (f.verdict == Verdict::limbo || f.verdict == Verdict::chain || f.verdict == Verdict::bad) {
        ASSERT_TRUE(r.cache_bytes.has_value());
        EXPECT_EQ(*r.cache_bytes, 0u);
    }
    // What it says it wrote is what the card was given.
    EXPECT_EQ(r.blocks_written * 512, card.counters().writes.bytes - written_before);
    EXPECT_TRUE(r.restored);
    EXPECT_EQ(digest(card, kept), before) << "the card's storage changed";
}

INSTANTIATE_TEST_SUITE_P(F3Matrix, ProbeCapacity, ::testing::ValuesIn(matrix),
                         [](const auto& info) { return info.param.name; });

TEST(ProbeCapacityWrites, NoCacheFakesCostTensOfBlocks)
{
    // When the last block is limbo without a cache, the search is binary,
    // one stamp per round: about 2 log2(blocks) writes with the copies
    // written back (F3 8.0 starts every probe with a 1 MiB burst). When the
    // last block is storage (good, wraparound), the cache check rewrites up
    // to its bound in place: a sixteenth of the card here.
    for (const Fake& f : matrix) {
        if (f.cache) continue;
        sim::Card card(params(f));
        SimBlocks io(card);
        probe::CapacityOptions o;
        o.seed = 3;
        const auto r = probe::probe_capacity(io, o);
        const bool top_is_storage = f.kind == sim::Fake::none || f.kind == sim::Fake::wraparound;
        EXPECT_LE(r.blocks_written, top_is_storage ? 256 * MiB / 512 / 16 + 100 : 100u) << f.name;
        EXPECT_LE(r.blocks_backed_up, 50u) << f.name;
    }
}

TEST(ProbeCapacityWrites, ThePlanBoundsWhatIsWritten)
{
    for (const Fake& f : matrix) {
        sim::Card card(params(f));
        SimBlocks io(card);
        probe::CapacityOptions o;
        o.seed = 11;
        const auto plan = probe::plan_capacity(io.block_count(), 512, o);
        const auto r = probe::probe_capacity(io, o);
        EXPECT_LE(r.blocks_written, plan.max_blocks_written) << f.name;
        EXPECT_LE(r.blocks_backed_up, plan.max_backup_blocks) << f.name;
    }
}

TEST(ProbeCapacityWrites, DestructiveKeepsNoCopies)
{
    const Fake f = matrix[2]; // limbo
    sim::Card card(params(f));
    SimBlocks io(card);
    probe::CapacityOptions o;
    o.destructive = true;
    const auto r = probe::probe_capacity(io, o);
    ASSERT_TRUE(r.verdict.has_value());
    EXPECT_EQ(*r.verdict, Verdict::limbo);
    EXPECT_EQ(r.usable_bytes, odd_real);
    EXPECT_EQ(r.blocks_backed_up, 0u);
    EXPECT_FALSE(r.restored);
}

TEST(ProbeCapacityStop, AStopRestoresEverythingAndNamesNoVerdict)
{
    const Fake f = matrix[5]; // limbo with a cache: a long run
    const sim::Params p = params(f);
    sim::Card card(p);
    const uint64_t before = digest(card, storage(p));
    SimBlocks io(card);
    std::atomic<bool> stop{false};
    probe::CapacityOptions o;
    o.stop = &stop;
    int calls = 0;
    o.progress = [&](const probe::CapacityProgress& pr) {
        if (pr.phase == probe::CapacityPhase::search && ++calls == 2) stop = true;
    };
    const auto r = probe::probe_capacity(io, o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_FALSE(r.verdict.has_value());
    EXPECT_GT(r.blocks_backed_up, 0u);
    EXPECT_TRUE(r.restored);
    EXPECT_EQ(digest(card, storage(p)), before);
}

TEST(ProbeCapacityStop, AnIoErrorRestoresAndSaysSo)
{
    const Fake f = matrix[2];
    const sim::Params p = params(f);
    sim::Card card(p);
    SimBlocks io(card);
    io.fail_after_ = 10; // the restore's writes fail too
    probe::CapacityOptions o;
    try {
        probe::probe_capacity(io, o);
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("injected write error"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("restoring the overwritten blocks failed"), std::string::npos) << e.what();
    }
}

TEST(ProbeCapacityPlan, RefusesTinyDevicesAndStatesItsBounds)
{
    probe::CapacityOptions o;
    EXPECT_THROW(probe::plan_capacity(4 * MiB / 512 - 1, 512, o), std::invalid_argument);
    EXPECT_THROW(probe::plan_capacity(1 << 20, 1000, o), std::invalid_argument);
    const auto p = probe::plan_capacity(256 * MiB / 512, 512, o);
    EXPECT_EQ(p.anchor, 2048u);
    EXPECT_EQ(p.cache_check_blocks, 256 * MiB / 512 / 16);
    EXPECT_GT(p.max_blocks_written, p.cache_check_blocks * 2);
    EXPECT_LT(p.typical_blocks_written, 100u);
    o.max_cache_bytes = MiB;
    EXPECT_EQ(probe::plan_capacity(256 * MiB / 512, 512, o).cache_check_blocks, 2048u);
}

TEST(ProbeCapacitySweep, TheEndOfStorageAnywhereWithAnyCacheIsFoundToTheBlock)
{
    // Real sizes from just past the anchor to near the top, page multiples
    // (the simulator's granularity) that are not powers of two; caches none,
    // strict and not; two salts and read orders each.
    const uint64_t page = 16 * KiB;
    for (uint64_t real : {MiB + page, 5 * MiB + 3 * page, 64 * MiB + 7 * page, 128 * MiB, 201 * MiB + page, 250 * MiB})
        for (int cache = 0; cache < 3; ++cache)
            for (uint64_t seed : {1, 2}) {
                Fake f{"sweep", sim::Fake::limbo, real, 0, cache ? 256 * KiB : 0, cache == 1, Verdict::limbo, real};
                sim::Card card(params(f));
                SimBlocks io(card);
                probe::CapacityOptions o;
                o.seed = seed;
                const auto r = probe::probe_capacity(io, o);
                const auto what = ::testing::Message() << "real " << real << " cache " << cache << " seed " << seed;
                ASSERT_TRUE(r.verdict.has_value()) << what;
                EXPECT_EQ(*r.verdict, Verdict::limbo) << what;
                EXPECT_EQ(r.usable_bytes, real) << what;
                EXPECT_FALSE(r.usable_is_lower_bound) << what;
            }
}

TEST(ProbeCapacitySweep, FourKiBBlocks)
{
    // F3's "good, 4KB-block" drive, and a limbo one: usable to the 4 KiB block.
    for (const Fake& f : {matrix[0], matrix[2], matrix[5], matrix[9]}) {
        const sim::Params p = params(f);
        sim::Card card(p);
        const uint64_t before = digest(card, storage(p));
        SimBlocks io(card, 4096);
        probe::CapacityOptions o;
        o.seed = 5;
        const auto r = probe::probe_capacity(io, o);
        ASSERT_TRUE(r.verdict.has_value()) << f.name;
        EXPECT_EQ(*r.verdict, f.verdict) << f.name;
        EXPECT_EQ(r.usable_bytes, f.usable) << f.name;
        EXPECT_EQ(r.blocks_written * 4096, card.counters().writes.bytes) << f.name;
        EXPECT_EQ(digest(card, storage(p)), before) << f.name;
    }
}

TEST(ProbeCapacitySweep, AnEndWithinTheCacheOfTheTopIsALowerBoundAndSaysSo)
{
    // 32 blocks more limbo than the 1 MiB cache: the check's step overshoots
    // it, so the flush area reaches into storage and the probes stop below
    // it. The answer errs on the safe side and is flagged.
    const uint64_t real = 256 * MiB - (MiB + 16 * KiB);
    Fake f{"corner", sim::Fake::limbo, real, 0, MiB, false, Verdict::limbo, real};
    sim::Card card(params(f));
    SimBlocks io(card);
    probe::CapacityOptions o;
    o.seed = 9;
    const auto r = probe::probe_capacity(io, o);
    ASSERT_TRUE(r.verdict.has_value());
    EXPECT_EQ(*r.verdict, Verdict::limbo);
    EXPECT_TRUE(r.usable_is_lower_bound);
    EXPECT_LE(r.usable_bytes, real);
    EXPECT_GE(r.usable_bytes + *r.cache_bytes, real);
}

// Through a USB reader whose bridge keeps the last 1 or 4 MiB moved (the
// simulator's bridge cache): F3's matrix gets the same verdict, usable size
// and module as without it, and every byte back, once the probe is told the
// read cache the timing found (read_cache.h, as mmc-probe does): its checks
// then rewrite at least that much between a write and its verification.
// Without it the bridge answers the verifying reads with the stamps it was
// given and every limbo fake looks good: the second test shows the need.
TEST(ProbeCapacityThroughABridgeCache, SameAnswersAsWithout)
{
    for (const uint64_t bridge : {1 * MiB, 4 * MiB})
        for (const Fake& f : matrix) {
            SCOPED_TRACE(testing::Message() << f.name << ", bridge cache " << bridge);
            sim::Params p = params(f);
            p.bridge_cache_bytes = bridge;
            test::SimProbeDevice timed(p);
            const auto found = probe::find_read_cache(timed);
            ASSERT_TRUE(found.bytes);
            sim::Card& card = timed.card;
            const uint64_t before = digest(card, storage(p));
            SimBlocks io(card);
            probe::CapacityOptions o;
            o.seed = 7;
            o.read_cache_bytes = *found.bytes;
            const auto r = probe::probe_capacity(io, o);
            ASSERT_TRUE(r.verdict.has_value());
            EXPECT_EQ(probe::verdict_name(*r.verdict), std::string(probe::verdict_name(f.verdict)));
            EXPECT_EQ(r.usable_bytes, f.usable);
            EXPECT_EQ(r.module_bytes.has_value(), f.verdict == Verdict::wraparound || f.verdict == Verdict::chain);
            EXPECT_EQ(r.confidence, probe::Confidence::high);
            EXPECT_TRUE(r.restored);
            // Read past the bridge: flood it before the digest.
            std::vector<uint8_t> flood(8 * MiB);
            card.read(128 * MiB, flood, card.idle_at());
            EXPECT_EQ(digest(card, storage(p)), before) << "the card's storage changed";
        }
}

TEST(ProbeCapacityThroughABridgeCache, UntoldItIsFooled)
{
    sim::Params p = params(matrix[2]); // limbo
    p.bridge_cache_bytes = 4 * MiB;
    sim::Card card(p);
    SimBlocks io(card);
    probe::CapacityOptions o;
    o.seed = 7;
    EXPECT_EQ(*probe::probe_capacity(io, o).verdict, Verdict::good);
}

// A busy host's timing: every read takes as long as any other, so a bridge
// cache does not show (the USB lab saw it beside two busy lanes: the
// bridge's re-reads were no faster than its first reads).
class FlatTimer : public probe::ReadTimer {
public:
    explicit FlatTimer(test::SimProbeDevice& d) : dev_(d) {}
    uint64_t size() const override { return dev_.size(); }
    uint32_t block() const override { return dev_.block(); }
    double read_ns(uint64_t offset, uint32_t length) override
    {
        dev_.read_ns(offset, length); // the bridge sees the read all the same
        return 1e6;
    }

private:
    test::SimProbeDevice& dev_;
};

// Behind USB, the cache the timing missed is assumed, as large as the
// largest looked for: the limbo fake is named, to the block, and the
// confidence says the cache was assumed. On an MMC host nothing is assumed,
// and the same hidden cache fools the probe: the assumption is what saves it.
TEST(ProbeCapacityThroughABridgeCache, BehindUsbACacheTheTimingMissesIsAssumed)
{
    sim::Params p = params(matrix[2]); // limbo
    p.bridge_cache_bytes = 4 * MiB;
    probe::CapacityOptions o;
    o.seed = 7;
    {
        test::SimProbeDevice dev(p);
        FlatTimer flat(dev);
        SimBlocks io(dev.card);
        const auto r = probe::probe_past_read_cache(flat, true, io, o);
        ASSERT_TRUE(r.verdict.has_value());
        EXPECT_EQ(*r.verdict, Verdict::limbo);
        EXPECT_EQ(r.usable_bytes, odd_real);
        EXPECT_EQ(r.read_cache_bytes, probe::max_read_cache_bytes(256 * MiB));
        EXPECT_NE(r.confidence, probe::Confidence::high);
        EXPECT_NE(r.read_cache_evidence.find("no read cache showed in the timing"), std::string::npos) << r.read_cache_evidence;
        EXPECT_TRUE(r.restored);
    }
    {
        test::SimProbeDevice dev(p);
        FlatTimer flat(dev);
        SimBlocks io(dev.card);
        const auto r = probe::probe_past_read_cache(flat, false, io, o);
        ASSERT_TRUE(r.verdict.has_value());
        EXPECT_EQ(*r.verdict, Verdict::good) << "on an MMC host no cache is assumed";
        EXPECT_EQ(r.read_cache_bytes, 0u);
    }
}

TEST(ProbeCapacityThroughABridgeCache, OneLargerThanTheChecksMayRewriteIsLowConfidence)
{
    sim::Card card(params(matrix[0], 64 * MiB)); // the check rewrites at most a sixteenth: 4 MiB
    SimBlocks io(card);
    probe::CapacityOptions o;
    o.seed = 7;
    o.read_cache_bytes = 8 * MiB;
    const auto r = probe::probe_capacity(io, o);
    EXPECT_EQ(r.confidence, probe::Confidence::low);
    EXPECT_EQ(r.read_cache_bytes, 8 * MiB);
}
