// The read scrub (probe/scrub.h) on a worn simulated card, exactly: a weak
// region found at its offset and size, an unreadable page at its block,
// nothing written.
#include "probe/scrub.h"
#include "sim/card.h"
#include "sim/params.h"

#include <cerrno>
#include <gtest/gtest.h>
#include <system_error>
#include <vector>

using namespace mmc;
using namespace mmc::probe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

// The flash model as the scrub's ReadTimer: a read past the ECC is EIO, as
// the served device answers it.
class SimReadTimer : public ReadTimer {
public:
    explicit SimReadTimer(const sim::Params& p) : card(p) {}
    uint64_t size() const override { return card.size_bytes(); }
    uint32_t block() const override { return 512; }
    uint32_t max_read_bytes() const override { return 1 << 20; }
    double read_ns(uint64_t offset, uint32_t length) override
    {
        std::vector<uint8_t> buf(length);
        const uint64_t start = card.idle_at();
        try {
            return static_cast<double>(card.read(offset, buf, start) - start);
        } catch (const sim::RequestFailed& e) {
            throw std::system_error(EIO, std::generic_category(), e.what());
        }
    }
    sim::Card card;
};

sim::Params worn()
{
    sim::Params p = sim::default_params();
    p.size_bytes = 64 * MiB;
    p.page_bytes = 16 * KiB;
    p.au_bytes = 4 * MiB;
    return p;
}

ScrubOptions options()
{
    ScrubOptions o;
    o.request_bytes = 64 * KiB;
    o.region_bytes = MiB;
    return o;
}

} // namespace

TEST(ProbeScrub, AWeakRegionIsFoundAtItsOffset)
{
    sim::Params p = worn();
    p.wear.weak.push_back({20 * MiB, 2 * MiB, sim::max_read_retries}); // readable, at the ECC's limit
    SimReadTimer t(p);
    const ScrubResult r = run_scrub(t, options());
    ASSERT_EQ(r.regions.size(), 64u);
    EXPECT_EQ(r.bytes_read, 64 * MiB);
    ASSERT_EQ(r.slow_regions.size(), 1u);
    EXPECT_EQ(r.slow_regions[0].offset, 20 * MiB);
    EXPECT_EQ(r.slow_regions[0].size, 2 * MiB);
    // 64 KiB: command + 4 pages + bus, and 7 retries of each page on top.
    const double plain = t.card.predict_read(0, 64 * KiB);
    const double retries = 4.0 * sim::max_read_retries * static_cast<double>(p.timing.page_read_ns);
    EXPECT_DOUBLE_EQ(r.median_us, plain / 1e3);
    EXPECT_DOUBLE_EQ(r.slow_regions[0].factor, (plain + retries) / plain);
    EXPECT_DOUBLE_EQ(r.regions[20].p50_us, (plain + retries) / 1e3);
    EXPECT_TRUE(r.read_errors.empty());
    EXPECT_EQ(t.card.counters().writes.requests, 0u); // nothing written
}

TEST(ProbeScrub, AnUnreadablePageIsNamedByItsBlocks)
{
    sim::Params p = worn();
    p.wear.weak.push_back({40 * MiB + 32 * KiB, 16 * KiB, sim::max_read_retries + 1});
    SimReadTimer t(p);
    const ScrubResult r = run_scrub(t, options());
    ASSERT_EQ(r.read_error_count, 32u); // the page's 512-byte blocks
    EXPECT_EQ(r.read_errors.front(), 40 * MiB + 32 * KiB);
    EXPECT_EQ(r.read_errors.back(), 40 * MiB + 48 * KiB - 512);
    EXPECT_TRUE(r.slow_regions.empty());
}

TEST(ProbeScrub, AWornBlockReadsSlowerThanTheRest)
{
    // Half the rated life spent on AU 3: two steps on each page read.
    sim::Params p = worn();
    p.fat_area_bytes = 0;
    p.open_aus = 1;
    p.wear.endurance = 4;
    SimReadTimer t(p);
    const std::vector<uint8_t> data(4 * MiB, 0x5a);
    for (int pass = 0; pass < 3; ++pass) t.card.write(12 * MiB, data, t.card.idle_at());
    ScrubOptions o = options();
    o.slow_factor = 1.2;
    const ScrubResult r = run_scrub(t, o);
    ASSERT_EQ(r.slow_regions.size(), 1u);
    EXPECT_EQ(r.slow_regions[0].offset, 12 * MiB);
    EXPECT_EQ(r.slow_regions[0].size, 4 * MiB);
}

TEST(ProbeScrub, StopsBetweenReads)
{
    SimReadTimer t(worn());
    std::atomic<bool> stop{false};
    ScrubOptions o = options();
    o.stop = &stop;
    o.progress = [&](uint64_t done, uint64_t) {
        if (done == 3 * MiB) stop = true;
    };
    const ScrubResult r = run_scrub(t, o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.bytes_read, 3 * MiB);
}
