#include "tune/queue_bench.h"

#include "bench/engines/engine.h"
#include "bench/runner.h"
#include "bench/target.h"
#include "dev/block_queue.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <system_error>

namespace mmc::tune {

void put_queue_setting(const std::filesystem::path& disk_syspath, const QueueSetting& setting)
{
    if (!setting.scheduler.empty()) dev::write_scheduler(disk_syspath, setting.scheduler);
    dev::write_read_ahead_kb(disk_syspath, setting.read_ahead_kb);
}

QueueRestorer::QueueRestorer(std::filesystem::path disk_syspath, QueueSetting start)
    : dir_(std::move(disk_syspath)), start_(std::move(start)) {}

QueueRestorer::~QueueRestorer()
{
    try {
        restore();
    } catch (...) {
    }
}

void QueueRestorer::restore()
{
    if (done_) return;
    done_ = true;
    put_queue_setting(dir_, start_);
}

QueueBench::QueueBench(QueueBenchOptions options) : o_(std::move(options)) {}

double QueueBench::now_s() const { return static_cast<double>(clock_.now_ns()) / 1e9; }

void QueueBench::put_in_force(const QueueSetting& setting)
{
    if (in_force_ && *in_force_ == setting) return;
    in_force_.reset(); // half-written until both are
    put_queue_setting(o_.disk_syspath, setting);
    in_force_ = setting;
}

double QueueBench::measure(const QueueSetting& setting, Workload workload)
{
    put_in_force(setting);
    bench::Job job;
    job.warmup_s = 0;
    job.ci_target_pct = 0; // the race draws the intervals, over rounds
    job.runtime_s = o_.sample_s;
    const bool write = writes(workload);
    job.rw.direction = write ? bench::Direction::write : bench::Direction::read;
    job.rw.pattern = workload == Workload::seq_read || workload == Workload::seq_write ? bench::Pattern::sequential
                                                                                         : bench::Pattern::random;
    job.block_size = workload == Workload::seq_write ? 512u << 10 : 4096;
    const bool queued = workload == Workload::rand_read || workload == Workload::rand_write;
    if (queued && io_uring_ok_) {
        job.runner = bench::EngineKind::io_uring;
        job.iodepth = 8;
    }
    if (write) {
        if (!o_.scratch) throw std::logic_error("a write workload without a scratch region");
        job.offset = o_.scratch->offset;
        job.length = o_.scratch->length;
    }
    job.name = std::string(to_string(workload));
    // The read-ahead of a block device's file is taken when it is opened:
    // a fresh open for each measurement, after the setting.
    std::optional<bench::Target> buffered;
    if (workload == Workload::seq_read) {
        buffered = bench::Target::open_block(o_.device, false, false);
        ::posix_fadvise(buffered->fd(), 0, 0, POSIX_FADV_DONTNEED);
    } else if (!direct_) {
        direct_ = bench::Target::open_block(o_.device, o_.scratch.has_value(), true);
    }
    const bench::Target& target = buffered ? *buffered : *direct_;
    const auto region = bench::plan_region(job, target.size(), target.logical_block());
    std::unique_ptr<bench::Engine> engine;
    try {
        engine = bench::make_engine(job.runner, target.fd(), job.iodepth, job.block_size);
    } catch (const std::system_error& e) {
        if (job.runner != bench::EngineKind::io_uring) throw;
        io_uring_ok_ = false;
        queued_engine_ = fmt::format("psync (io_uring unavailable: {})", e.what());
        job.runner = bench::EngineKind::psync;
        job.iodepth = 1;
        engine = bench::make_engine(job.runner, target.fd(), 1, job.block_size);
    }
    bench::RunControl control;
    control.clock = &clock_;
    control.stop = o_.stop;
    const auto result = bench::run_job(*engine, job, region, control);
    if (result.stop_reason == bench::StopReason::error || result.stop_reason == bench::StopReason::removed)
        throw std::runtime_error(fmt::format("{} with {}: {}", job.name, to_string(setting), result.error));
    return result.mb_s;
}

} // namespace mmc::tune
