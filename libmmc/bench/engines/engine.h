// One interface for every I/O engine, each engine a file behind it (fio's
// engines/ layout). The runner owns the job loop, the clock and the
// statistics; an engine only moves bytes: queue() starts an I/O, reap()
// returns finished ones. Each in-flight slot has its own aligned buffer,
// owned by the engine so it can register them with the kernel.
#pragma once

#include "bench/job.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bench {

struct IoRequest {
    uint64_t offset = 0;
    uint32_t length = 0;
    uint32_t slot = 0; // which buffer, 0 .. depth - 1
    bool write = false;
};

struct IoResult {
    uint32_t slot = 0;
    int64_t result = 0; // bytes transferred, or -errno
};

class Engine {
public:
    virtual ~Engine() = default;
    virtual std::string_view name() const = 0;
    virtual unsigned depth() const = 0;
    virtual std::byte* buffer(uint32_t slot) = 0;

    // Start one I/O on a free slot. psync performs it here; queued engines
    // hand it to the kernel at the next reap().
    virtual void queue(const IoRequest& io) = 0;
    // Submit what is queued, then wait until at least `min` I/Os have
    // finished; fills `out` with up to out.size() of them. Throws
    // std::system_error when the engine itself fails (not for I/O errors,
    // which come back as negative results).
    virtual std::size_t reap(std::span<IoResult> out, std::size_t min) = 0;
};

// Aligned buffers for `depth` slots of `bytes` each (4096-byte alignment,
// enough for O_DIRECT on every logical block size).
class SlotBuffers {
public:
    SlotBuffers(unsigned depth, std::size_t bytes);
    ~SlotBuffers();
    SlotBuffers(const SlotBuffers&) = delete;
    SlotBuffers& operator=(const SlotBuffers&) = delete;
    std::byte* operator[](uint32_t slot) { return slots_[slot]; }
    std::size_t bytes() const { return bytes_; }
    unsigned depth() const { return static_cast<unsigned>(slots_.size()); }

private:
    std::byte* base_ = nullptr;
    std::size_t bytes_;
    std::vector<std::byte*> slots_;
};

// The engines: psync (pread/pwrite, one I/O at a time) and io_uring
// (liburing, up to `depth` in flight). Throws std::invalid_argument for a
// depth psync cannot do, std::system_error when the kernel refuses (io_uring
// disabled, no memory to lock).
std::unique_ptr<Engine> make_engine(EngineKind kind, int fd, unsigned depth, std::size_t buffer_bytes);

std::unique_ptr<Engine> make_psync_engine(int fd, std::size_t buffer_bytes);
std::unique_ptr<Engine> make_io_uring_engine(int fd, unsigned depth, std::size_t buffer_bytes);

} // namespace mmc::bench
