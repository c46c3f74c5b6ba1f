#include "cli/file_out.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace mmc::cli {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& path, std::string_view why)
{
    throw std::runtime_error(fmt::format("{}: {}", path.string(), why));
}

void write_all(int fd, std::string_view text, const fs::path& path)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail(path, n < 0 ? std::strerror(errno) : "write failed");
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

void write_through(const fs::path& path, std::string_view text)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) fail(path, std::strerror(errno));
    try {
        write_all(fd, text, path);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (::close(fd) != 0) fail(path, std::strerror(errno));
}

// target is a regular file or does not exist; mode is what the new file gets.
void replace_atomically(const fs::path& target, std::string_view text, mode_t mode)
{
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string tmp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = ::mkstemp(tmp.data()); // O_EXCL: never follows what another user put there
    if (fd < 0) fail(tmp, std::strerror(errno));
    try {
        write_all(fd, text, tmp);
        if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) fail(tmp, std::strerror(errno));
    } catch (...) {
        ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    if (::close(fd) != 0 || ::rename(tmp.c_str(), target.c_str()) != 0) {
        const int e = errno;
        ::unlink(tmp.c_str());
        fail(target, std::strerror(e));
    }
}

} // namespace

void write_output_file(const fs::path& path, std::string_view text)
{
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) fail(path, std::strerror(errno));
        const mode_t mask = ::umask(0);
        ::umask(mask);
        return replace_atomically(path, text, 0666 & ~mask);
    }
    fs::path target = path;
    if (S_ISLNK(st.st_mode)) {
        std::error_code ec;
        target = fs::canonical(path, ec);
        if (ec || ::stat(target.c_str(), &st) != 0) fail(path, "a symlink to nothing; not replaced (name its target or remove it)");
    }
    if (S_ISDIR(st.st_mode)) fail(path, "is a directory");
    if (S_ISREG(st.st_mode)) return replace_atomically(target, text, st.st_mode & 07777);
    write_through(target, text);
}

} // namespace mmc::cli
