#include "bench/quick_read.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <linux/fs.h>
#include <memory>
#include <sys/ioctl.h>
#include <system_error>
#include <unistd.h>

namespace mmc::bench {

QuickRead quick_read(const std::string& device, double max_seconds, uint32_t block_bytes, uint64_t max_bytes)
{
    const int fd = ::open(device.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0) throw std::system_error(errno, std::generic_category(), device);
    std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* p) { ::close(*p); delete p; });

    uint64_t size = 0;
    if (::ioctl(fd, BLKGETSIZE64, &size) < 0) size = static_cast<uint64_t>(::lseek(fd, 0, SEEK_END));
    if (max_bytes == 0 || max_bytes > size) max_bytes = size;

    void* raw = nullptr;
    if (posix_memalign(&raw, 4096, block_bytes) != 0) throw std::bad_alloc();
    std::unique_ptr<void, void (*)(void*)> buffer(raw, std::free);

    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    const auto deadline = start + std::chrono::duration<double>(max_seconds);
    QuickRead r;
    while (r.bytes + block_bytes <= max_bytes && clock::now() < deadline) {
        const ssize_t n = ::pread(fd, raw, block_bytes, static_cast<off_t>(r.bytes));
        if (n < 0) throw std::system_error(errno, std::generic_category(), device + ": read");
        if (n == 0) break;
        r.bytes += static_cast<uint64_t>(n);
    }
    r.seconds = std::chrono::duration<double>(clock::now() - start).count();
    r.mb_s = r.seconds > 0 ? static_cast<double>(r.bytes) / r.seconds / 1e6 : 0;
    return r;
}

} // namespace mmc::bench
