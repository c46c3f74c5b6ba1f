#include "bench/target.h"

#include "bench/data.h"
#include "bench/engines/engine.h"

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <system_error>
#include <unistd.h>

namespace mmc::bench {

namespace {

[[noreturn]] void fail(int err, const std::string& what) { throw std::system_error(err, std::generic_category(), what); }

// Writes `bytes` of fresh data sequentially in 1 MiB pieces.
void fill(int fd, uint64_t bytes, const std::atomic<bool>* stop,
          const std::function<void(uint64_t, uint64_t)>& progress, const std::string& what)
{
    constexpr std::size_t chunk = 1u << 20;
    SlotBuffers buf(1, chunk);
    Prng prng(fresh_seed());
    fill_random({buf[0], chunk}, prng);
    uint64_t done = 0, sequence = 0;
    while (done < bytes) {
        if (stop && stop->load()) fail(EINTR, what + ": interrupted while writing the test file");
        const auto n = static_cast<std::size_t>(std::min<uint64_t>(chunk, bytes - done));
        stamp_sectors({buf[0], n}, ++sequence, prng);
        const ssize_t w = ::pwrite64(fd, buf[0], n, static_cast<off64_t>(done));
        if (w < 0) {
            if (errno == EINTR) continue;
            fail(errno, what + ": writing the test file");
        }
        if (w == 0) fail(ENOSPC, what + ": writing the test file");
        done += static_cast<uint64_t>(w);
        if (progress) progress(done, bytes);
    }
    if (::fdatasync(fd) < 0) fail(errno, what + ": fdatasync");
}

} // namespace

std::string_view to_string(TargetKind kind)
{
    switch (kind) {
    case TargetKind::block: return "block";
    case TargetKind::file: return "file";
    case TargetKind::memory: return "memory";
    }
    return "unknown";
}

Target::Target(Target&& o) noexcept { *this = std::move(o); }

Target& Target::operator=(Target&& o) noexcept
{
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.fd_;
        o.fd_ = -1;
        kind_ = o.kind_;
        path_ = std::move(o.path_);
        size_ = o.size_;
        logical_block_ = o.logical_block_;
        direct_ = o.direct_;
        writable_ = o.writable_;
        device_ = o.device_;
    }
    return *this;
}

Target::~Target()
{
    if (fd_ >= 0) ::close(fd_);
}

Target Target::open_block(const std::string& path, bool write, bool direct)
{
    Target t;
    t.kind_ = TargetKind::block;
    t.path_ = path;
    t.writable_ = write;
    t.direct_ = direct;
    const int flags = (write ? O_RDWR | O_EXCL : O_RDONLY) | (direct ? O_DIRECT : 0) | O_CLOEXEC;
    t.fd_ = ::open(path.c_str(), flags);
    if (t.fd_ < 0) {
        if (errno == EBUSY) fail(EBUSY, path + ": in use (mounted, swap, or held by another driver)");
        fail(errno, path);
    }
    struct stat st{};
    if (::fstat(t.fd_, &st) < 0) fail(errno, path);
    if (!S_ISBLK(st.st_mode)) fail(ENOTBLK, path + ": not a block device");
    t.device_ = st.st_rdev;
    if (::ioctl(t.fd_, BLKGETSIZE64, &t.size_) < 0) fail(errno, path + ": BLKGETSIZE64");
    int lbs = 512;
    if (::ioctl(t.fd_, BLKSSZGET, &lbs) == 0 && lbs > 0) t.logical_block_ = static_cast<uint32_t>(lbs);
    if (t.size_ == 0) fail(ENOSPC, path + ": empty device (no medium?)");
    return t;
}

Target Target::create_file(const std::string& path, uint64_t bytes, const std::atomic<bool>* stop,
                           const std::function<void(uint64_t, uint64_t)>& progress)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string file = path;
    if (fs::is_directory(path, ec)) file = (fs::path(path) / fmt::format("mmc-bench.{}.tmp", ::getpid())).string();
    Target t;
    t.kind_ = TargetKind::file;
    t.path_ = file;
    t.writable_ = true;
    struct statvfs vfs{};
    const std::string dir = fs::path(file).parent_path().empty() ? "." : fs::path(file).parent_path().string();
    if (::statvfs(dir.c_str(), &vfs) == 0) {
        const uint64_t avail = static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
        if (bytes > avail)
            fail(ENOSPC, fmt::format("{}: a {}-byte test file does not fit ({} bytes free): give a smaller size", file, bytes, avail));
    }
    t.fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (t.fd_ < 0) {
        if (errno == EEXIST) fail(EEXIST, file + ": exists; mmc-bench creates its own test file (name a new file or a directory)");
        fail(errno, file);
    }
    // Gone from the directory now; the data lives until the descriptor closes.
    ::unlink(file.c_str());
    // O_DIRECT afterwards: open(O_CREAT | O_DIRECT) on a filesystem without
    // direct I/O would create the file and then fail.
    const int flags = ::fcntl(t.fd_, F_GETFL);
    t.direct_ = flags >= 0 && ::fcntl(t.fd_, F_SETFL, flags | O_DIRECT) == 0;
    struct stat st{};
    if (::fstat(t.fd_, &st) == 0) t.device_ = st.st_dev;
#ifdef STATX_DIOALIGN
    struct statx sx{};
    if (t.direct_ && ::statx(t.fd_, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
        sx.stx_dio_offset_align > 0)
        t.logical_block_ = sx.stx_dio_offset_align;
#endif
    if (t.logical_block_ < 512) t.logical_block_ = 512;
    bytes = bytes / (1u << 20) * (1u << 20);
    if (bytes == 0) fail(EINVAL, file + ": test file size below 1 MiB");
    fill(t.fd_, bytes, stop, progress, file);
    t.size_ = bytes;
    return t;
}

Target Target::memory(uint64_t bytes)
{
    Target t;
    t.kind_ = TargetKind::memory;
    t.path_ = "memfd:mmc-bench-null";
    t.direct_ = false;
    t.writable_ = true;
    t.fd_ = ::memfd_create("mmc-bench-null", MFD_CLOEXEC);
    if (t.fd_ < 0) fail(errno, "memfd_create");
    if (::ftruncate(t.fd_, static_cast<off_t>(bytes)) < 0) fail(errno, "memfd ftruncate");
    fill(t.fd_, bytes, nullptr, {}, t.path_);
    t.size_ = bytes;
    return t;
}

} // namespace mmc::bench
