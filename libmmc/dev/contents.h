// What is on a range of a block device before it is destroyed: the partition
// table, and the filesystem (or swap, RAID member, encrypted volume) of the
// device and of each partition the range touches, with its label. Read with
// libblkid, as blkdiscard and wipefs do: it probes the device itself, so it
// works where no udev database exists (containers, the labs' initramfs).
#pragma once

#include "dev/sysfs.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mmc::dev {

struct Volume {
    std::string device;   // "mmcblk0p2" (or the disk itself)
    uint64_t start = 0;   // its first byte on the disk
    uint64_t size = 0;    // bytes
    std::string usage;    // "filesystem", "other" (swap), "raid", "crypto", "partition table"
    std::string type;     // "ext4", "vfat", "swap", "dos", "gpt"
    std::string label;    // "" when none
};

// The volumes found on `disk` ("mmcblk0") that overlap [offset, offset +
// length) of the disk: a partition table when the range covers the disk's
// first sector, and every partition (or the disk itself) whose first bytes
// are in the range or which the range overlaps. A partition that holds no
// recognisable signature is listed with an empty type. Unreadable devices
// are skipped (their absence is not a promise that they are empty).
std::vector<Volume> volumes_in_range(const std::string& disk, uint64_t offset, uint64_t length,
                                     const SysRoots& roots = {});

// "mmcblk0p1: vfat \"boot\"; mmcblk0p2: ext4 \"rootfs\"; dos partition table",
// or "no partition table or filesystem signature found". Types and labels
// are as the media holds them: a view shows the text through
// cli::printable (dev/ sits below the CLI layer and does not sanitise).
std::string volumes_text(const std::vector<Volume>& volumes);

// The partition table's identifier on the device at `path` (blkid's PTUUID:
// the MBR disk signature "0x1a2b3c4d" read as "1a2b3c4d", or the GPT disk
// GUID); empty when it has no partition table or cannot be read. It travels
// with the card from a slot to a reader, which a register cannot.
std::string partition_table_id(const std::string& path);

} // namespace mmc::dev
