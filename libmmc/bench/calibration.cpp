#include "bench/calibration.h"

#include "bench/engines/engine.h"
#include "bench/runner.h"
#include "bench/target.h"
#include "dev/block_queue.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sched.h>
#include <unistd.h>

namespace mmc::bench {

NullTargetCalibration calibrate_null_target(EngineKind runner, unsigned iodepth, const Clock& clock, double seconds)
{
    const Target target = Target::memory(16u << 20);
    Job job;
    job.name = "null-target";
    job.rw = Rw{Pattern::random, Direction::read};
    job.block_size = 4096;
    job.iodepth = iodepth;
    job.runner = runner;
    job.runtime_s = seconds;
    job.warmup_s = seconds / 4;
    job.ci_target_pct = 0;
    auto engine = make_engine(runner, target.fd(), iodepth, job.block_size);
    RunControl ctl;
    ctl.clock = &clock;
    const auto r = run_job(*engine, job, Region{0, target.size()}, ctl);
    NullTargetCalibration c;
    c.runner = runner;
    c.iodepth = iodepth;
    c.ios = r.ios;
    c.seconds = r.seconds;
    c.iops = r.iops;
    c.per_io_us = r.iops > 0 ? 1e6 / r.iops : 0;
    c.p50_us = r.latency.percentile(50) / 1000;
    return c;
}

CpuPlacement pin_to_cpu(std::optional<int> cpu, const dev::SysRoots& roots)
{
    CpuPlacement p;
    p.cpus_online = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
    // Not pinned unless asked: a run pinned to the CPU it started on cannot
    // move off it when a neighbour makes that CPU busy, and then measures the
    // neighbour as much as the card (fio does not pin by default either).
    const int want = cpu ? *cpu : -1;
    if (!cpu) {
        p.pin_error = "not asked";
    } else {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(want, &set);
        if (::sched_setaffinity(0, sizeof set, &set) == 0) p.cpu = want;
        else p.pin_error = fmt::format("CPU {}: {}", want, std::strerror(errno));
    }
    if (p.cpu)
        if (auto g = dev::cpu_governor(*p.cpu, roots)) p.governor = std::move(*g);
    std::ifstream info("/proc/cpuinfo");
    for (std::string line; std::getline(info, line);) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) p.cpu_model = line.substr(line.find_first_not_of(' ', colon + 1));
            break;
        }
    }
    return p;
}

} // namespace mmc::bench
