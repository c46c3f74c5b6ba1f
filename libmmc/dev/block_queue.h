// What the block layer says about a disk's request queue, and the other
// per-device attributes the tools act on (a SCSI disk's provisioning mode, a
// loop device's direct I/O, a CPU's frequency governor): read here, in dev/,
// through SysRoots, so the library has one reader of sysfs and a fixture
// tree stands in for all of it. The resolver fills dev::Device's queue and
// provisioning mode once; erase, the benchmark and the simulator use those.
#pragma once

#include "dev/sysfs.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::dev {

// <sysfs>/block/<disk>/queue (Documentation/ABI/stable/sysfs-block). A number
// that is missing or unreadable is 0.
struct BlockQueue {
    uint64_t logical_block_size = 0;     // queue/logical_block_size
    uint64_t discard_granularity = 0;    // queue/discard_granularity (0: no discard)
    uint64_t discard_max_bytes = 0;      // queue/discard_max_bytes, the limit in force
    uint64_t discard_max_hw_bytes = 0;   // queue/discard_max_hw_bytes, the device's own
    uint64_t write_zeroes_max_bytes = 0; // queue/write_zeroes_max_bytes (0: no REQ_OP_WRITE_ZEROES)
    // queue/write_cache: "write back" or "write through"; nullopt when
    // unreadable. write_cache_attr is where it was read, for evidence.
    std::optional<std::string> write_cache;
    fs::path write_cache_attr;
};
// disk_dir is the disk's sysfs directory (the resolver's, symlinks resolved);
// by name, it is <sysfs>/block/<disk>, the path a person would look at.
BlockQueue read_block_queue(const fs::path& disk_dir);
BlockQueue read_block_queue(std::string_view disk, const SysRoots& roots);

// The two settings of a queue a person tunes (mmc-tune queue): the I/O
// scheduler, of those the kernel offers (queue/scheduler reads
// "[mq-deadline] kyber none": the bracketed one is in force), and the
// read-ahead of buffered reads (queue/read_ahead_kb).
struct QueueSettings {
    std::string scheduler;               // the one in force; empty when the queue has none to choose
    std::vector<std::string> schedulers; // what queue/scheduler offers, in its order
    uint64_t read_ahead_kb = 0;
};
// "[mq-deadline] kyber none" -> in force "mq-deadline", offered all three.
// A word of anything but [a-z0-9_-] is dropped (the kernel's names are
// these); "none" alone without brackets is a queue with no choice.
QueueSettings parse_scheduler_list(std::string_view text);
// Throws std::runtime_error "PATH: why" when queue/scheduler or
// queue/read_ahead_kb cannot be read.
QueueSettings read_queue_settings(const fs::path& disk_dir);
// Writes queue/scheduler or queue/read_ahead_kb, then reads it back.
// Throws std::runtime_error "PATH: why" when the kernel refuses the value
// or the read-back differs (a scheduler it does not have: EINVAL).
void write_scheduler(const fs::path& disk_dir, std::string_view scheduler);
void write_read_ahead_kb(const fs::path& disk_dir, uint64_t kb);

// A SCSI disk's provisioning_mode (drivers/scsi/sd.c: "full", "unmap",
// "writesame_16", ...): the disk's SCSI device is two levels up from its
// block directory (6:0:0:0/block/sdb), its scsi_disk/6:0:0:0 beside. Empty
// when there is none (not a SCSI disk) or it cannot be read.
std::string scsi_provisioning_mode(const fs::path& disk_syspath);

// One attribute and where it was read, for messages that name the file.
struct AttrReading {
    fs::path path;
    std::optional<std::string> value;
};

// A loop device's loop/dio: "1" when it does direct I/O.
AttrReading loop_direct_io(std::string_view loop, const SysRoots& roots);

// A CPU's cpufreq/scaling_governor ("performance", "schedutil"); nullopt
// when the CPU has no cpufreq or it cannot be read.
std::optional<std::string> cpu_governor(int cpu, const SysRoots& roots);

} // namespace mmc::dev
