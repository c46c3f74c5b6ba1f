#include "probe/capacity_device.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <stdexcept>
#include <system_error>
#include <sys/ioctl.h>
#include <unistd.h>

namespace mmc::probe {

namespace {

// A system_error, so that a caller can tell a refused write (EROFS, EPERM)
// from a failed one (EIO); its text is "path: what: strerror".
std::system_error os_error(const std::string& path, const std::string& what)
{
    return std::system_error(errno, std::generic_category(), fmt::format("{}: {}", path, what));
}

} // namespace

DeviceBlocks::DeviceBlocks(const std::string& path, bool exclusive) : path_(path)
{
    fd_ = ::open(path.c_str(), O_RDWR | (exclusive ? O_EXCL : 0) | O_DIRECT | O_CLOEXEC);
    if (fd_ < 0) {
        if (errno == EBUSY) throw std::runtime_error(fmt::format("{}: in use (mounted or opened exclusively elsewhere)", path));
        throw os_error(path, "cannot open");
    }
    int logical = 0;
    uint64_t bytes = 0;
    if (::ioctl(fd_, BLKSSZGET, &logical) != 0 || ::ioctl(fd_, BLKGETSIZE64, &bytes) != 0) {
        const auto e = os_error(path, "not a block device (BLKSSZGET/BLKGETSIZE64)");
        ::close(fd_);
        throw e;
    }
    block_size_ = static_cast<uint32_t>(logical);
    blocks_ = bytes / block_size_;
}

DeviceBlocks::~DeviceBlocks()
{
    if (fd_ >= 0) ::close(fd_);
}

void DeviceBlocks::read(uint64_t block, std::span<uint8_t> out)
{
    if (!try_read(block, out)) throw os_error(path_, fmt::format("read of block {}", block));
}

bool DeviceBlocks::try_read(uint64_t block, std::span<uint8_t> out)
{
    uint8_t* buf = bounce_.get(out.size());
    const off_t at = static_cast<off_t>(block * block_size_);
    ssize_t n;
    do n = ::pread(fd_, buf, out.size(), at); // Ctrl-C's handler has no SA_RESTART
    while (n < 0 && errno == EINTR);
    if (n < 0 && errno == EIO) return false;
    if (n < 0) throw os_error(path_, fmt::format("read of block {}", block));
    if (static_cast<std::size_t>(n) != out.size())
        throw std::runtime_error(fmt::format("{}: short read at block {}", path_, block));
    std::memcpy(out.data(), buf, out.size());
    return true;
}

void DeviceBlocks::flush()
{
    if (::fsync(fd_) != 0) throw os_error(path_, "flush");
}

void DeviceBlocks::write(uint64_t block, std::span<const uint8_t> data)
{
    uint8_t* buf = bounce_.get(data.size());
    std::memcpy(buf, data.data(), data.size());
    const off_t at = static_cast<off_t>(block * block_size_);
    ssize_t n;
    do n = ::pwrite(fd_, buf, data.size(), at);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw os_error(path_, fmt::format("write of block {}", block));
    if (static_cast<std::size_t>(n) != data.size())
        throw std::runtime_error(fmt::format("{}: short write at block {}", path_, block));
}

} // namespace mmc::probe
