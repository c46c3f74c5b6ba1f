#include "erase/open_device.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace mmc::erase {

namespace fs = std::filesystem;

OpenDevice::OpenDevice(const Prepared& p) : target_(p.target)
{
    fd_ = ::open(target_.path.c_str(), O_RDWR | O_EXCL | O_CLOEXEC);
    if (fd_ < 0) {
        if (errno == EBUSY) throw Refused("the device is busy: mounted, or held open exclusively by another program");
        throw Refused(fmt::format("cannot open it: {}", std::strerror(errno)));
    }
    const Method m = p.selection.method;
    try {
        exec_ = is_raw(m) ? mmc_executor(target_.disk_path, m, target_.caps, target_.rca, target_.start)
                          : block_executor(fd_, m, target_.name);
    } catch (const ExecError& e) {
        ::close(fd_);
        throw Refused(e.what());
    }
}

OpenDevice::~OpenDevice()
{
    exec_.reset();
    ::close(fd_);
}

// Raw commands bypass the page cache: write back what is dirty before, drop
// what is cached after, so nothing stale is read or written over the erase.
// The disk and its other partitions cache the same blocks under their names.
void OpenDevice::flush_cache(std::vector<std::string>& warnings)
{
    auto flush = [&](int f, const std::string& name) {
        ::fsync(f);
        if (::ioctl(f, BLKFLSBUF, 0) != 0)
            warnings.push_back(fmt::format("BLKFLSBUF on {} failed ({}); cached pages may hide the erase until dropped",
                                           name, std::strerror(errno)));
    };
    flush(fd_, target_.name);
    for (const auto& name : target_.siblings) {
        const std::string path = (fs::path(target_.path).parent_path() / name).string();
        const int f = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (f < 0) continue;
        flush(f, name);
        ::close(f);
    }
}

// BLKZEROOUT for the edge's whole logical blocks, pwrite for the ragged
// ends, then fdatasync.
void OpenDevice::zero(const Extent& e, uint64_t lb)
{
    const uint64_t a = (e.offset + lb - 1) / lb * lb;
    const uint64_t b = e.end() / lb * lb;
    auto write_zeros = [&](uint64_t from, uint64_t to) {
        static const std::vector<uint8_t> zeros(1 << 16, 0);
        while (from < to) {
            const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(zeros.size(), to - from));
            const ssize_t w = ::pwrite(fd_, zeros.data(), n, static_cast<off_t>(from));
            if (w <= 0) throw ExecError(fmt::format("pwrite at offset {} failed: {}", from, std::strerror(errno)));
            from += static_cast<uint64_t>(w);
        }
    };
    if (b > a) {
        uint64_t range[2] = {a, b - a};
        if (::ioctl(fd_, BLKZEROOUT, range) != 0) {
            if (errno != EOPNOTSUPP && errno != EINVAL)
                throw ExecError(fmt::format("BLKZEROOUT at offset {} length {} failed: {}", a, b - a, std::strerror(errno)));
            write_zeros(a, b);
        }
        write_zeros(e.offset, a);
        write_zeros(b, e.end());
    } else {
        write_zeros(e.offset, e.end());
    }
    if (::fdatasync(fd_) != 0) throw ExecError(fmt::format("fdatasync failed: {}", std::strerror(errno)));
}

VerifyReport OpenDevice::verify(const std::vector<Segment>& segments, const std::vector<Extent>& chunks, VerifyMode mode,
                                uint64_t logical_block, const std::atomic<bool>& stop)
{
    return erase::verify(target_.path, segments, chunks, mode, logical_block, stop);
}

} // namespace mmc::erase
