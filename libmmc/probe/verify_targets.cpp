#include "probe/verify_targets.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <system_error>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace mmc::probe {

namespace fs = std::filesystem;

bool DeviceVerifyTarget::write(uint64_t offset, std::span<const uint8_t> data)
{
    io_.write((base_ + offset) / io_.block_size(), data);
    return true;
}

bool DeviceVerifyTarget::read(uint64_t offset, std::span<uint8_t> out)
{
    return io_.try_read((base_ + offset) / io_.block_size(), out);
}

namespace {

// A system_error, so that a caller can tell a refused write (EROFS) from a
// failed one (EIO); its text is "path: what: strerror".
std::system_error file_error(const fs::path& path, const std::string& what)
{
    return std::system_error(errno, std::generic_category(), fmt::format("{}: {}", path.string(), what));
}

} // namespace

FileFill::FileFill(const fs::path& dir, uint64_t limit, uint64_t file_bytes, std::string name, uint64_t unit)
    : dir_(dir), name_(std::move(name)), file_bytes_(file_bytes)
{
    const uint64_t file_fill_unit = unit;
    struct statvfs sv {};
    if (::statvfs(dir.c_str(), &sv) != 0) throw file_error(dir, "cannot look at its file system");
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw std::runtime_error(fmt::format("{}: not a directory", dir.string()));
    if (::access(dir.c_str(), W_OK) != 0) throw file_error(dir, "cannot write there");
    // As root, the blocks the file system keeps for root too, as f3write
    // fills them: they are flash that holds data one day all the same.
    const uint64_t blocks = ::geteuid() == 0 ? sv.f_bfree : sv.f_bavail;
    size_ = blocks * sv.f_frsize / file_fill_unit * file_fill_unit;
    if (limit) size_ = std::min(size_, limit / file_fill_unit * file_fill_unit);
}

FileFill::~FileFill()
{
    remove_files();
}

std::pair<fs::path, uint64_t> FileFill::where(uint64_t offset) const
{
    return {dir_ / fmt::format("{}.{}", name_, offset / file_bytes_), offset % file_bytes_};
}

int FileFill::open_for_write(std::size_t index)
{
    if (write_fd_ >= 0) ::close(write_fd_);
    write_fd_ = -1;
    const fs::path file = where(index * file_bytes_).first;
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno == ENOSPC || errno == EDQUOT) return -1;
        throw file_error(file, "cannot create");
    }
    files_.push_back(file);
    write_fd_ = fd;
    write_index_ = index;
    return fd;
}

bool FileFill::write(uint64_t offset, std::span<const uint8_t> data)
{
    const std::size_t index = offset / file_bytes_;
    if (write_fd_ < 0 || index != write_index_)
        if (open_for_write(index) < 0) return false;
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::pwrite(write_fd_, data.data() + done, data.size() - done, static_cast<off_t>(offset % file_bytes_ + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)) return false;
        if (n < 0) throw file_error(files_.back(), "write");
        if (n == 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

void FileFill::flush()
{
    if (write_fd_ >= 0) ::close(write_fd_);
    write_fd_ = -1;
    for (const auto& file : files_) {
        const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw file_error(file, "cannot open");
        const bool synced = ::fsync(fd) == 0;
        // Written back, so the pages can go: the reads must ask the card.
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        ::close(fd);
        if (!synced) throw file_error(file, "flush");
    }
}

bool FileFill::read(uint64_t offset, std::span<uint8_t> out)
{
    const auto [file, in_file] = where(offset);
    const std::size_t index = offset / file_bytes_;
    if (read_fd_ < 0 || index != read_index_) {
        if (read_fd_ >= 0) ::close(read_fd_);
        read_direct_ = true;
        read_fd_ = ::open(file.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
        if (read_fd_ < 0 && errno == EINVAL) { // no O_DIRECT here: drop the cached pages before each read
            read_direct_ = false;
            read_fd_ = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
        }
        if (read_fd_ < 0) throw file_error(file, "cannot open");
        read_index_ = index;
    }
    if (!read_direct_) ::posix_fadvise(read_fd_, static_cast<off_t>(in_file), static_cast<off_t>(out.size()), POSIX_FADV_DONTNEED);
    uint8_t* buf = bounce_.get(out.size());
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(read_fd_, buf + done, out.size() - done, static_cast<off_t>(in_file + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EIO) return false;
        if (n < 0) throw file_error(file, "read");
        if (n == 0) break; // shorter than written: the rest reads as nothing (lost)
        done += static_cast<std::size_t>(n);
    }
    std::memset(buf + done, 0, out.size() - done);
    std::memcpy(out.data(), buf, out.size());
    return true;
}

std::size_t FileFill::remove_files()
{
    if (write_fd_ >= 0) ::close(write_fd_);
    if (read_fd_ >= 0) ::close(read_fd_);
    write_fd_ = read_fd_ = -1;
    std::size_t removed = 0;
    for (const auto& file : files_) removed += ::unlink(file.c_str()) == 0;
    files_.clear();
    const int d = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d >= 0) {
        ::fsync(d);
        ::close(d);
    }
    return removed;
}

} // namespace mmc::probe
