#include "bench/sustained_classes.h"

#include "cli/size.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::bench {

namespace sustained_au {

// Why the AU was slow: its longest write when that write took more than
// stall_factor times the AU's even share of time per write.
std::string slow_because(const AuSpeed& au, const SustainedOptions& o)
{
    const double share_ms = au.seconds * 1e3 / static_cast<double>(std::max<uint64_t>(au.writes, 1));
    if (au.writes > 1 && au.slowest_write_ms >= o.stall_factor * share_ms)
        return fmt::format("a {:.0f} ms stall at {}", au.slowest_write_ms, cli::format_bytes(au.slowest_written_before));
    return "its writes were uniformly slow";
}

} // namespace sustained_au

using namespace sustained_au;

std::vector<AuSpeed> au_speeds(std::span<const WriteSample> t, uint64_t au_bytes)
{
    std::vector<AuSpeed> out;
    if (au_bytes == 0) return out;
    uint64_t written = 0;
    std::size_t i = 0;
    while (i < t.size()) {
        const uint64_t au = t[i].offset / au_bytes;
        const bool starts_at_boundary = t[i].offset % au_bytes == 0;
        AuSpeed s;
        s.index = au;
        s.written_before = written;
        const uint64_t start = t[i].start_ns;
        uint64_t bytes = 0, slowest = 0, slowest_at = written, done = start, writes = 0;
        for (; i < t.size() && t[i].offset / au_bytes == au; ++i) {
            if (t[i].latency_ns() > slowest) {
                slowest = t[i].latency_ns();
                slowest_at = written;
            }
            bytes += t[i].bytes;
            ++writes;
            written += t[i].bytes;
            done = t[i].done_ns;
        }
        if (!starts_at_boundary || bytes != au_bytes || done == start) continue; // not a whole AU
        s.seconds = static_cast<double>(done - start) / 1e9;
        s.writes = writes;
        s.mb_s = static_cast<double>(bytes) / s.seconds / 1e6;
        s.slowest_write_ms = static_cast<double>(slowest) / 1e6;
        s.slowest_written_before = slowest_at;
        out.push_back(s);
    }
    return out;
}

std::optional<AuSpeed> slowest_au(std::span<const AuSpeed> aus)
{
    std::optional<AuSpeed> lo;
    for (const auto& a : aus)
        if (!lo || a.mb_s < lo->mb_s) lo = a;
    return lo;
}

std::vector<Verdict> sustained_class_verdicts(std::span<const AuSpeed> aus, const SuiteFacts& f, bool aus_free,
                                              const SustainedOptions& o)
{
    std::vector<Verdict> out;
    if (!f.sd_card) return out;
    const auto lo = slowest_au(aus);
    const Measured m = lo ? Measured{lo->mb_s, {}} : Measured{std::nullopt, "no whole AU was written"};
    const std::string how = " (slowest AU, spec method)";
    if (!f.claims.known) {
        out.push_back(not_applicable("speed class" + how, std::nullopt, VerdictUnit::mb_s, m,
                                     "the card's claims are unknown: " + f.claims_missing_why));
        return out;
    }
    const auto claims = f.claims.speed_claims();
    if (claims.empty()) {
        out.push_back(not_applicable("speed class" + how, std::nullopt, VerdictUnit::mb_s, m,
                                     "the card makes no speed class, UHS grade or video class claim"));
        return out;
    }
    for (const auto& [name, need] : claims) {
        Verdict v = judge_mb_s(name + how, need, m, f.bus);
        if (v.result == VerdictResult::fail && lo) {
            v.why = fmt::format("AU {}: {:.1f} MB/s < {:.0f}: {}; {}", lo->index, lo->mb_s, need, slow_because(*lo, o),
                                v.why);
        }
        if (!aus_free && v.result != VerdictResult::not_applicable)
            v.why += "; the AUs were not erased first (the spec measures free AUs: erase the region before the run to measure as it does)";
        out.push_back(v);
    }
    return out;
}

} // namespace mmc::bench
