// Before any write to a raw device: not an MMC/SD card without --any-device,
// and the block device's own safety (dev/block_safety: mounted, swap, held by
// another driver, the root filesystem's disk, read-only). The confirmation
// is cli::confirm.
#pragma once

#include "dev/sysfs.h"

#include <stdexcept>
#include <string>

namespace mmc::bench {

struct WriteRefused : std::runtime_error {
    std::string hint; // what the user can do, or empty
    WriteRefused(const std::string& what, std::string h) : std::runtime_error(what), hint(std::move(h)) {}
};

// Throws WriteRefused when writing to `device_path` would destroy data
// mmc-bench must not touch. Claims by other drivers are also caught by
// O_EXCL when the device is opened.
void check_destructive(const std::string& device_path, const dev::SysRoots& roots, bool any_device);


} // namespace mmc::bench
