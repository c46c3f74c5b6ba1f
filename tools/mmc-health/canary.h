// mmc-health --canary: where the canary goes on a device (a file of its own
// on a mounted file system, or the raw region --destructive names, after a
// confirmation) and running it there. The deciding is in libmmc/health.
#pragma once

#include "dev/resolver.h"
#include "health/canary_result.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mmc_health {

struct CanaryOptions {
    bool on = false;
    bool destructive = false; // a raw region, --offset and --size
    bool yes = false;
    bool any_device = false;
    std::optional<uint64_t> offset, size;
};

// The usage errors of the canary's options, thrown as cli::UsageError.
void check_canary_options(const CanaryOptions& o);

// The block device `typed` names, for the canary: any block device with
// --any-device, else an MMC/SD card's (or a card reader's slot); throws
// dev::DeviceError otherwise.
mmc::dev::Device canary_device(const std::string& typed, const CanaryOptions& o, const mmc::dev::SysRoots& roots);

// One canary run on the device; throws cli::Error when it cannot run
// (no file system mounted, a region refused, not confirmed).
mmc::health::CanaryResult run_device_canary(const mmc::dev::Device& device, const CanaryOptions& o, const mmc::dev::SysRoots& roots);

} // namespace mmc_health
