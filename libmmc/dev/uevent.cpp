#include "dev/uevent.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <climits>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <string_view>
#include <sys/socket.h>
#include <system_error>
#include <utility>

namespace mmc::dev {

namespace {

// The multicast group the kernel sends uevents to; udev rebroadcasts on 2.
constexpr unsigned kernel_group = 1;

// Asked for so a burst (a controller with several cards going away) fits;
// the kernel caps SO_RCVBUF at net.core.rmem_max unless we may force it.
constexpr int receive_buffer = 1 << 20;

std::optional<std::uint64_t> parse_number(std::string_view text)
{
    std::uint64_t value = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
    return value;
}

std::string env_or_empty(const std::map<std::string, std::string>& env, const char* key)
{
    const auto it = env.find(key);
    return it == env.end() ? std::string() : it->second;
}

} // namespace

std::optional<Uevent> parse_uevent(std::span<const char> msg)
{
    const std::string_view all(msg.data(), msg.size());
    if (all.empty() || all.starts_with(std::string_view("libudev\0", 8))) return std::nullopt;

    const auto header_end = std::min(all.find('\0'), all.size());
    const auto header = all.substr(0, header_end);
    const auto at = header.find('@');
    if (at == std::string_view::npos || at == 0) return std::nullopt;
    Uevent event;
    event.action = header.substr(0, at);
    event.devpath = header.substr(at + 1);
    if (event.devpath.empty() || event.devpath.front() != '/') return std::nullopt;

    for (auto pos = header_end + 1; pos < all.size();) {
        const auto end = std::min(all.find('\0', pos), all.size());
        const auto entry = all.substr(pos, end - pos);
        pos = end + 1;
        const auto eq = entry.find('=');
        if (eq == std::string_view::npos || eq == 0) continue;
        event.env[std::string(entry.substr(0, eq))] = entry.substr(eq + 1);
    }
    event.subsystem = env_or_empty(event.env, "SUBSYSTEM");
    event.devname = env_or_empty(event.env, "DEVNAME");
    event.devtype = env_or_empty(event.env, "DEVTYPE");
    if (const auto it = event.env.find("SEQNUM"); it != event.env.end()) event.seqnum = parse_number(it->second);
    return event;
}

bool is_mmc_event(const Uevent& event)
{
    const std::string_view subsystem = event.subsystem;
    if (subsystem == "mmc" || subsystem == "mmc_host" || subsystem == "mmc_rpmb") return true;
    std::string_view devname = event.devname;
    if (devname.starts_with("/dev/")) devname.remove_prefix(5);
    return subsystem == "block" && devname.starts_with("mmcblk");
}

UeventListener::UeventListener()
{
    socket_ = mnl_socket_open2(NETLINK_KOBJECT_UEVENT, SOCK_CLOEXEC);
    if (socket_ == nullptr) throw std::system_error(errno, std::generic_category(), "cannot open a uevent socket");
    if (mnl_socket_bind(socket_, kernel_group, MNL_SOCKET_AUTOPID) < 0) {
        const int saved = errno;
        mnl_socket_close(socket_);
        socket_ = nullptr;
        throw std::system_error(saved, std::generic_category(), "cannot listen to kernel uevents");
    }
    // Best effort: forcing needs CAP_NET_ADMIN, the plain request is capped.
    const int fd = mnl_socket_get_fd(socket_);
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &receive_buffer, sizeof receive_buffer) < 0)
        (void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
}

UeventListener::~UeventListener()
{
    if (socket_ != nullptr) mnl_socket_close(socket_);
}

UeventListener::UeventListener(UeventListener&& other) noexcept
    : socket_(std::exchange(other.socket_, nullptr)), overruns_(other.overruns_)
{
}

UeventListener& UeventListener::operator=(UeventListener&& other) noexcept
{
    if (this != &other) {
        if (socket_ != nullptr) mnl_socket_close(socket_);
        socket_ = std::exchange(other.socket_, nullptr);
        overruns_ = other.overruns_;
    }
    return *this;
}

int UeventListener::fd() const
{
    return socket_ == nullptr ? -1 : mnl_socket_get_fd(socket_);
}

std::optional<Uevent> UeventListener::next(std::chrono::milliseconds timeout)
{
    using clock = std::chrono::steady_clock;
    const bool forever = timeout.count() < 0;
    const auto deadline = clock::now() + (forever ? std::chrono::milliseconds(0) : timeout);
    const int fd = this->fd();
    if (fd < 0) throw std::system_error(EBADF, std::generic_category(), "uevent listener was moved from");

    // A uevent is at most UEVENT_BUFFER_SIZE (2 KiB) of variables plus the header.
    std::array<char, 16384> buffer;
    for (;;) {
        int wait_ms = -1;
        if (!forever) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now()).count();
            wait_ms = static_cast<int>(std::clamp<decltype(left)>(left, 0, INT_MAX));
        }
        pollfd p{fd, POLLIN, 0};
        const int ready = poll(&p, 1, wait_ms);
        if (ready < 0) {
            if (errno == EINTR) return std::nullopt;
            throw std::system_error(errno, std::generic_category(), "waiting for uevents");
        }
        if (ready == 0) return std::nullopt;

        sockaddr_nl from{};
        iovec iov{buffer.data(), buffer.size()};
        msghdr msg{};
        msg.msg_name = &from;
        msg.msg_namelen = sizeof from;
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        const ssize_t got = recvmsg(fd, &msg, MSG_DONTWAIT);
        if (got < 0) {
            if (errno == ENOBUFS) {
                ++overruns_;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                throw std::system_error(errno, std::generic_category(), "reading a uevent");
            }
        } else if ((msg.msg_flags & MSG_TRUNC) == 0 && from.nl_pid == 0) { // only the kernel's, whole
            if (auto event = parse_uevent({buffer.data(), static_cast<std::size_t>(got)})) return event;
        }
        if (!forever && clock::now() >= deadline) return std::nullopt;
    }
}

} // namespace mmc::dev
