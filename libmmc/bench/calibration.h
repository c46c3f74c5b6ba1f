// What every result is reported with, so a reader can judge it: the clock's
// cost, the engine's own per-I/O cost on a memory-backed null target (the
// floor under every latency), the CPU the run was pinned to and its
// frequency governor.
#pragma once

#include "bench/clock.h"
#include "bench/job.h"
#include "dev/sysfs.h"

#include <optional>
#include <string>
#include <vector>

namespace mmc::bench {

struct NullTargetCalibration {
    EngineKind runner = EngineKind::psync;
    unsigned iodepth = 1;
    uint32_t block_size = 4096;
    uint64_t ios = 0;
    double seconds = 0;
    double iops = 0;
    double per_io_us = 0; // the engine's own cost per I/O: syscall, copy, bookkeeping
    double p50_us = 0;
};

// Random 4 KiB reads on a 16 MiB memfd for `seconds` through `runner`.
NullTargetCalibration calibrate_null_target(EngineKind runner, unsigned iodepth, const Clock& clock,
                                            double seconds = 0.3);

struct CpuPlacement {
    std::optional<int> cpu;     // the CPU the run is pinned to
    std::string pin_error;      // why it is not pinned
    std::optional<std::string> governor; // scaling_governor of that CPU; nothing when cpufreq is absent
    std::string cpu_model;      // /proc/cpuinfo "model name"
    int cpus_online = 0;
};

// Pins the calling thread to `cpu` and reads what bears on timing there
// (its governor, through roots); nothing: leaves the scheduler free to place
// it (pin_error says so).
CpuPlacement pin_to_cpu(std::optional<int> cpu, const dev::SysRoots& roots);

} // namespace mmc::bench
