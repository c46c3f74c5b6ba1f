// psync: pread/pwrite, one I/O at a time, the way SD cards are rated (QD1).
#include "bench/engines/engine.h"

#include <cerrno>
#include <unistd.h>

namespace mmc::bench {

namespace {

class Psync final : public Engine {
public:
    Psync(int fd, std::size_t bytes) : fd_(fd), buffers_(1, bytes) {}

    std::string_view name() const override { return to_string(EngineKind::psync); }
    unsigned depth() const override { return 1; }
    std::byte* buffer(uint32_t slot) override { return buffers_[slot]; }

    void queue(const IoRequest& io) override
    {
        std::byte* buf = buffers_[io.slot];
        // The 64-bit calls: off_t is 32 bits on 32-bit ARM unless built with
        // _FILE_OFFSET_BITS=64, and cards are larger than 2 GiB.
        const auto off = static_cast<off64_t>(io.offset);
        ssize_t n;
        do {
            n = io.write ? ::pwrite64(fd_, buf, io.length, off) : ::pread64(fd_, buf, io.length, off);
        } while (n < 0 && errno == EINTR);
        done_ = IoResult{io.slot, n < 0 ? -static_cast<int64_t>(errno) : static_cast<int64_t>(n)};
        pending_ = true;
    }

    std::size_t reap(std::span<IoResult> out, std::size_t) override
    {
        if (!pending_ || out.empty()) return 0;
        out[0] = done_;
        pending_ = false;
        return 1;
    }

private:
    int fd_;
    SlotBuffers buffers_;
    IoResult done_{};
    bool pending_ = false;
};

} // namespace

std::unique_ptr<Engine> make_psync_engine(int fd, std::size_t buffer_bytes)
{
    return std::make_unique<Psync>(fd, buffer_bytes);
}

} // namespace mmc::bench
