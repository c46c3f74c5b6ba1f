// Before any write to a raw device: not an MMC/SD card unless any_device,
// and the block device's own safety (dev/block_safety: mounted, swap, held by
// another driver, the root filesystem's disk, read-only). The confirmation
// is cli::confirm.
#pragma once

#include "cli/errors.h"
#include "dev/sysfs.h"

#include <string>

namespace mmc::bench {

// A failure; the remedy (what the user can do), if any, by meaning.
struct WriteRefused : cli::Error {
    explicit WriteRefused(const std::string& what, cli::Remedy r = cli::Remedy::none)
        : cli::Error(cli::ErrorKind::failure, what, r) {}
};

// Throws WriteRefused when writing to `device_path` would destroy data
// mmc-bench must not touch. Claims by other drivers are also caught by
// O_EXCL when the device is opened.
void check_destructive(const std::string& device_path, const dev::SysRoots& roots, bool any_device);


} // namespace mmc::bench
