// The modelled figures are what a Card serving the same workload takes.
#include "sim/card.h"
#include "sim/figures.h"

#include <gtest/gtest.h>
#include <vector>

using namespace mmc::sim;

namespace {
constexpr uint64_t MiB = 1 << 20;

Params small()
{
    Params p = default_params();
    p.size_bytes = 256 * MiB;
    return p;
}

// 1 MiB writes over 4 AUs from AU 4, on a Card in `state`, as a host
// delivers them: requests of 512 KiB.
double card_seq_write_mb_s(StartState state)
{
    Params p = small();
    p.state = state;
    Card c(p);
    std::vector<uint8_t> data(host_request_bytes, 1);
    uint64_t now = 0;
    for (uint64_t at = 4 * p.au_bytes; at < 8 * p.au_bytes; at += host_request_bytes) now = c.write(at, data, now);
    return 4.0 * p.au_bytes / (now / 1e9) / 1e6;
}
} // namespace

TEST(SimFigures, SequentialFiguresAreWhatTheCardTakes)
{
    const Figures f = modelled_figures(small());
    EXPECT_NEAR(f.seq_write_mb_s_clean, card_seq_write_mb_s(StartState::clean), 1e-6);
    EXPECT_NEAR(f.seq_write_mb_s_full, card_seq_write_mb_s(StartState::full), 1e-6);
    EXPECT_NEAR(f.seq_write_mb_s_fragmented, card_seq_write_mb_s(StartState::fragmented), 1e-6);
    Card c(small());
    const double two_requests_ns = c.predict_read(16 * MiB, MiB / 2) + c.predict_read(16 * MiB + MiB / 2, MiB / 2);
    EXPECT_NEAR(f.seq_read_mb_s, MiB / (two_requests_ns / 1e9) / 1e6, 1e-6);
    EXPECT_LT(f.seq_read_mb_s, MiB / (c.predict_read(16 * MiB, MiB) / 1e9) / 1e6) << "a command more per MiB than one 1 MiB request";
    EXPECT_NEAR(f.rand_read_iops, 1e9 / c.predict_read(16 * MiB, 4096), 1e-6); // 4 KiB never crosses a page here
}

TEST(SimFigures, ABadFakeHasNoFigures)
{
    Params p = small();
    p.fake = Fake::bad;
    const Figures f = modelled_figures(p);
    EXPECT_EQ(f.seq_read_mb_s, 0);
    EXPECT_EQ(to_json(f)["rand_write_iops_card"], 0);
}
