#include "sim/figures.h"

#include "sim/flash_writes.h"
#include "sim/timing.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>
#include <stdexcept>

namespace mmc::sim {

namespace {

// The storage reached without wrapping or limbo: figures are measured there.
uint64_t usable(const Params& p)
{
    const uint64_t real = real_size(p);
    const uint64_t module = (p.fake == Fake::wraparound || p.fake == Fake::chain) ? wrap_module(p) : real;
    return std::min(real, module);
}

// Four AUs in, and past the FAT area, as flashbench's tests start (16 MiB
// in "to skip FAT"): the figures are the open-AU scheme's.
uint64_t first_offset(const Params& p)
{
    const uint64_t past_fat = (p.fat_area_bytes + p.au_bytes - 1) / p.au_bytes * p.au_bytes;
    return std::min<uint64_t>(std::max<uint64_t>(4 * p.au_bytes, past_fat), usable(p) / 2 / p.au_bytes * p.au_bytes);
}

// The measured area, or a clear refusal (a bad fake, a block beyond it).
uint64_t area(const Params& p, uint64_t block)
{
    validate(p);
    const uint64_t room = usable(p) - std::min(usable(p), first_offset(p));
    if (block == 0 || block % 512 || block > room)
        throw std::invalid_argument("figures: the block must be whole sectors and fit the card's real storage");
    return room;
}

double mb_s(uint64_t bytes, uint64_t ns) { return static_cast<double>(bytes) / (static_cast<double>(ns) / 1e9) / 1e6; }
double per_second(uint64_t count, uint64_t ns) { return static_cast<double>(count) / (static_cast<double>(ns) / 1e9); }

// Writes go straight to the flash (flash_writes.h): the time a Card
// charges, back to back, without holding the data (a steady state over
// open AUs writes gigabytes).
class Writer {
public:
    Writer(const Params& p, StartState s) : p_(with_state(p, s)), flash_(p_, usable(p_)) {}
    uint64_t write(uint64_t offset, uint64_t length)
    {
        const auto work = flash_.write(
            [&](auto f) {
                for (uint64_t at = offset; at < offset + length;) { // the FTL works inside one AU
                    const uint64_t n = std::min(offset + length - at, (at / p_.au_bytes + 1) * p_.au_bytes - at);
                    f(at, n);
                    at += n;
                }
            },
            counters_, {now_, offset, counters_.writes.bytes, 0});
        const uint64_t ns = transfer_ns(p_.timing, length) + work.ns + work.stall_ns;
        counters_.writes.bytes += length;
        now_ += ns;
        return ns;
    }
    const Counters& counters() const { return counters_; }
    // A discard of whole pages (partial pages are left): the FTL's cost.
    uint64_t discard(uint64_t offset, uint64_t length)
    {
        uint64_t ns = 0;
        for (uint64_t at = offset; at < offset + length;) {
            const uint64_t n = std::min(offset + length - at, (at / p_.au_bytes + 1) * p_.au_bytes - at);
            ns += flash_.ftl().discard(at, n, counters_, [](uint64_t) {});
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
    FlashWrites flash_;
    Counters counters_;
    uint64_t now_ = 0; // virtual time: the writes back to back
};

uint64_t random_offset(std::mt19937_64& rng, uint64_t first, uint64_t span, uint64_t block)
{
    return first + (rng() % (span / block)) * block;
}

} // namespace

double sequential_read_mb_s(const Params& p, uint64_t block)
{
    const uint64_t count = std::max<uint64_t>(1, std::min(area(p, block), uint64_t{64} << 20) / block);
    uint64_t ns = 0;
    for (uint64_t i = 0; i < count; ++i) ns += read_service_ns(p, first_offset(p) + i * block, block);
    return mb_s(count * block, ns);
}

double sequential_write_mb_s(const Params& p, StartState s, uint64_t block)
{
    // Whole AUs written in order close as they fill, whatever the open-AU
    // count: four of them show the steady rate.
    const uint64_t count = std::max<uint64_t>(1, std::min(area(p, block), 4 * p.au_bytes) / block);
    Writer w(p, s);
    uint64_t ns = 0;
    for (uint64_t i = 0; i < count; ++i) ns += w.write(first_offset(p) + i * block, block);
    return mb_s(count * block, ns);
}

double random_read_iops(const Params& p, uint64_t block)
{
    const uint64_t span = area(p, block);
    std::mt19937_64 rng(p.seed);
    uint64_t ns = 0;
    for (int i = 0; i < 2000; ++i) ns += read_service_ns(p, random_offset(rng, first_offset(p), span, block), block);
    return per_second(2000, ns);
}

double random_write_iops(const Params& p, uint64_t span, uint64_t block)
{
    span = std::min(span, area(p, block));
    if (span < block) throw std::invalid_argument("figures: the span is smaller than one block");
    // Warm up until every open AU's log has filled once, then count as many
    // again; over a large span each write is its own merge and 300 do.
    const uint64_t open_span = std::min<uint64_t>(span, uint64_t{p.open_aus} * p.au_bytes);
    const uint64_t writes = span <= uint64_t{p.open_aus} * p.au_bytes
                                ? std::max<uint64_t>(2 * open_span / std::min<uint64_t>(block, p.page_bytes), 2000)
                                : 300;
    const uint64_t warmup = span <= uint64_t{p.open_aus} * p.au_bytes ? writes : p.open_aus + 2;
    Writer w(p, StartState::full);
    std::mt19937_64 rng(p.seed);
    for (uint64_t i = 0; i < warmup; ++i) w.write(random_offset(rng, first_offset(p), span, block), block);
    uint64_t ns = 0;
    for (uint64_t i = 0; i < writes; ++i) ns += w.write(random_offset(rng, first_offset(p), span, block), block);
    return per_second(writes, ns);
}

double sequential_write_mb_s_after_discard(const Params& p, StartState s, uint64_t block, int64_t discard_offset,
                                           uint64_t discard_length)
{
    const uint64_t length = std::min(area(p, block), 4 * p.au_bytes) / block * block;
    if (length == 0) throw std::invalid_argument("figures: no whole block in the measured area");
    Writer w(p, s);
    if (discard_length) {
        const int64_t at = static_cast<int64_t>(first_offset(p)) + discard_offset;
        if (at < 0 || static_cast<uint64_t>(at) + discard_length > usable(p))
            throw std::invalid_argument("figures: the discard lies outside the card's storage");
        w.discard(static_cast<uint64_t>(at), discard_length);
    }
    uint64_t ns = 0;
    for (uint64_t off = 0; off < length; off += block) ns += w.write(first_offset(p) + off, block);
    return mb_s(length, ns);
}

double random_write_iops_first(const Params& p, StartState s, uint64_t block, uint64_t writes)
{
    const uint64_t span = area(p, block);
    Writer w(p, s);
    std::mt19937_64 rng(p.seed);
    uint64_t ns = 0;
    for (uint64_t i = 0; i < writes; ++i) ns += w.write(random_offset(rng, first_offset(p), span, block), block);
    return per_second(writes, ns);
}

Figures modelled_figures(const Params& p)
{
    validate(p);
    Figures f;
    if (usable(p) < 2 * p.au_bytes) return f; // a bad fake: no storage to measure
    const uint64_t rq = host_request_bytes, au = p.au_bytes;
    f.seq_read_mb_s = sequential_read_mb_s(p, rq);
    f.seq_write_mb_s_clean = sequential_write_mb_s(p, StartState::clean, rq);
    f.seq_write_mb_s_full = sequential_write_mb_s(p, StartState::full, rq);
    f.seq_write_mb_s_fragmented = sequential_write_mb_s(p, StartState::fragmented, rq);
    f.rand_read_iops = random_read_iops(p, 4096);
    f.rand_write_iops_open_aus = random_write_iops(p, uint64_t{p.open_aus} * p.au_bytes, 4096);
    f.rand_write_iops_card = random_write_iops(p, p.size_bytes, 4096);
    auto& q = f.premise;
    if (area(p, 4096) >= 5 * au && au % rq == 0) { // four AUs and the half-AU shift fit
        q.seq_write_mb_s_clean = sequential_write_mb_s_after_discard(p, StartState::clean, rq, 0, 0);
        q.seq_write_mb_s_full = sequential_write_mb_s_after_discard(p, StartState::full, rq, 0, 0);
        q.seq_write_mb_s_fragmented = sequential_write_mb_s_after_discard(p, StartState::fragmented, rq, 0, 0);
        q.seq_write_mb_s_fragmented_erased = sequential_write_mb_s_after_discard(p, StartState::fragmented, rq, 0, 4 * au);
        q.seq_write_mb_s_fragmented_erased_half_au =
            // mmc-erase of four AUs shifted by half an AU discards the three whole AUs inside.
            sequential_write_mb_s_after_discard(p, StartState::fragmented, rq, static_cast<int64_t>(au), 3 * au);
        q.rand_write_iops_first_clean = random_write_iops_first(p, StartState::clean, 4096, premise_random_writes);
        q.rand_write_iops_first_full = random_write_iops_first(p, StartState::full, 4096, premise_random_writes);
        q.rand_write_iops_first_fragmented = random_write_iops_first(p, StartState::fragmented, 4096, premise_random_writes);
    }
    return f;
}

uint64_t knee_bytes(const Params& p, uint64_t request, uint64_t gap_ns)
{
    const uint64_t cache = p.sustained.slc_cache_bytes;
    if (cache == 0 || request == 0) return 0;
    // As SlcCache::idle folds: whole bytes.
    const uint64_t folding = gap_ns > p.sustained.slc_fold_after_ns ? gap_ns - p.sustained.slc_fold_after_ns : 0;
    const uint64_t f = static_cast<uint64_t>(std::floor(static_cast<double>(folding) * slc_fold_rate(p) / 1e9));
    if (f >= request) return cache <= request ? cache : 0;
    // After k requests (k - 1 gaps) the cache holds k * request - (k - 1) * f
    // until it is full; the k-th fills it, and the knee is the bytes written then.
    const uint64_t k = cache <= request ? 1 : (cache - f + (request - f) - 1) / (request - f);
    return cache + (k - 1) * f;
}

SustainedFigures sustained_figures(const Params& p)
{
    validate(p);
    SustainedFigures f;
    const uint64_t rq = host_request_bytes;
    const uint64_t pages = (rq + p.page_bytes - 1) / p.page_bytes;
    const bool cache = p.sustained.slc_cache_bytes != 0;
    f.knee_bytes = knee_bytes(p, rq, 0);
    f.post_cache_mb_s = mb_s(rq, transfer_ns(p.timing, rq) + program_ns(p, 0, rq, pages));
    f.burst_mb_s = cache ? mb_s(rq, transfer_ns(p.timing, rq) + program_ns(p, rq, 0, pages)) : f.post_cache_mb_s;
    f.recovery_bytes_per_s = cache ? slc_fold_rate(p) : 0;
    const uint64_t length = usable(p) / rq * rq;
    if (length == 0) return f;
    for (StartState s : {StartState::clean, StartState::full, StartState::fragmented}) {
        Writer w(p, s);
        std::vector<uint64_t> au_ns(length / p.au_bytes + 1, 0);
        for (uint64_t at = 0; at < length; at += rq) au_ns[at / p.au_bytes] += w.write(at, rq);
        const GcStalls& g = w.counters().gc_stalls;
        auto& out = s == StartState::clean ? f.clean : s == StartState::full ? f.full : f.fragmented;
        out.count = g.count;
        out.longest_ns = g.longest.ns;
        if (g.count) out.first_at_bytes = g.first.front().bytes_before;
        if (g.first.size() >= 2) // over the stalls the counters kept
            out.every_bytes = (g.first.back().bytes_before - g.first.front().bytes_before) / (g.first.size() - 1);
        if (s != StartState::clean) continue;
        f.worst_au_mb_s = -1;
        for (uint64_t au = 0; au < length / p.au_bytes; ++au) { // whole AUs only
            const double v = mb_s(p.au_bytes, au_ns[au]);
            if (f.worst_au_mb_s < 0 || v < f.worst_au_mb_s) {
                f.worst_au_mb_s = v;
                f.worst_au_offset = au * p.au_bytes;
            }
        }
        if (f.worst_au_mb_s < 0) f.worst_au_mb_s = 0;
    }
    return f;
}

nlohmann::json to_json(const SustainedFigures& f)
{
    auto r = [](double v) { return std::round(v * 100) / 100; };
    auto stalls = [](const SustainedFigures::Stalls& s) {
        return nlohmann::json{{"count", s.count},
                              {"first_at_bytes", s.count ? nlohmann::json(s.first_at_bytes) : nlohmann::json(nullptr)},
                              {"every_bytes", s.every_bytes ? nlohmann::json(s.every_bytes) : nlohmann::json(nullptr)},
                              {"longest_ns", s.longest_ns}};
    };
    return {{"request_bytes", host_request_bytes},
            {"knee_bytes", f.knee_bytes ? nlohmann::json(f.knee_bytes) : nlohmann::json(nullptr)},
            {"burst_mb_s", r(f.burst_mb_s)},
            {"post_cache_mb_s", r(f.post_cache_mb_s)},
            {"recovery_bytes_per_s", r(f.recovery_bytes_per_s)},
            {"gc_stalls", {{"clean", stalls(f.clean)}, {"full", stalls(f.full)}, {"fragmented", stalls(f.fragmented)}}},
            {"worst_au_mb_s", r(f.worst_au_mb_s)},
            {"worst_au_offset", f.worst_au_offset}};
}

nlohmann::json to_json(const Figures& f)
{
    auto r = [](double v) { return std::round(v * 100) / 100; };
    return {{"request_bytes", host_request_bytes},
            {"seq_read_mb_s", r(f.seq_read_mb_s)},
            {"seq_write_mb_s_clean", r(f.seq_write_mb_s_clean)},
            {"seq_write_mb_s_full", r(f.seq_write_mb_s_full)},
            {"seq_write_mb_s_fragmented", r(f.seq_write_mb_s_fragmented)},
            {"rand_read_iops", r(f.rand_read_iops)},
            {"rand_write_iops_open_aus", r(f.rand_write_iops_open_aus)},
            {"rand_write_iops_card", r(f.rand_write_iops_card)},
            {"premise",
             {{"request_bytes", host_request_bytes},
              {"seq_write_mb_s_clean", r(f.premise.seq_write_mb_s_clean)},
              {"seq_write_mb_s_full", r(f.premise.seq_write_mb_s_full)},
              {"seq_write_mb_s_fragmented", r(f.premise.seq_write_mb_s_fragmented)},
              {"seq_write_mb_s_fragmented_erased", r(f.premise.seq_write_mb_s_fragmented_erased)},
              {"seq_write_mb_s_fragmented_erased_half_au", r(f.premise.seq_write_mb_s_fragmented_erased_half_au)},
              {"random_writes", premise_random_writes},
              {"rand_write_iops_first_clean", r(f.premise.rand_write_iops_first_clean)},
              {"rand_write_iops_first_full", r(f.premise.rand_write_iops_first_full)},
              {"rand_write_iops_first_fragmented", r(f.premise.rand_write_iops_first_fragmented)}}}};
}

} // namespace mmc::sim
