// The write canary (mmc-health --canary): a few pages written with the
// verify pattern (verify.h: each sector names its own address and this
// run's sequence number), flushed, read back past the page cache and
// compared. It catches what a card's registers cannot say: a card that
// acknowledges writes and keeps none (the end of life of many SD cards), one
// that turned read-only or died, one whose fresh writes read back wrong.
// run_canary is pure over a VerifyTarget (a simulated card in the unit
// tests); the file and region runners are its two real targets.
#pragma once

#include "health/canary_result.h"
#include "probe/capacity_device.h"
#include "probe/verify.h"

#include <filesystem>

namespace mmc::probe {

// One run on `target` with this sequence number (the caller picks it at
// random, so that what an earlier run left cannot pass for this one's).
// A write or flush refused (EROFS, EPERM, EACCES) is read_only; one that
// failed (EIO) read_only when the target still reads, else dead. Throws
// what the target throws for anything else.
health::CanaryResult run_canary(VerifyTarget& target, uint64_t sequence);

// In a file of its own, mmc-health-canary.0 in `dir`, removed after the
// run. A directory that cannot be written (EROFS, EACCES) is read_only.
// Throws std::runtime_error on any other failure (a full file system).
health::CanaryResult run_file_canary(const std::filesystem::path& dir, uint64_t sequence);

// In the region [offset, offset + size) of the device.
health::CanaryResult run_region_canary(DeviceBlocks& device, const std::string& path, uint64_t offset, uint64_t size,
                                       uint64_t sequence);

} // namespace mmc::probe
