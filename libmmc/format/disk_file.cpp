// DiskFile (disk_file.h).
#include "format/disk_file.h"

#include <cerrno>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace mmc::format {

DiskFile::DiskFile(const std::string& path)
{
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), path);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) {
        const int e = errno;
        ::close(fd_);
        throw std::system_error(e, std::generic_category(), path);
    }
    if (S_ISBLK(st.st_mode)) {
        block_ = true;
        if (::ioctl(fd_, BLKGETSIZE64, &bytes_) != 0) {
            const int e = errno;
            ::close(fd_);
            throw std::system_error(e, std::generic_category(), path + ": BLKGETSIZE64");
        }
    } else if (S_ISREG(st.st_mode)) {
        bytes_ = static_cast<uint64_t>(st.st_size);
    } else {
        ::close(fd_);
        throw std::system_error(EINVAL, std::generic_category(), path + ": neither a block device nor an image file");
    }
}

DiskFile::~DiskFile()
{
    if (fd_ >= 0) ::close(fd_);
}

SectorReader DiskFile::reader() const
{
    const int fd = fd_;
    const uint64_t sectors = this->sectors();
    return [fd, sectors](uint64_t index) -> std::optional<Sector> {
        if (index >= sectors) return std::nullopt;
        Sector s{};
        std::size_t done = 0;
        while (done < s.size()) {
            const ssize_t n = ::pread(fd, s.data() + done, s.size() - done, static_cast<off_t>(index * 512 + done));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) throw std::system_error(errno, std::generic_category(), "reading sector " + std::to_string(index));
            if (n == 0) return std::nullopt;
            done += static_cast<std::size_t>(n);
        }
        return s;
    };
}

} // namespace mmc::format
