#include "bench/engines/engine.h"

#include <cstdlib>
#include <fmt/format.h>
#include <new>
#include <stdexcept>

namespace mmc::bench {

SlotBuffers::SlotBuffers(unsigned depth, std::size_t bytes) : bytes_(bytes)
{
    const std::size_t stride = (bytes + 4095) / 4096 * 4096;
    void* raw = nullptr;
    if (posix_memalign(&raw, 4096, stride * depth) != 0) throw std::bad_alloc();
    base_ = static_cast<std::byte*>(raw);
    for (unsigned i = 0; i < depth; ++i) slots_.push_back(base_ + stride * i);
}

SlotBuffers::~SlotBuffers() { std::free(base_); }

std::unique_ptr<Engine> make_engine(EngineKind kind, int fd, unsigned depth, std::size_t buffer_bytes)
{
    switch (kind) {
    case EngineKind::psync:
        if (depth != 1) throw std::invalid_argument(fmt::format("psync runs one I/O at a time, not {}", depth));
        return make_psync_engine(fd, buffer_bytes);
    case EngineKind::io_uring: return make_io_uring_engine(fd, depth, buffer_bytes);
    }
    throw std::invalid_argument("unknown engine");
}

} // namespace mmc::bench
