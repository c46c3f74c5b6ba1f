#include "dev/host_debugfs.h"

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace mmc::dev {

namespace {

constexpr auto poll_interval = std::chrono::milliseconds(20);
constexpr std::size_t direct_align = 4096;

[[noreturn]] void fail(const fs::path& p, const char* what, int err)
{
    throw std::runtime_error(fmt::format("{}: cannot {}: {}", p.string(), what, std::strerror(err)));
}

std::string read_text(const fs::path& p)
{
    const auto v = read_attr(p);
    if (!v) fail(p, "read", errno ? errno : ENOENT);
    return *v;
}

void write_text(const fs::path& p, const std::string& value)
{
    const int fd = ::open(p.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) fail(p, "open for writing", errno);
    const std::string line = value + "\n";
    const ssize_t n = ::write(fd, line.data(), line.size());
    const int err = errno;
    ::close(fd);
    if (n < 0) fail(p, "write", err);
    if (static_cast<std::size_t>(n) != line.size()) fail(p, "write", EIO);
}

uint64_t number(const fs::path& p, int base)
{
    std::string s = read_text(p);
    if (base == 16 && (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0)) s.erase(0, 2);
    uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (s.empty() || r.ec != std::errc()) throw std::runtime_error(fmt::format("{}: not a number: {}", p.string(), s.substr(0, 40)));
    return v;
}

struct Fd {
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0) ::close(fd);
    }
};

// O_DIRECT, so a read is the card's and not the page cache's; a file
// system that refuses it (a fixture file on tmpfs) is read through the cache.
int open_card(const fs::path& p, int flags)
{
    int fd = ::open(p.c_str(), flags | O_DIRECT | O_CLOEXEC);
    if (fd < 0 && errno == EINVAL) fd = ::open(p.c_str(), flags | O_CLOEXEC);
    if (fd < 0) fail(p, "open", errno);
    return fd;
}

struct AlignedFree {
    void operator()(void* p) const { std::free(p); }
};

} // namespace

DebugfsHost::DebugfsHost(const Card& card, const SysRoots& roots, fs::path card_data)
    : host_(card.host.name), dir_(host_debugfs(card.host, roots)), power_(card.syspath / "power"), card_data_(std::move(card_data)),
      capacity_(card.capacity_bytes)
{
}

std::string DebugfsHost::caps_not_writable() const
{
    struct stat st{};
    const fs::path p = dir_ / "caps";
    if (::stat(p.c_str(), &st) != 0) return fmt::format("{}: {}", p.string(), std::strerror(errno));
    if (!(st.st_mode & S_IWUSR))
        return fmt::format("{} is read-only (mode {:04o}): this kernel cannot set caps", p.string(), st.st_mode & 07777);
    if (::access(p.c_str(), W_OK) != 0) return fmt::format("{}: {} (run as root)", p.string(), std::strerror(errno));
    return {};
}

uint32_t DebugfsHost::caps() const { return static_cast<uint32_t>(number(dir_ / "caps", 16)); }
uint32_t DebugfsHost::caps2() const { return static_cast<uint32_t>(number(dir_ / "caps2", 16)); }
uint64_t DebugfsHost::clock() const { return number(dir_ / "clock", 10); }

bus::Ios DebugfsHost::ios() const
{
    const auto parsed = bus::parse_ios(read_text(dir_ / "ios"));
    if (parsed.empty()) throw std::runtime_error(fmt::format("{}: no ios lines", (dir_ / "ios").string()));
    return parsed.front();
}

std::string DebugfsHost::err_stats() const { return read_attr(dir_ / "err_stats").value_or(""); }
std::string DebugfsHost::power_control() const { return read_text(power_ / "control"); }
std::string DebugfsHost::runtime_status() const { return read_text(power_ / "runtime_status"); }

std::optional<long> DebugfsHost::autosuspend_delay_ms() const
{
    const auto v = read_attr(power_ / "autosuspend_delay_ms");
    if (!v) return std::nullopt;
    long ms = 0;
    const auto r = std::from_chars(v->data(), v->data() + v->size(), ms);
    if (r.ec != std::errc()) return std::nullopt;
    return ms;
}

void DebugfsHost::set_caps(uint32_t v) const { write_text(dir_ / "caps", fmt::format("0x{:08x}", v)); }
void DebugfsHost::set_caps2(uint32_t v) const { write_text(dir_ / "caps2", fmt::format("0x{:08x}", v)); }
void DebugfsHost::set_clock(uint64_t hz) const { write_text(dir_ / "clock", std::to_string(hz)); }
void DebugfsHost::set_power_control(const std::string& v) const { write_text(power_ / "control", v); }
void DebugfsHost::set_autosuspend_delay_ms(long ms) const { write_text(power_ / "autosuspend_delay_ms", std::to_string(ms)); }

void DebugfsHost::power_cycle(double timeout_s, const std::atomic<bool>* stop) const
{
    if (autosuspend_delay_ms()) set_autosuspend_delay_ms(0);
    set_power_control("auto");
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (runtime_status() != "suspended") {
        if (stop && stop->load()) throw std::runtime_error("stopped while waiting for the card to power off");
        if (std::chrono::steady_clock::now() > until)
            throw std::runtime_error(fmt::format("{}: the card did not power off (runtime suspend) within {} s; is it busy?",
                                                 (power_ / "runtime_status").string(), timeout_s));
        std::this_thread::sleep_for(poll_interval);
    }
    set_power_control("on");
}

uint64_t DebugfsHost::card_bytes() const
{
    if (capacity_) return capacity_;
    Fd f{open_card(card_data_, O_RDONLY)};
    const off_t end = ::lseek(f.fd, 0, SEEK_END);
    if (end < 0) fail(card_data_, "find the size of", errno);
    return static_cast<uint64_t>(end);
}

void DebugfsHost::read(uint64_t offset, std::span<uint8_t> into) const
{
    Fd f{open_card(card_data_, O_RDONLY)};
    std::unique_ptr<void, AlignedFree> buf(std::aligned_alloc(direct_align, (into.size() + direct_align - 1) / direct_align * direct_align));
    if (!buf) throw std::bad_alloc();
    std::size_t done = 0;
    while (done < into.size()) {
        const ssize_t n = ::pread(f.fd, static_cast<uint8_t*>(buf.get()) + done, into.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(card_data_, "read", errno);
        if (n == 0) fail(card_data_, "read past the end of", EIO);
        done += static_cast<std::size_t>(n);
    }
    std::memcpy(into.data(), buf.get(), into.size());
}

void DebugfsHost::write(uint64_t offset, std::span<const uint8_t> from) const
{
    Fd f{open_card(card_data_, O_WRONLY | O_SYNC)};
    std::unique_ptr<void, AlignedFree> buf(std::aligned_alloc(direct_align, (from.size() + direct_align - 1) / direct_align * direct_align));
    if (!buf) throw std::bad_alloc();
    std::memcpy(buf.get(), from.data(), from.size());
    std::size_t done = 0;
    while (done < from.size()) {
        const ssize_t n = ::pwrite(f.fd, static_cast<const uint8_t*>(buf.get()) + done, from.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail(card_data_, "write", n < 0 ? errno : EIO);
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(f.fd) != 0) fail(card_data_, "flush", errno);
}

} // namespace mmc::dev
