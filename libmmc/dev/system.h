// What the running kernel says about itself: its release and machine (one
// uname for every tool) and its log ring (one reader for the bus doctor and
// the benchmark's queueing evidence).
#pragma once

#include <optional>
#include <string>

namespace mmc::dev {

struct KernelInfo {
    std::string release;  // "6.1.0-27-amd64"
    std::string machine;  // "x86_64", "aarch64"
    std::string nodename; // the host name
};

// Empty fields when uname fails (it does not, in practice).
KernelInfo kernel_info();

// The kernel's log ring (dmesg), or nullopt when it cannot be read
// (kernel.dmesg_restrict without CAP_SYSLOG, or a container without it).
std::optional<std::string> read_kernel_log();

} // namespace mmc::dev
