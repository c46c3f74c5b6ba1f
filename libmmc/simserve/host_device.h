// The simulated card as a block device on this machine: the nbdkit plugin
// serves the model on a private unix socket, nbdfuse exposes the NBD export
// as a file, and a loop device with direct I/O turns that file into a block
// device. (The kernel here has loop and FUSE but neither nbd nor null_blk
// nor device-mapper, so this is the chain that works everywhere.)
#pragma once

#include "cli/process.h"
#include "dev/sysfs.h"
#include "sim/params.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::simserve {

// Says clearly what is missing to build the chain (root, /dev/loop-control,
// /dev/fuse, nbdkit, nbdfuse, losetup, fusermount3); throws std::runtime_error.
void check_host_can_serve();

class HostDevice {
public:
    // Builds the chain, throwing std::runtime_error naming the step that
    // failed and what its program said. Stops early (tearing down what was
    // built) when a stop signal arrives (cli/stop_signal.h). The loop
    // device's attributes are read through roots (the live system's unless
    // told otherwise).
    HostDevice(const sim::Params& params, const std::filesystem::path& plugin, dev::SysRoots roots = {});
    ~HostDevice();
    HostDevice(const HostDevice&) = delete;
    HostDevice& operator=(const HostDevice&) = delete;

    const std::string& device() const { return device_; }
    // The plugin's counters document, rewritten at every flush of the device.
    std::filesystem::path live_stats() const { return dir_ / "stats.json"; }

    // Detaches the loop device, unmounts FUSE, stops nbdkit (which writes the
    // final counters) and removes the private directory. Idempotent. Returns
    // the final counters document (null when nbdkit left none).
    nlohmann::json stop();
    // What went wrong while tearing down (a busy device, a helper that had
    // to be killed); empty after a clean stop.
    const std::vector<std::string>& warnings() const { return warnings_; }

private:
    void build(const sim::Params& params, const std::filesystem::path& plugin);
    void start_nbdkit(const std::filesystem::path& plugin);
    void start_nbdfuse();
    void attach_loop();

    dev::SysRoots roots_;
    std::filesystem::path dir_, mountpoint_;
    std::optional<cli::Child> nbdkit_, nbdfuse_;
    std::string device_;
    std::vector<std::string> warnings_;
};

} // namespace mmc::simserve
