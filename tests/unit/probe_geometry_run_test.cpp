// probe_geometry, the call mmc-probe geometry and mmc-qualify's geometry step
// make, on the flash model (virtual time): read-only by default, a dry run
// that only says what it would write, the open-AU test only once approved
// (and the card as it was afterwards), a stop that ends it interrupted.
#include "probe/geometry_run.h"
#include "probe_sim_device.h"
#include "sim/params.h"

#include <gtest/gtest.h>
#include <memory>

using namespace mmc::probe;

namespace {

constexpr uint64_t KiB = 1024, MiB = 1024 * KiB;

using SimCard = mmc::test::SimProbeDevice;

mmc::sim::Params card()
{
    auto p = mmc::sim::default_params();
    p.size_bytes = 64 * MiB;
    p.page_bytes = 4 * KiB;
    p.au_bytes = 1 * MiB;
    p.open_aus = 4;
    p.state = mmc::sim::StartState::full;
    return p;
}

// The card's write seam, lent to probe_geometry (which owns what it opens).
class Lent : public WriteDevice {
public:
    explicit Lent(SimCard& c) : c_(c) {}
    uint64_t size() const override { return c_.size(); }
    void read(uint64_t offset, std::span<uint8_t> out) override { c_.read(offset, out); }
    double write_ns(uint64_t offset, std::span<const uint8_t> data) override { return c_.write_ns(offset, data); }
    double flush_ns() override { return c_.flush_ns(); }

private:
    SimCard& c_;
};

struct SimRun {
    SimCard dev{card()};
    ProbedDevice device{"sim", "sim", std::nullopt, std::nullopt, "a simulated card", false};
    int opened = 0;
    GeometryReport operator()(const GeometryRunOptions& o)
    {
        return probe_geometry(device, dev, [&] { ++opened; return std::make_unique<Lent>(dev); }, o);
    }
};

} // namespace

TEST(ProbeGeometryRun, ReadOnlyByDefault)
{
    SimRun run;
    const auto r = run({});
    ASSERT_TRUE(r.geometry.page_bytes && r.geometry.au_bytes);
    EXPECT_EQ(*r.geometry.page_bytes, 4 * KiB);
    EXPECT_EQ(*r.geometry.au_bytes, 1 * MiB);
    EXPECT_FALSE(r.open);
    EXPECT_FALSE(r.interrupted);
    EXPECT_EQ(run.opened, 0) << "opened for writing";
    EXPECT_FALSE(r.claims.card); // no card: every claim unknown
}

TEST(ProbeGeometryRun, DryRunSaysWhatItWouldWriteAndWritesNothing)
{
    SimRun run;
    GeometryRunOptions o;
    o.open_aus = true;
    o.dry_run = true;
    o.approve_writes = [](const WritePlan&, const Geometry&) {
        ADD_FAILURE() << "a dry run asked to write";
        return true;
    };
    const auto r = run(o);
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_EQ(r.notes[0].rfind("dry run: the open-AU test would write ", 0), 0u) << r.notes[0];
    EXPECT_FALSE(r.open);
    EXPECT_EQ(run.opened, 0);
}

TEST(ProbeGeometryRun, OpenAuTestOnlyWhenApprovedAndTheCardIsPutBack)
{
    SimRun refused;
    GeometryRunOptions o;
    o.open_aus = true;
    int asked = 0;
    o.approve_writes = [&](const WritePlan& plan, const Geometry& g) {
        ++asked;
        EXPECT_GT(plan.max_trial, 0u);
        EXPECT_EQ(*g.au_bytes, 1 * MiB);
        return false;
    };
    const auto before = refused.dev.contents(64 * MiB);
    EXPECT_FALSE(refused(o).open);
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(refused.dev.contents(64 * MiB) == before);

    SimRun approved;
    o.approve_writes = [](const WritePlan&, const Geometry&) { return true; };
    const auto r = approved(o);
    ASSERT_TRUE(r.open);
    EXPECT_TRUE(r.open->restored);
    EXPECT_GT(r.open->bytes_written, 0u);
    EXPECT_TRUE(approved.dev.contents(64 * MiB) == before);
}

TEST(ProbeGeometryRun, WithoutApprovalNothingIsWritten)
{
    SimRun run;
    GeometryRunOptions o;
    o.open_aus = true; // no approve_writes: refused
    EXPECT_FALSE(run(o).open);
}

TEST(ProbeGeometryRun, AStopEndsItInterrupted)
{
    SimRun run;
    std::atomic<bool> stop{true};
    GeometryRunOptions o;
    o.open_aus = true;
    o.stop = &stop;
    o.approve_writes = [](const WritePlan&, const Geometry&) {
        ADD_FAILURE() << "asked to write after a stop";
        return true;
    };
    const auto r = run(o);
    EXPECT_TRUE(r.interrupted);
    EXPECT_FALSE(r.open);
}
