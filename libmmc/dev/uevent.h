// Kernel uevents: the parser for the kernel's netlink message format, the
// filter that picks out SD/MMC cards, hosts and their block devices, and a
// listener on NETLINK_KOBJECT_UEVENT (libmnl). The parser and the filter are
// pure; only UeventListener touches the kernel.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>

struct mnl_socket;

namespace mmc::dev {

// One kernel uevent. action and devpath come from the "ACTION@DEVPATH"
// header; subsystem, devname (as the kernel sends it: "mmcblk0", no "/dev/")
// and devtype are copies of SUBSYSTEM, DEVNAME and DEVTYPE, empty when the
// event has none; env holds every KEY=VALUE the kernel sent, those included.
struct Uevent {
    std::string action;
    std::string devpath;
    std::string subsystem;
    std::string devname;
    std::string devtype;
    std::optional<std::uint64_t> seqnum; // SEQNUM, absent when missing or not a number
    std::map<std::string, std::string> env;
};

// Parses one kernel message: "ACTION@DEVPATH\0KEY=VALUE\0...". Returns
// nothing for messages udev rebroadcasts ("libudev\0" + binary header) and
// for malformed ones (empty, no '@', empty action, devpath not starting with
// '/'). Entries without '=' are skipped; a missing final NUL is tolerated.
std::optional<Uevent> parse_uevent(std::span<const char> msg);

// True for events about cards and hosts (subsystems mmc, mmc_host), eMMC
// RPMB partitions (mmc_rpmb) and block devices whose DEVNAME starts with
// "mmcblk" (disks, partitions, boot areas).
bool is_mmc_event(const Uevent& event);

// Listens to kernel uevents (netlink group 1) from construction on; events
// sent before it existed are not seen. Reusable: the benchmark polls one to
// notice a card pulled mid-run.
class UeventListener {
public:
    // Throws std::system_error (errno in code()) when the socket cannot be
    // opened or bound, e.g. EPERM/EACCES under a seccomp or LSM policy.
    UeventListener();
    ~UeventListener();
    UeventListener(UeventListener&& other) noexcept;
    UeventListener& operator=(UeventListener&& other) noexcept;
    UeventListener(const UeventListener&) = delete;
    UeventListener& operator=(const UeventListener&) = delete;

    // The next kernel uevent (every subsystem; filter with is_mmc_event).
    // Waits at most timeout (negative: without limit); returns nothing when
    // it expires or a signal interrupts the wait. Messages that are not from
    // the kernel, truncated or malformed are skipped. Throws std::system_error
    // on socket errors other than an overrun.
    std::optional<Uevent> next(std::chrono::milliseconds timeout);

    // How many times the socket's receive buffer overflowed (ENOBUFS) and
    // events were lost; a caller that must not miss one compares this.
    std::uint64_t overruns() const { return overruns_; }

    // The socket, for callers that poll it alongside other descriptors.
    int fd() const;

private:
    mnl_socket* socket_ = nullptr;
    std::uint64_t overruns_ = 0;
};

} // namespace mmc::dev
