// What the running system says about itself: the kernel's release and
// machine (one uname for every tool), its log ring (one reader for the bus
// doctor and the benchmark's queueing evidence), and the host facts a result
// bundle records (one reader of DMI, the device tree, os-release, cpuinfo).
#pragma once

#include <filesystem>
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

// The machine a measurement was made on, for a result bundle. Empty strings
// for what the system does not say. Files are read under `root` so tests
// can point it at a fixture tree; the kernel and host name are uname's.
struct HostFacts {
    std::string hostname;
    std::string machine;   // the device tree's model, else DMI's "vendor product"
    std::string kernel;    // uname release
    std::string arch;      // uname machine
    std::string os;        // os-release PRETTY_NAME
    std::string cpu_model; // cpuinfo's "model name" (x86), else "Model" or "Hardware" (ARM)
};
HostFacts read_host_facts(const std::filesystem::path& root = "/");

} // namespace mmc::dev
