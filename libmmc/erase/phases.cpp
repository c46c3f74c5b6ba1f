#include "erase/phases.h"

#include <chrono>

namespace mmc::erase {

double steady_seconds()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

uint64_t bytes_to_erase(const Plan& plan)
{
    uint64_t total = plan.aligned.length;
    for (const Edge* e : {&plan.head, &plan.tail})
        if (e->action == EdgeAction::zeroed) total += e->extent.length;
    return total;
}

namespace {

void report_progress(EraseRun& run)
{
    run.done.seconds = run.seconds() - run.started;
    if (run.progress) run.progress(run.done);
}

bool ended_cleanly(const Report& r) { return !r.interrupted && r.error.empty(); }

} // namespace

void erase_chunks(EraseRun& run, Report& r)
{
    Executor& exec = run.device.executor();
    for (const auto& chunk : run.prepared.plan.chunks) {
        if (run.stop.load()) {
            r.interrupted = true;
            break;
        }
        const double c0 = run.seconds();
        try {
            exec.erase(chunk);
        } catch (const ExecError& e) {
            r.error = e.what();
            break;
        }
        r.chunks.push_back({chunk, run.seconds() - c0, ChunkKind::chunk});
        r.erased.length += chunk.length;
        run.done.done_bytes += chunk.length;
        ++run.done.chunks_done;
        report_progress(run);
    }
    if (ended_cleanly(r)) {
        try {
            exec.finish();
        } catch (const ExecError& e) {
            r.error = e.what();
        }
    }
}

void zero_edges(EraseRun& run, Report& r)
{
    const Plan& plan = run.prepared.plan;
    for (const Edge* e : {&plan.head, &plan.tail}) {
        if (e->action != EdgeAction::zeroed || !ended_cleanly(r)) continue;
        if (run.stop.load()) {
            r.interrupted = true;
            break;
        }
        const double c0 = run.seconds();
        try {
            run.device.zero(e->extent, run.prepared.target.caps.logical_block);
        } catch (const ExecError& err) {
            r.error = err.what();
            break;
        }
        r.chunks.push_back({e->extent, run.seconds() - c0, e == &plan.head ? ChunkKind::head : ChunkKind::tail});
        if (e == &plan.head)
            r.erased = {e->extent.offset, r.erased.length + e->extent.length};
        else
            r.erased.length += e->extent.length;
        run.done.done_bytes += e->extent.length;
        report_progress(run);
    }
}

std::vector<Segment> verify_segments(const Plan& plan, const Outcome& erased)
{
    std::vector<Segment> segments;
    const Outcome zeroed{0x00, true, false, "zeroed with BLKZEROOUT/pwrite"};
    if (plan.head.action == EdgeAction::zeroed) segments.push_back({plan.head.extent, zeroed, "head (zeroed)"});
    if (!plan.aligned.empty()) segments.push_back({plan.aligned, erased, "erased range"});
    if (plan.tail.action == EdgeAction::zeroed) segments.push_back({plan.tail.extent, zeroed, "tail (zeroed)"});
    return segments;
}

void verify_erase(EraseRun& run, Report& r)
{
    const Prepared& p = run.prepared;
    if (p.options.verify == VerifyMode::none || !ended_cleanly(r)) return;
    r.verify = run.device.verify(verify_segments(p.plan, p.outcome), p.plan.chunks, p.options.verify,
                                 p.target.caps.logical_block, run.stop);
    if (r.verify->result == VerifyResult::warning)
        for (const auto& d : r.verify->details) r.warnings.push_back("verify: " + d);
}

Report run_phases(const Prepared& p, EraseDevice& device, const ProgressFn& progress, const std::atomic<bool>& stop,
                  Seconds seconds)
{
    Report r;
    r.prepared = p;
    r.warnings = p.warnings;
    r.erased = {p.plan.aligned.offset, 0};
    EraseRun run{p, device, progress, stop, std::move(seconds), {}, 0};
    run.done = {0, bytes_to_erase(p.plan), 0, p.plan.chunks.size(), 0};
    run.started = run.seconds();

    const bool raw = is_raw(p.selection.method);
    if (raw) device.flush_cache(r.warnings);
    erase_chunks(run, r);
    if (raw) device.flush_cache(r.warnings);
    // Zeroed edges last: an interruption before them leaves one contiguous
    // erased range either way.
    zero_edges(run, r);
    r.seconds = run.seconds() - run.started;
    if (r.erased.length == 0) r.erased.offset = p.plan.range.offset;
    verify_erase(run, r);
    return r;
}

} // namespace mmc::erase
