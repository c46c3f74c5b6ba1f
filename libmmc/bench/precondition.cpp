#include "bench/precondition.h"

#include "bench/engines/engine.h"
#include "bench/data.h"
#include "bench/runner.h"
// The erase precondition erases with mmc-erase's engine (one method
// choice, one executor). Safety is not taken from it: run_session has
// already resolved the device for writing (dev/resolver, its verdict) and asked
// before any precondition runs. This is bench's only include of erase/.
#include "erase/erase.h"

#include <cerrno>
#include <cstring>
#include <numeric>
#include <fmt/format.h>

namespace mmc::bench {

std::optional<PreconditionMethod> parse_precondition(std::string_view text)
{
    if (text == "none") return PreconditionMethod::none;
    if (text == "erase") return PreconditionMethod::erase;
    if (text == "fill") return PreconditionMethod::fill;
    if (text == "fragment") return PreconditionMethod::fragment;
    return std::nullopt;
}

std::string_view to_string(PreconditionMethod m)
{
    switch (m) {
    case PreconditionMethod::none: return "none";
    case PreconditionMethod::erase: return "erase";
    case PreconditionMethod::fill: return "fill";
    case PreconditionMethod::fragment: return "fragment";
    }
    return "none";
}

PreconditionResult fill_region(Target& target, const Region& region, const PreconditionControl& ctl)
{
    PreconditionResult r;
    r.method = PreconditionMethod::fill;
    r.region = region;
    MonotonicClock fallback;
    const Clock& clock = ctl.clock ? *ctl.clock : fallback;
    const uint64_t start = clock.now_ns();
    Job fill;
    fill.name = "precondition-fill";
    fill.rw = Rw{Pattern::sequential, Direction::write};
    fill.block_size = 4u << 20;
    while (fill.block_size > 512 && (fill.block_size > region.length || region.length % fill.block_size)) fill.block_size /= 2;
    fill.block_size = std::max<uint32_t>(fill.block_size, target.logical_block());
    fill.warmup_s = 0;
    fill.ci_target_pct = 0;
    fill.runtime_s = 1e9;
    fill.ios = region.length / fill.block_size;
    r.how = fmt::format("sequential {}-byte writes", fill.block_size);
    auto engine = make_engine(EngineKind::psync, target.fd(), 1, fill.block_size);
    RunControl rc;
    rc.clock = &clock;
    rc.stop = ctl.stop;
    if (ctl.progress) rc.on_progress = [&](const Progress& p) { ctl.progress(p.bytes, region.length); };
    const auto res = run_job(*engine, fill, region, rc);
    r.mb_s = res.mb_s;
    if (res.partial) {
        r.partial = true;
        r.error = res.error.empty() ? std::string(to_string(res.stop_reason)) : res.error;
    }
    r.seconds = static_cast<double>(clock.now_ns() - start) / 1e9;
    return r;
}

FragmentPlan fragment_plan(const Region& region, uint64_t au_bytes, uint32_t block, unsigned passes, uint64_t seed)
{
    if (au_bytes == 0 || block == 0 || au_bytes % block)
        throw std::invalid_argument(fmt::format("fragment: the AU ({} bytes) must be a whole number of {}-byte blocks", au_bytes, block));
    FragmentPlan plan;
    plan.au_bytes = au_bytes;
    plan.passes = passes;
    plan.block = block;
    // Whole AUs of the region only: the region is AU-aligned on a card.
    const uint64_t first_au = (region.offset + au_bytes - 1) / au_bytes;
    const uint64_t end_au = (region.offset + region.length) / au_bytes;
    plan.aus = end_au > first_au ? end_au - first_au : 0;
    if (plan.aus == 0) return plan;
    std::vector<uint64_t> order(plan.aus);
    std::iota(order.begin(), order.end(), first_au);
    Prng prng(seed);
    for (uint64_t i = plan.aus - 1; i > 0; --i) std::swap(order[i], order[prng.below(i + 1)]); // Fisher-Yates
    const uint64_t blocks_per_au = au_bytes / block;
    plan.offsets.reserve(plan.aus * passes);
    for (unsigned pass = 0; pass < passes; ++pass)
        for (uint64_t au : order) {
            const uint64_t in_au = blocks_per_au > 1 ? 1 + prng.below(blocks_per_au - 1) : 0;
            plan.offsets.push_back(au * au_bytes + in_au * block);
        }
    return plan;
}

PreconditionResult fragment_region(Target& target, const Region& region, uint64_t au_bytes, const PreconditionControl& ctl)
{
    PreconditionResult r;
    r.method = PreconditionMethod::fragment;
    r.region = region;
    MonotonicClock fallback;
    const Clock& clock = ctl.clock ? *ctl.clock : fallback;
    const uint64_t start = clock.now_ns();
    const uint32_t block = std::max<uint32_t>(fragment_block, target.logical_block());
    const FragmentPlan plan = fragment_plan(region, au_bytes, block, fragment_passes, fresh_seed());
    r.aus = plan.aus;
    r.passes = plan.passes;
    r.how = fmt::format("{} {}-byte writes, {} per AU over {} AUs of {} bytes", plan.offsets.size(), block, plan.passes,
                        plan.aus, au_bytes);
    auto engine = make_engine(EngineKind::psync, target.fd(), 1, block);
    Prng prng(fresh_seed());
    const std::span<std::byte> buf(engine->buffer(0), block);
    fill_random(buf, prng);
    for (std::size_t i = 0; i < plan.offsets.size(); ++i) {
        if (ctl.stop && ctl.stop->load()) {
            r.partial = true;
            r.error = "interrupted";
            break;
        }
        stamp_sectors(buf, i, prng);
        engine->queue({plan.offsets[i], block, 0, true});
        IoResult done[1];
        engine->reap(done, 1);
        if (done[0].result < 0) {
            r.partial = true;
            r.error = fmt::format("write at {}: {}", plan.offsets[i], std::strerror(static_cast<int>(-done[0].result)));
            break;
        }
        ++r.writes;
        if (ctl.progress) ctl.progress((i + 1) * block, plan.offsets.size() * block);
    }
    r.seconds = static_cast<double>(clock.now_ns() - start) / 1e9;
    return r;
}

PreconditionResult erase_region(const std::string& device, const Region& region, const PreconditionControl& ctl)
{
    PreconditionResult r;
    r.method = PreconditionMethod::erase;
    r.region = region;
    erase::Options eo;
    eo.any_device = ctl.any_device;
    eo.au_bytes = ctl.au_bytes;
    eo.au_source = "the benchmark's AU";
    eo.roots = ctl.roots;
    eo.safety.sysfs = ctl.roots.sysfs;
    static const std::atomic<bool> never{false};
    const std::atomic<bool>& stop = ctl.stop ? *ctl.stop : never;
    try {
        const auto prepared = erase::prepare(device, erase::Range{region.offset, region.length}, erase::Method::automatic, eo);
        r.how = prepared.command.empty() ? std::string(erase::to_string(prepared.selection.method)) : prepared.command;
        r.region = {prepared.plan.aligned.offset, prepared.plan.aligned.length};
        const auto report = erase::execute(
            prepared, [&](const erase::Progress& p) { if (ctl.progress) ctl.progress(p.done_bytes, p.total_bytes); }, stop);
        r.seconds = report.seconds;
        r.region = {report.erased.offset, report.erased.length};
        if (report.interrupted) {
            r.partial = true;
            r.error = "interrupted";
        } else if (!report.error.empty()) {
            r.partial = true;
            r.error = report.error;
        }
    } catch (const std::exception& e) {
        r.partial = true;
        r.error = e.what();
    }
    return r;
}

} // namespace mmc::bench
