// One benchmark job in fio's terms (rw, bs, iodepth, ioengine, runtime,
// size, offset, number_ios), the parsers for its option values, and the
// region it covers once the target's size and alignment are known.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mmc::bench {

enum class Pattern { sequential, random };
enum class Direction { read, write };

struct Rw {
    Pattern pattern = Pattern::sequential;
    Direction direction = Direction::read;
    bool operator==(const Rw&) const = default;
};

// fio's names: read, write, randread, randwrite.
std::optional<Rw> parse_rw(std::string_view text);
std::string_view to_string(Rw rw);

// The I/O engine a job runs on (fio's ioengine): psync, one pread/pwrite at
// a time, or io_uring, up to the job's iodepth in flight.
enum class EngineKind { psync, io_uring };
std::string_view to_string(EngineKind e); // "psync", "io_uring": the option's and the JSON's word
std::optional<EngineKind> engine_from_text(std::string_view word);

// Compact size for job names: "512", "1k", "4k", "512k", "4M", "16M".
std::string size_label(uint64_t bytes);

struct Region {
    uint64_t offset = 0;
    uint64_t length = 0;
};

inline constexpr uint32_t min_block_size = 512;
inline constexpr uint32_t max_block_size = 16u << 20;
inline constexpr unsigned max_iodepth = 1024;

struct Job {
    std::string name;                // "randread-4k", "seqwrite-4M"
    Rw rw;
    uint32_t block_size = 4096;
    unsigned iodepth = 1;
    EngineKind runner = EngineKind::psync;
    std::optional<uint64_t> offset;  // asked region start (default: 0)
    std::optional<uint64_t> length;  // asked region length (default: to the end)
    double runtime_s = 10;           // time budget of the measured phase
    uint64_t ios = 0;                // stop after this many measured I/Os (0: no limit)
    double warmup_s = 1;             // run first, then discard
    double ci_target_pct = 2;        // stop once the 95% CI is within +-this (0: use the whole budget)
    uint64_t unit_bytes = 0;         // sequential jobs: time each unit of this size (the AU)
    bool one_pass = false;           // cover the region once (ios = region / block size)
    bool erase_first = false;        // the state suite: erase the run's region before this job
    bool trace = false;              // keep every write's offset and times (the sustained suite)
    double idle_before_s = 0;        // stay idle this long before the job (the sustained suite's recovery)

    bool writes() const { return rw.direction == Direction::write; }
};

// "randread-4k", "seqwrite-4M", "randread-4k-qd32".
std::string default_name(const Job& job);

// Throws std::invalid_argument: block size outside 512 B..16 MiB or not a
// multiple of 512, depth 0 or above 1024, psync deeper than 1, unknown runner,
// negative or zero budgets.
void validate(const Job& job);

// The region a job covers on a target of `target_bytes`: the asked offset
// rounded up and the length rounded down to `align` (the AU on a card, the
// logical block elsewhere), then to whole blocks. Throws std::invalid_argument
// when nothing is left or the region lies beyond the end.
Region plan_region(const Job& job, uint64_t target_bytes, uint64_t align);

} // namespace mmc::bench
