// The full write-and-verify (probe/verify.h) on simulated cards, exactly:
// a genuine card passes; a wraparound, a limbo and a card that starts losing
// writes are each named with the right first bad address; a read error is
// found at its sector.
#include "probe/verify.h"
#include "sim_verify_target.h"
#include "sim/card.h"
#include "sim/params.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc;
using namespace mmc::probe;
using mmc::test::SimVerifyTarget;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

sim::Params small_card()
{
    sim::Params p = sim::default_params();
    p.size_bytes = 64 * MiB;
    p.page_bytes = 16 * KiB;
    p.au_bytes = 4 * MiB;
    p.open_aus = 1;
    p.fat_area_bytes = 0;
    return p;
}

VerifyOptions options()
{
    VerifyOptions o;
    o.pass = 0x1234;
    o.stripe_bytes = 4 * MiB;
    o.request_bytes = MiB;
    return o;
}

} // namespace

TEST(ProbeVerify, AGenuineCardIsOk)
{
    SimVerifyTarget t(small_card());
    const VerifyResult r = run_verify(t, options());
    EXPECT_EQ(r.verdict, VerifyVerdict::ok);
    EXPECT_FALSE(r.first_bad_offset);
    EXPECT_EQ(r.real_capacity, 64 * MiB);
    EXPECT_EQ(r.bytes_written, 64 * MiB);
    EXPECT_EQ(r.bytes_verified, 64 * MiB);
    EXPECT_EQ(t.writes, 64u); // whole requests
    // Every AU written front to back in whole: one erase-free opening each, no copies.
    EXPECT_EQ(t.card.counters().pages_copied, 0u);
}

TEST(ProbeVerify, AWraparoundFakeFailsWhereItsStorageEnds)
{
    sim::Params p = small_card();
    p.fake = sim::Fake::wraparound;
    p.real_size_bytes = 16 * MiB;
    SimVerifyTarget t(p);
    const VerifyResult r = run_verify(t, options());
    EXPECT_EQ(r.verdict, VerifyVerdict::fake);
    ASSERT_TRUE(r.first_bad_offset);
    EXPECT_EQ(*r.first_bad_offset, 16 * MiB);
    EXPECT_EQ(r.first_bad_kind, FaultKind::aliasing);
    EXPECT_EQ(r.first_bad_holds, 0u); // the address it wraps onto, written last
    EXPECT_EQ(r.real_capacity, 16 * MiB);
    EXPECT_EQ(r.aliased_bytes, 48 * MiB);
}

TEST(ProbeVerify, ALimboFakeFailsWhereItsStorageEnds)
{
    sim::Params p = small_card();
    p.fake = sim::Fake::limbo;
    p.real_size_bytes = 24 * MiB;
    SimVerifyTarget t(p);
    const VerifyResult r = run_verify(t, options());
    EXPECT_EQ(r.verdict, VerifyVerdict::fake);
    ASSERT_TRUE(r.first_bad_offset);
    EXPECT_EQ(*r.first_bad_offset, 24 * MiB);
    EXPECT_EQ(r.first_bad_kind, FaultKind::lost);
    EXPECT_EQ(r.real_capacity, 24 * MiB);
    EXPECT_EQ(r.lost_bytes, 40 * MiB);
}

TEST(ProbeVerify, ACardThatStartsLosingWritesIsNotAFake)
{
    // A used card (every block holds data) whose blocks wear out at their
    // first erase, with two spares: the stripes are written from the top,
    // AU 15 and 14 take the spares, opening AU 13 wears the card out and
    // from its second request on every write is acknowledged and lost.
    sim::Params p = small_card();
    p.state = sim::StartState::full;
    p.wear.endurance = 1;
    p.wear.spare_blocks = 2;
    p.wear.end_of_life = sim::EndOfLife::lose_writes;
    SimVerifyTarget t(p);
    const VerifyResult r = run_verify(t, options());
    EXPECT_EQ(r.verdict, VerifyVerdict::lost_writes);
    ASSERT_TRUE(r.first_bad_offset);
    EXPECT_EQ(*r.first_bad_offset, 0u);
    EXPECT_EQ(r.first_bad_kind, FaultKind::lost);
    EXPECT_EQ(r.lost_bytes, 52 * MiB + 3 * MiB); // below AU 13, and AU 13 past its first request
    EXPECT_EQ(r.real_capacity, 64 * MiB);
    EXPECT_EQ(t.card.counters().wear.lost_writes, 55u);
}

TEST(ProbeVerify, AnUnreadableSectorIsAReadErrorAtItsOffset)
{
    sim::Params p = small_card();
    p.wear.weak.push_back({40 * MiB + 48 * KiB, 16 * KiB, sim::max_read_retries + 1});
    SimVerifyTarget t(p);
    const VerifyResult r = run_verify(t, options());
    EXPECT_EQ(r.verdict, VerifyVerdict::read_errors);
    ASSERT_TRUE(r.first_bad_offset);
    EXPECT_EQ(*r.first_bad_offset, 40 * MiB + 48 * KiB);
    EXPECT_EQ(r.first_bad_kind, FaultKind::read_error);
    EXPECT_EQ(r.read_error_bytes, 16 * KiB);
    EXPECT_EQ(r.real_capacity, 64 * MiB);
}

TEST(ProbeVerify, EachSectorReadBackWrongIsNamed)
{
    std::vector<uint8_t> s(verify_sector_bytes);
    uint64_t holds = 0;
    verify_pattern(7, 4096, s);
    EXPECT_FALSE(check_sector(7, 4096, s, &holds));
    EXPECT_EQ(check_sector(7, 8192, s, &holds), FaultKind::aliasing);
    EXPECT_EQ(holds, 4096u);
    EXPECT_EQ(check_sector(8, 4096, s, &holds), FaultKind::lost); // an older pass's data
    s[100] ^= 0x04;
    EXPECT_EQ(check_sector(7, 4096, s, &holds), FaultKind::corrupt);
    std::fill(s.begin(), s.end(), 0);
    EXPECT_EQ(check_sector(7, 4096, s, &holds), FaultKind::lost);
}

TEST(ProbeVerify, AFileSystemsFillEndsWhereTheSpaceDoes)
{
    // An ascending fill whose space ends early: verified up to there.
    class Short : public SimVerifyTarget {
    public:
        using SimVerifyTarget::SimVerifyTarget;
        bool write(uint64_t offset, std::span<const uint8_t> data) override
        {
            return offset < 10 * MiB && SimVerifyTarget::write(offset, data);
        }
    } t(small_card());
    VerifyOptions o = options();
    o.descending = false;
    const VerifyResult r = run_verify(t, o);
    EXPECT_EQ(r.verdict, VerifyVerdict::ok);
    EXPECT_EQ(r.size, 10 * MiB);
    EXPECT_EQ(r.bytes_verified, 10 * MiB);
}

TEST(ProbeVerify, StopsBetweenRequests)
{
    SimVerifyTarget t(small_card());
    std::atomic<bool> stop{false};
    VerifyOptions o = options();
    o.stop = &stop;
    o.progress = [&](const VerifyProgress& p) {
        if (p.done == 5 * MiB) stop = true;
    };
    const VerifyResult r = run_verify(t, o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.bytes_written, 5 * MiB);
    EXPECT_EQ(r.bytes_verified, 0u);
}
