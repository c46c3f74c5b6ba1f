// mmc-qualify's check of its device, before the plan runs any step: a run
// that could measure nothing (no such device, not a block device, not a
// card without --any-device, or held by a mount with --destructive) stops
// here with the resolver's words, and leaves no bundle behind.
#pragma once

#include "dev/resolver.h"
#include "qualify/settings.h"

namespace mmc::qualify {

// The device the run would use. Throws dev::DeviceError with the resolver's
// message (the name as the user typed it) and the remedy mmc-qualify offers.
// `proc` holds the mount and swap tables (a test's tree instead of /proc).
dev::Device check_device(const Settings& settings, const std::filesystem::path& proc = "/proc");

} // namespace mmc::qualify
