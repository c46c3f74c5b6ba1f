// A disk's partition nodes in /dev, as the kernel names them and as udev
// (or busybox's mdev) makes them after a partition table is re-read.
#pragma once
#include <chrono>
#include <string>

namespace mmc::dev {

// "/dev/mmcblk0" and 1 give "/dev/mmcblk0p1", "/dev/sda" gives "/dev/sda1":
// block/partitions/core.c puts a "p" between a name ending in a digit and
// the number.
std::string partition_node(const std::string& disk_node, unsigned number);

// Waits until `node` is a block device, up to `limit` (polling every 50 ms);
// false when it never was.
bool wait_for_block_node(const std::string& node, std::chrono::milliseconds limit);

} // namespace mmc::dev
