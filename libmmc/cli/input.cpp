#include "cli/input.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <unistd.h>

namespace mmc::cli {

std::string read_input(const std::string& path, std::size_t max_bytes, std::string_view what)
{
    const bool stdin_input = path == "-";
    const int fd = stdin_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(fmt::format("{}: {}", path, std::strerror(errno)));
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            if (!stdin_input) ::close(fd);
            throw std::runtime_error(fmt::format("{}: {}", path, std::strerror(err)));
        }
        if (n == 0) break;
        if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
            if (!stdin_input) ::close(fd);
            throw std::runtime_error(fmt::format("{}: larger than {} bytes ({} is far smaller); not read",
                                                 stdin_input ? "standard input" : path, max_bytes, what));
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    if (!stdin_input) ::close(fd);
    return text;
}

} // namespace mmc::cli
