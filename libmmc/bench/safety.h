// Before any write to a raw device: the refusals mmc-erase makes (not an
// MMC/SD card without --any-device; mounted, swap, held by another driver,
// the root filesystem's disk, read-only), taken from libmmc/erase, and the
// confirmation (-y/--yes, or "yes" typed on a terminal; no terminal and no
// --yes: refuse).
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

enum class Confirmation { yes, declined, no_terminal };
// `question` on stderr, answered on stdin; only "yes" agrees. assume_yes
// skips the question.
Confirmation confirm(const std::string& question, bool assume_yes);

} // namespace mmc::bench
