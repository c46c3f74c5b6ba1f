// What a long sequential write says about a card: the speed while its SLC
// cache lasts (burst), where the cache runs out (the knee, in bytes
// written), the speed of the flash behind it (sustained), the write
// latencies and stalls, the buffer a constant-rate recorder needs to ride
// them out, and how much of the cache comes back after an idle time. Pure:
// a trace of completed writes in, figures out, so it is checked exactly on
// synthetic traces and on the simulator's virtual clock.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::bench {

// One completed write, in the order the writes were issued (QD1).
struct WriteSample {
    uint64_t offset = 0;
    uint32_t bytes = 0;
    uint64_t start_ns = 0;
    uint64_t done_ns = 0;
    uint64_t latency_ns() const { return done_ns - start_ns; }
};

struct SustainedOptions {
    // The knee: the trace split in two where two straight lines fit time
    // against bytes best; it counts only when the speed after it is below
    // this share of the speed before it (a sustained drop, not one slow
    // write: a lone stall moves the line, not its slope) ...
    double knee_drop = 0.8;
    // ... and both sides hold at least this share of the bytes written (and
    // min_side_bytes), so a small DRAM buffer at the start or a tail of a
    // few writes cannot make a knee.
    double min_side_share = 0.0025;
    uint64_t min_side_bytes = 4u << 20;
    // A stall: a write taking this many times the median write of its side
    // of the knee (the cache side or the native side) ...
    double stall_factor = 4;
    // ... and at least this long (timer noise on a fast card is no stall).
    uint64_t stall_min_ns = 20'000'000;
    // The recording budget is stated for a recorder writing this many bytes
    // per second (the card's highest speed claim, else 30 MB/s: V30).
    double recorder_bytes_per_s = 30e6;
    // Throughput and latency summaries hold at most this many points.
    std::size_t summary_points = 200;
};

struct WriteStall {
    uint64_t written_before = 0; // bytes written before the stalled write
    uint64_t offset = 0;
    double latency_ms = 0;
    double excess_ms = 0;        // beyond the median write of its side of the knee: the stall itself
    double at_s = 0;             // since the first write started
};

// One point of the summarised trace: the throughput of a stretch of bytes,
// and the worst write latency in it.
struct TracePoint {
    uint64_t written = 0;        // bytes written at the end of the stretch
    double at_s = 0;             // its end, since the first write started
    double mb_s = 0;
    double worst_latency_ms = 0;
};

// The buffer a recorder producing `rate` bytes per second needs so that it
// never drops data while the card writes as traced: the recorder issues the
// next write (of the traced size) once the previous one completed and its
// data has been produced, each write taking its traced time; the buffer
// holds everything produced and not yet written, and its largest level is
// the budget. When the card's sustained speed is below the rate the level
// grows without bound: keeps_up is false and no budget is stated.
struct RecordingBudget {
    double rate_mb_s = 0;
    bool keeps_up = false;
    std::optional<uint64_t> buffer_bytes;
    std::optional<double> buffer_ms; // buffer_bytes at the rate
    std::string text;                // "a recorder needs 780 ms of buffer at 30 MB/s"
};
RecordingBudget recording_budget(std::span<const WriteSample> trace, double rate_bytes_per_s,
                                 std::optional<double> sustained_bytes_per_s);

struct SustainedFigures {
    uint64_t bytes = 0;
    uint64_t writes = 0;
    double seconds = 0;                     // first start to last completion
    double burst_mb_s = 0;                  // before the knee (the whole run without one)
    std::optional<uint64_t> knee_bytes;     // the SLC cache: bytes written when the speed fell
    double sustained_mb_s = 0;              // after the knee (the whole run without one)
    double worst_latency_ms = 0;
    double p999_latency_ms = 0;
    double median_latency_ms = 0;
    std::vector<WriteStall> stalls;              // every stall, in order (bounded: max_stalls)
    uint64_t stall_count = 0;
    std::optional<WriteStall> longest_stall;     // the slowest write, when it is a stall
    RecordingBudget budget;
    std::vector<TracePoint> trace;          // summarised
};
inline constexpr std::size_t max_stalls = 1000;

// Throws std::invalid_argument on an empty trace.
SustainedFigures analyse_sustained(std::span<const WriteSample> trace, const SustainedOptions& options = {});

// The knee alone: the bytes written before it, or nothing.
std::optional<uint64_t> find_knee(std::span<const WriteSample> trace, const SustainedOptions& options = {});

// After an idle time, the pass that writes again: how many bytes went at
// burst speed before the speed fell below knee_drop of the burst for good
// (the recovered cache). `complete` is true when the whole pass stayed at
// burst speed: the cache recovered at least that much.
struct Recovery {
    double idle_s = 0;
    uint64_t pass_bytes = 0;
    uint64_t recovered_bytes = 0;
    bool complete = false;
    double mb_s = 0;  // the pass's own throughput
};
Recovery analyse_recovery(std::span<const WriteSample> pass, double idle_s, double burst_mb_s,
                          const SustainedOptions& options = {});

} // namespace mmc::bench
