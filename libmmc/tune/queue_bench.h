// The measurement source of mmc-tune queue on a real block device: each
// measurement puts the setting in force through dev/ (queue/scheduler,
// queue/read_ahead_kb, read back) and runs one short mmc-bench job
// (bench/runner.h) with the access the setting affects:
//   seq-read    4 KiB sequential reads through the page cache (the device's
//               cached pages dropped first), so the read-ahead decides the
//               size of the requests the device sees;
//   rand-read   4 KiB random direct reads, 8 in flight (io_uring; one at a
//               time where it is unavailable), for the scheduler to order;
//   seq-write   512 KiB sequential direct writes, scratch region only;
//   rand-write  4 KiB random direct writes, 8 in flight, scratch region only.
// The discard is timed before the race (tune/queue_discard.h): its own
// exclusive open must not meet the race's.
// QueueRestorer puts the start setting back, always (a measurement leaves
// the candidate in force).
#pragma once

#include "bench/clock.h"
#include "bench/job.h"
#include "bench/target.h"
#include "tune/queue_race.h"

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>

namespace mmc::tune {

struct QueueBenchOptions {
    std::string device;               // the disk's node (/dev/mmcblk0)
    std::filesystem::path disk_syspath; // its sysfs directory, for the settings
    uint64_t device_bytes = 0;
    double sample_s = 1;              // each measurement's time
    std::optional<bench::Region> scratch; // where writes may go; none: reads only
    const std::atomic<bool>* stop = nullptr;
};

class QueueBench final : public MeasurementSource {
public:
    explicit QueueBench(QueueBenchOptions options);
    double measure(const QueueSetting& setting, Workload workload) override;
    double now_s() const override;
    // "io_uring" or "psync (io_uring unavailable: ...)": what the queued jobs ran on.
    const std::string& queued_engine() const { return queued_engine_; }

private:
    void put_in_force(const QueueSetting& setting);
    QueueBenchOptions o_;
    bench::MonotonicClock clock_;
    std::optional<QueueSetting> in_force_;
    // The direct jobs share one open of the device for the whole race (read
    // and write, exclusive, when there is a scratch region): an io_uring
    // ring lets go of its registered file only after it is gone, so a fresh
    // exclusive open per measurement would find the last one still held.
    std::optional<bench::Target> direct_;
    bool io_uring_ok_ = true;
    std::string queued_engine_ = "io_uring";
};

// Puts the start setting back when restore() is called or it goes out of
// scope (an exception, a signal's unwinding): what a measurement changed is
// never left behind. restore() throws what dev/ throws; the destructor
// swallows it (restore() first to hear of it).
class QueueRestorer {
public:
    QueueRestorer(std::filesystem::path disk_syspath, QueueSetting start);
    ~QueueRestorer();
    QueueRestorer(const QueueRestorer&) = delete;
    QueueRestorer& operator=(const QueueRestorer&) = delete;
    void restore();
    const QueueSetting& start() const { return start_; }

private:
    std::filesystem::path dir_;
    QueueSetting start_;
    bool done_ = false;
};

// Writes the setting through dev/: the scheduler first (when it has one),
// then the read-ahead. Throws std::runtime_error naming the attribute.
void put_queue_setting(const std::filesystem::path& disk_syspath, const QueueSetting& setting);

} // namespace mmc::tune
