#include "bench/job.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::bench {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

std::optional<Rw> parse_rw(std::string_view text)
{
    const std::string t = lower(text);
    if (t == "read" || t == "seqread") return Rw{Pattern::sequential, Direction::read};
    if (t == "write" || t == "seqwrite") return Rw{Pattern::sequential, Direction::write};
    if (t == "randread") return Rw{Pattern::random, Direction::read};
    if (t == "randwrite") return Rw{Pattern::random, Direction::write};
    return std::nullopt;
}

std::string_view to_string(Rw rw)
{
    if (rw.pattern == Pattern::sequential) return rw.direction == Direction::read ? "read" : "write";
    return rw.direction == Direction::read ? "randread" : "randwrite";
}

std::string_view to_string(EngineKind e)
{
    switch (e) {
    case EngineKind::psync: return "psync";
    case EngineKind::io_uring: return "io_uring";
    }
    return "psync";
}

std::optional<EngineKind> engine_from_text(std::string_view word)
{
    for (EngineKind e : {EngineKind::psync, EngineKind::io_uring})
        if (to_string(e) == word) return e;
    return std::nullopt;
}

std::string size_label(uint64_t bytes)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return fmt::format("{}M", bytes >> 20);
    if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{}k", bytes >> 10);
    return fmt::format("{}", bytes);
}

std::string default_name(const Job& job)
{
    const char* kind = job.rw.pattern == Pattern::random ? (job.writes() ? "randwrite" : "randread")
                                                          : (job.writes() ? "seqwrite" : "seqread");
    std::string name = fmt::format("{}-{}", kind, size_label(job.block_size));
    if (job.iodepth > 1) name += fmt::format("-qd{}", job.iodepth);
    return name;
}

void validate(const Job& job)
{
    if (job.block_size < min_block_size || job.block_size > max_block_size || job.block_size % 512 != 0)
        throw std::invalid_argument(fmt::format("block size {}: expected a multiple of 512 from 512 to 16M", job.block_size));
    if (job.iodepth < 1 || job.iodepth > max_iodepth)
        throw std::invalid_argument(fmt::format("iodepth {}: expected 1 to {}", job.iodepth, max_iodepth));
    if (job.runner == EngineKind::psync && job.iodepth != 1)
        throw std::invalid_argument(fmt::format("iodepth {} needs the io_uring engine (psync has one I/O in flight)", job.iodepth));
    if (!(job.runtime_s > 0)) throw std::invalid_argument("runtime must be above zero");
    if (job.warmup_s < 0) throw std::invalid_argument("warm-up cannot be negative");
    if (job.ci_target_pct < 0) throw std::invalid_argument("confidence target cannot be negative");
}

Region plan_region(const Job& job, uint64_t target_bytes, uint64_t align)
{
    align = std::max<uint64_t>(align, 1);
    const uint64_t asked_offset = job.offset.value_or(0);
    if (asked_offset >= target_bytes)
        throw std::invalid_argument(fmt::format("offset {} is beyond the end ({} bytes)", asked_offset, target_bytes));
    Region r;
    r.offset = (asked_offset + align - 1) / align * align;
    if (r.offset >= target_bytes)
        throw std::invalid_argument(fmt::format("offset {} rounded up to the {}-byte alignment is beyond the end", asked_offset, align));
    uint64_t length = std::min(job.length.value_or(target_bytes - asked_offset), target_bytes - r.offset);
    // Round to the alignment when at least one aligned unit fits, else to blocks.
    if (length >= align) length = length / align * align;
    length = length / job.block_size * job.block_size;
    if (length == 0)
        throw std::invalid_argument(fmt::format("region of {} bytes at offset {} holds no whole {}-byte block",
                                                job.length.value_or(target_bytes - asked_offset), r.offset, job.block_size));
    r.length = length;
    return r;
}

} // namespace mmc::bench
