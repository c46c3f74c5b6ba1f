#include "dev/journal.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/un.h>
#include <system_error>
#include <unistd.h>

namespace mmc::dev {

bool journal_field_name_ok(std::string_view name)
{
    if (name.empty() || name.size() > 64 || name.front() == '_' || (name.front() >= '0' && name.front() <= '9')) return false;
    for (char c : name)
        if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

std::string journal_datagram(const JournalFields& fields)
{
    std::string out;
    for (const auto& [name, value] : fields) {
        if (!journal_field_name_ok(name)) throw std::invalid_argument(fmt::format("journal field name '{}'", name));
        if (value.find('\n') == std::string::npos) {
            out += name + "=" + value + "\n";
            continue;
        }
        out += name + "\n";
        std::uint64_t n = value.size();
        for (int i = 0; i < 8; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
        out += value + "\n";
    }
    return out;
}

JournalSocket::JournalSocket(std::string path) : path_(std::move(path))
{
    fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "journal socket");
    // Is anyone there? Asked now, on a socket of its own, so that a machine
    // without journald is told at start, not at the first event; records
    // go by sendto, which finds a restarted journald's new socket.
    const int probe = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (probe < 0) throw std::system_error(errno, std::generic_category(), "journal socket");
    const sockaddr_un addr = address();
    const int rc = ::connect(probe, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr));
    const int error = errno;
    ::close(probe);
    if (rc != 0) {
        ::close(fd_);
        throw std::system_error(error, std::generic_category(), "journal " + path_);
    }
}

sockaddr_un JournalSocket::address() const
{
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path_.size() >= sizeof(addr.sun_path)) throw std::system_error(ENAMETOOLONG, std::generic_category(), "journal " + path_);
    std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
    return addr;
}

JournalSocket::~JournalSocket()
{
    if (fd_ >= 0) ::close(fd_);
}

void JournalSocket::send(const JournalFields& fields)
{
    const std::string datagram = journal_datagram(fields);
    const sockaddr_un addr = address();
    for (;;) {
        const ssize_t sent = ::sendto(fd_, datagram.data(), datagram.size(), MSG_NOSIGNAL, reinterpret_cast<const sockaddr*>(&addr),
                                      sizeof(addr));
        if (sent >= 0) return;
        if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "journal " + path_);
    }
}

} // namespace mmc::dev
