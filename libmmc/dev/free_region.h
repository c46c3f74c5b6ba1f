// Room on a device in service for a few writes of our own (the write
// canary): a directory on one of its mounted file systems, or a raw region
// that no partition and no file system holds. Reads the mount table and
// sysfs; the words of every refusal are here.
#pragma once

#include "dev/resolver.h"

#include <filesystem>
#include <string>

namespace mmc::dev {

struct MountedDirectory {
    std::filesystem::path dir;   // empty when none is mounted writable
    std::string read_only_mount; // else the first one mounted read-only, if any
};

// The mount point of the first file system on the device (the disk itself
// or one of its partitions, in mount-table order) mounted read-write.
MountedDirectory writable_mount(const Device& device, const SafetyRoots& roots);

// Why the region [offset, offset + size) of the device may not be written
// while it is in service, in words ("overlaps mmcblk0p1 (bytes 4194304 to 62914560)"); empty
// when it may: inside the disk, whole logical blocks, outside every
// partition, and the disk itself not mounted, swap or held.
std::string free_region_problem(const Device& device, uint64_t offset, uint64_t size, uint32_t logical_block,
                                const SafetyRoots& roots);

} // namespace mmc::dev
