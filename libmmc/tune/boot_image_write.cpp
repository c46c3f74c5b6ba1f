#include "tune/boot_image_write.h"

#include "probe/aligned_buffer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace mmc::tune {

namespace {

constexpr std::size_t chunk = 64 * 1024;

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd()
    {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }
    int release()
    {
        const int f = fd_;
        fd_ = -1;
        return f;
    }

private:
    int fd_;
};

std::system_error sys_error(const std::string& what) { return std::system_error(errno, std::generic_category(), what); }

// Puts force_ro back when it leaves scope, and tells whether it could.
class ForceRoGuard {
public:
    ForceRoGuard(const std::filesystem::path& path, bool was) : path_(path), was_(was) {}
    ~ForceRoGuard() { (void)restore(); }
    std::string restore() noexcept
    {
        if (done_) return result_;
        done_ = true;
        try {
            if (dev::read_force_ro(path_) != was_) dev::write_force_ro(path_, was_);
            result_ = dev::read_force_ro(path_) == was_ ? "" : fmt::format("force_ro reads back otherwise than {}", was_ ? 1 : 0);
        } catch (const std::exception& e) {
            result_ = e.what();
        }
        return result_;
    }

private:
    std::filesystem::path path_;
    bool was_;
    bool done_ = false;
    std::string result_;
};

} // namespace

LoadedImage load_boot_image(const std::string& path, uint64_t cap)
{
    LoadedImage out;
    // O_NONBLOCK: a FIFO given as the image must not hang the open.
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) {
        out.facts.error = std::strerror(errno);
        return out;
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) {
        out.facts.error = std::strerror(errno);
        return out;
    }
    out.facts.regular = S_ISREG(st.st_mode);
    if (!out.facts.regular) return out;
    std::vector<uint8_t> bytes;
    uint8_t buf[chunk];
    while (bytes.size() <= cap) {
        const ssize_t n = ::read(fd.get(), buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            out.facts.error = std::strerror(errno);
            return out;
        }
        if (n == 0) break;
        bytes.insert(bytes.end(), buf, buf + n);
    }
    out.facts.bytes = bytes.size() > cap ? std::max<uint64_t>(bytes.size(), static_cast<uint64_t>(st.st_size)) : bytes.size();
    if (bytes.size() <= cap) out.bytes = std::move(bytes);
    return out;
}

std::vector<uint8_t> read_boot_area(const std::string& node, uint64_t bytes)
{
    const uint64_t whole = (bytes + 4095) / 4096 * 4096;
    int fd = ::open(node.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    const bool direct = fd >= 0;
    if (!direct) {
        // A node that takes no O_DIRECT (a file on tmpfs in the tests): the
        // cached pages are dropped first, so the read still asks the device.
        fd = ::open(node.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw sys_error(node);
        (void)::ioctl(fd, BLKFLSBUF, 0);
        (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    }
    Fd guard(fd);
    probe::AlignedBuffer buffer;
    uint8_t* p = buffer.get(whole);
    uint64_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::pread(fd, p + got, whole - got, static_cast<off_t>(got));
        if (n < 0) {
            if (errno == EINTR) continue;
            throw sys_error(fmt::format("{}: reading back", node));
        }
        if (n == 0) break;
        got += static_cast<uint64_t>(n);
    }
    return std::vector<uint8_t>(p, p + std::min(got, bytes));
}

BootWriteOutcome write_boot_image(const dev::BootAreaNode& area, std::span<const uint8_t> image, const std::atomic<bool>& stop)
{
    BootWriteOutcome out;
    try {
        out.force_ro_was = dev::read_force_ro(area.force_ro);
    } catch (const std::exception& e) {
        throw BootImageError(fmt::format("{}: force_ro: {}; nothing was written", area.node, e.what()));
    }
    ForceRoGuard guard(area.force_ro, out.force_ro_was);
    auto fail = [&](const std::string& what, bool interrupted) {
        const std::string restored = guard.restore();
        const std::string tail = restored.empty() ? fmt::format("force_ro is back at {}", out.force_ro_was ? 1 : 0)
                                                  : fmt::format("force_ro could not be put back to {}: {}", out.force_ro_was ? 1 : 0,
                                                                restored);
        const std::string msg = fmt::format("{}: {}; {}", area.node, what, tail);
        if (interrupted) throw BootImageInterrupted(msg);
        throw BootImageError(msg);
    };
    try {
        if (out.force_ro_was) dev::write_force_ro(area.force_ro, false);
    } catch (const std::exception& e) {
        fail(fmt::format("force_ro could not be cleared ({}); nothing was written", e.what()), false);
    }
    {
        Fd fd(::open(area.node.c_str(), O_WRONLY | O_EXCL | O_CLOEXEC));
        if (fd.get() < 0) fail(fmt::format("open for writing: {}; nothing was written", std::strerror(errno)), false);
        std::size_t done = 0;
        while (done < image.size()) {
            if (stop.load())
                fail(fmt::format("interrupted after {} of {} bytes: the partition holds part of the image", done, image.size()), true);
            const std::size_t n = std::min(chunk, image.size() - done);
            const ssize_t w = ::pwrite(fd.get(), image.data() + done, n, static_cast<off_t>(done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) fail(fmt::format("writing at byte {}: {}", done, w < 0 ? std::strerror(errno) : "nothing written"), false);
            done += static_cast<std::size_t>(w);
        }
        if (::fsync(fd.get()) != 0) fail(fmt::format("fsync: {}", std::strerror(errno)), false);
        if (::close(fd.release()) != 0) fail(fmt::format("close: {}", std::strerror(errno)), false);
    }
    std::vector<uint8_t> back;
    try {
        back = read_boot_area(area.node, image.size());
    } catch (const std::exception& e) {
        fail(fmt::format("written, but not read back: {}", e.what()), false);
    }
    if (back.size() != image.size() || !std::equal(image.begin(), image.end(), back.begin())) {
        std::size_t at = 0;
        while (at < back.size() && at < image.size() && back[at] == image[at]) ++at;
        fail(fmt::format("read back differs from the image at byte {}", at), false);
    }
    if (const std::string restored = guard.restore(); !restored.empty())
        throw BootImageError(fmt::format("{}: written and verified, but force_ro could not be put back to {}: {}", area.node,
                                         out.force_ro_was ? 1 : 0, restored));
    return out;
}

} // namespace mmc::tune
