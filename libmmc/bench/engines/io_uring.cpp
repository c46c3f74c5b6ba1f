// io_uring through liburing: up to `depth` I/Os in flight. The file and the
// slot buffers are registered once, so each I/O is a fixed-buffer read or
// write on a fixed file: no per-I/O page pinning or file reference counting.
#include "bench/engines/engine.h"

#include <cerrno>
#include <liburing.h>
#include <system_error>
#include <vector>

namespace mmc::bench {

namespace {

class IoUring final : public Engine {
public:
    IoUring(int fd, unsigned depth, std::size_t bytes) : depth_(depth), buffers_(depth, bytes)
    {
        unsigned entries = 1;
        while (entries < depth) entries <<= 1;
        // One thread submits and reaps, and only when it waits: completions
        // run as task work at that wait (DEFER_TASKRUN) instead of
        // interrupting the thread with an IPI each (a VM exit on a virtual
        // machine). Kernels before 6.1 refuse the flags: then without them.
        int rc = -EINVAL;
        for (unsigned flags : {IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, IORING_SETUP_COOP_TASKRUN, 0u}) {
            rc = io_uring_queue_init(entries, &ring_, flags);
            if (rc != -EINVAL) break;
        }
        if (rc < 0) throw std::system_error(-rc, std::generic_category(), "io_uring_queue_init");
        std::vector<iovec> iov(depth);
        for (unsigned i = 0; i < depth; ++i) iov[i] = {buffers_[i], bytes};
        // Registration is an optimisation: without it (RLIMIT_MEMLOCK on
        // older kernels) plain reads and writes on the descriptor still work.
        fixed_buffers_ = io_uring_register_buffers(&ring_, iov.data(), depth) == 0;
        fixed_file_ = io_uring_register_files(&ring_, &fd, 1) == 0;
        fd_ = fixed_file_ ? 0 : fd;
    }
    ~IoUring() override { io_uring_queue_exit(&ring_); }

    std::string_view name() const override { return to_string(EngineKind::io_uring); }
    unsigned depth() const override { return depth_; }
    std::byte* buffer(uint32_t slot) override { return buffers_[slot]; }

    void queue(const IoRequest& io) override
    {
        io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
        if (!sqe) throw std::system_error(EBUSY, std::generic_category(), "io_uring: submission queue full");
        void* buf = buffers_[io.slot];
        if (fixed_buffers_) {
            if (io.write) io_uring_prep_write_fixed(sqe, fd_, buf, io.length, io.offset, static_cast<int>(io.slot));
            else io_uring_prep_read_fixed(sqe, fd_, buf, io.length, io.offset, static_cast<int>(io.slot));
        } else {
            if (io.write) io_uring_prep_write(sqe, fd_, buf, io.length, io.offset);
            else io_uring_prep_read(sqe, fd_, buf, io.length, io.offset);
        }
        if (fixed_file_) sqe->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data64(sqe, io.slot);
    }

    std::size_t reap(std::span<IoResult> out, std::size_t min) override
    {
        int rc;
        do {
            rc = io_uring_submit_and_wait(&ring_, static_cast<unsigned>(min));
        } while (rc == -EINTR);
        if (rc < 0) throw std::system_error(-rc, std::generic_category(), "io_uring_submit_and_wait");
        std::size_t n = 0;
        io_uring_cqe* cqe;
        unsigned head;
        io_uring_for_each_cqe(&ring_, head, cqe)
        {
            if (n == out.size()) break;
            out[n++] = IoResult{static_cast<uint32_t>(io_uring_cqe_get_data64(cqe)), cqe->res};
        }
        io_uring_cq_advance(&ring_, static_cast<unsigned>(n));
        return n;
    }

private:
    io_uring ring_{};
    unsigned depth_;
    SlotBuffers buffers_;
    int fd_ = -1;
    bool fixed_buffers_ = false;
    bool fixed_file_ = false;
};

} // namespace

std::unique_ptr<Engine> make_io_uring_engine(int fd, unsigned depth, std::size_t buffer_bytes)
{
    return std::make_unique<IoUring>(fd, depth, buffer_bytes);
}

} // namespace mmc::bench
