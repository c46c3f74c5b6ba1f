// Where in a sysfs path a device of some kind lies: the card directory
// (mmcN:RRRR) above a block device, the USB interface (2-1:1.0) above a
// SCSI disk. One walk for every such question.
#pragma once

#include "dev/sysfs.h"

#include <optional>
#include <regex>

namespace mmc::dev {

// The path up to and including the last component that matches `name`.
std::optional<fs::path> last_ancestor_named(const fs::path& path, const std::regex& name);

} // namespace mmc::dev
