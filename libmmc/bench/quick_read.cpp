#include "bench/quick_read.h"

#include "bench/clock.h"
#include "bench/engines/engine.h"
#include "bench/job.h"
#include "bench/runner.h"
#include "bench/target.h"

#include <cerrno>
#include <system_error>

namespace mmc::bench {

// One sequential read job through the benchmark's own target, engine and
// job loop (psync, O_DIRECT): mmc-bus --measure and mmc-bench's seqread
// count bytes and time the same way, so they cannot disagree about one read.
QuickRead quick_read(const std::string& device, double max_seconds, uint32_t block_bytes, uint64_t max_bytes)
{
    const Target target = Target::open_block(device, false);
    if (max_bytes == 0 || max_bytes > target.size()) max_bytes = target.size();

    Job job;
    job.name = "quick-seqread";
    job.rw = Rw{Pattern::sequential, Direction::read};
    job.block_size = block_bytes;
    job.runtime_s = max_seconds;
    job.warmup_s = 0;       // a glance at the bus, not a calibrated figure
    job.ci_target_pct = 0;  // the whole budget
    auto engine = make_engine(EngineKind::psync, target.fd(), 1, block_bytes);
    MonotonicClock clock;
    RunControl control;
    control.clock = &clock;
    const Region region{0, max_bytes - max_bytes % block_bytes};
    if (region.length == 0) throw std::system_error(EINVAL, std::generic_category(), device + ": smaller than one read");
    job.ios = region.length / block_bytes; // at most the region once, as --measure promises
    const JobResult r = run_job(*engine, job, region, control);
    if (!r.error.empty() && r.bytes == 0)
        throw std::system_error(r.error_errno ? r.error_errno : EIO, std::generic_category(), device + ": read: " + r.error);

    QuickRead q;
    q.bytes = r.bytes;
    q.seconds = r.seconds;
    q.mb_s = r.mb_s;
    return q;
}

} // namespace mmc::bench
