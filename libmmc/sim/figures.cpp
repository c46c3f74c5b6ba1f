#include "sim/figures.h"

#include "sim/ftl.h"
#include "sim/timing.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace mmc::sim {

namespace {

constexpr uint64_t MiB = 1 << 20;

// The storage reached without wrapping or limbo: figures are measured there.
uint64_t usable(const Params& p)
{
    const uint64_t real = real_size(p);
    const uint64_t module = (p.fake == Fake::wraparound || p.fake == Fake::chain) ? wrap_module(p) : real;
    return std::min(real, module);
}

// Skip the first AUs, as flashbench does (a file system's busiest area).
uint64_t first_offset(const Params& p) { return std::min<uint64_t>(4 * p.au_bytes, usable(p) / 2 / p.au_bytes * p.au_bytes); }

double per_second(uint64_t count, uint64_t ns) { return static_cast<double>(count) / (static_cast<double>(ns) / 1e9); }

// Writes go straight to an FTL: the same flash time a Card charges, without
// holding the data (a steady state over open AUs writes gigabytes).
class Writer {
public:
    Writer(const Params& p, StartState s) : p_(with_state(p, s)), ftl_(p_, usable(p_)) {}
    uint64_t write(uint64_t offset, uint64_t length)
    {
        uint64_t ns = transfer_ns(p_.timing, length);
        for (uint64_t at = offset; at < offset + length;) { // the FTL works inside one AU
            const uint64_t n = std::min(offset + length - at, (at / p_.au_bytes + 1) * p_.au_bytes - at);
            ns += ftl_.write(at, n, counters_);
            at += n;
        }
        return ns;
    }

private:
    static Params with_state(Params p, StartState s)
    {
        p.state = s;
        return p;
    }
    Params p_;
    Ftl ftl_;
    Counters counters_;
};

double seq_write_mb_s(const Params& p, StartState s)
{
    // Whole AUs written in order close as they fill, whatever the open-AU
    // count: four of them show the steady rate.
    Writer w(p, s);
    const uint64_t span = std::max<uint64_t>(std::min(4 * p.au_bytes, usable(p) - first_offset(p)) / MiB, 1) * MiB;
    uint64_t ns = 0;
    for (uint64_t at = first_offset(p); at < first_offset(p) + span; at += MiB) ns += w.write(at, MiB);
    return static_cast<double>(span) / (static_cast<double>(ns) / 1e9) / 1e6;
}

uint64_t random_offset(std::mt19937_64& rng, uint64_t first, uint64_t span) { return first + (rng() % (span / 4096)) * 4096; }

// 4 KiB random writes over [first, first + span) of a full card; the first
// `warmup` are not counted.
double random_write_iops(const Params& p, uint64_t first, uint64_t span, uint64_t count, uint64_t warmup)
{
    Writer w(p, StartState::full);
    std::mt19937_64 rng(p.seed);
    for (uint64_t i = 0; i < warmup; ++i) w.write(random_offset(rng, first, span), 4096);
    uint64_t ns = 0;
    for (uint64_t i = 0; i < count; ++i) ns += w.write(random_offset(rng, first, span), 4096);
    return per_second(count, ns);
}

} // namespace

Figures modelled_figures(const Params& p)
{
    validate(p);
    Figures f;
    if (p.fake == Fake::bad) return f; // no storage to measure
    const uint64_t first = first_offset(p), span = usable(p) - first;

    const uint64_t seq_span = std::max<uint64_t>(std::min<uint64_t>(16 * MiB, span) / MiB, 1) * MiB;
    uint64_t ns = 0;
    for (uint64_t at = first; at < first + seq_span; at += MiB) ns += read_service_ns(p, at, MiB);
    f.seq_read_mb_s = static_cast<double>(seq_span) / (static_cast<double>(ns) / 1e9) / 1e6;

    f.seq_write_mb_s_clean = seq_write_mb_s(p, StartState::clean);
    f.seq_write_mb_s_full = seq_write_mb_s(p, StartState::full);
    f.seq_write_mb_s_fragmented = seq_write_mb_s(p, StartState::fragmented);

    std::mt19937_64 rng(p.seed);
    ns = 0;
    for (int i = 0; i < 2000; ++i) ns += read_service_ns(p, random_offset(rng, first, span), 4096);
    f.rand_read_iops = per_second(2000, ns);

    // Steady state inside the open AUs: every log filled and merged twice.
    const uint64_t open_span = std::min<uint64_t>(p.open_aus * p.au_bytes, span);
    const uint64_t log_writes = std::max<uint64_t>(open_span / p.page_bytes, 1000);
    f.rand_write_iops_open_aus = random_write_iops(p, first, open_span, 2 * log_writes, log_writes);
    f.rand_write_iops_card = random_write_iops(p, first, span, 300, p.open_aus + 2);
    return f;
}

nlohmann::json to_json(const Figures& f)
{
    auto r = [](double v) { return std::round(v * 100) / 100; };
    return {{"seq_read_mb_s", r(f.seq_read_mb_s)},
            {"seq_write_mb_s_clean", r(f.seq_write_mb_s_clean)},
            {"seq_write_mb_s_full", r(f.seq_write_mb_s_full)},
            {"seq_write_mb_s_fragmented", r(f.seq_write_mb_s_fragmented)},
            {"rand_read_iops", r(f.rand_read_iops)},
            {"rand_write_iops_open_aus", r(f.rand_write_iops_open_aus)},
            {"rand_write_iops_card", r(f.rand_write_iops_card)}};
}

} // namespace mmc::sim
