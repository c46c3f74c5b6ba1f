#include "bench/precondition.h"

#include "bench/engines/engine.h"
#include "bench/runner.h"
#include "erase/erase.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace mmc::bench {

std::optional<PreconditionMethod> parse_precondition(std::string_view text)
{
    if (text == "none") return PreconditionMethod::none;
    if (text == "erase") return PreconditionMethod::erase;
    if (text == "fill") return PreconditionMethod::fill;
    return std::nullopt;
}

std::string_view to_string(PreconditionMethod m)
{
    switch (m) {
    case PreconditionMethod::none: return "none";
    case PreconditionMethod::erase: return "erase";
    case PreconditionMethod::fill: return "fill";
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
    auto engine = make_engine("psync", target.fd(), 1, fill.block_size);
    RunControl rc;
    rc.clock = &clock;
    rc.stop = ctl.stop;
    if (ctl.progress) rc.on_progress = [&](const Progress& p) { ctl.progress(p.bytes, region.length); };
    const auto res = run_job(*engine, fill, region, rc);
    r.mb_s = res.mb_s;
    if (res.partial) {
        r.partial = true;
        r.error = res.error.empty() ? res.stop_reason : res.error;
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
