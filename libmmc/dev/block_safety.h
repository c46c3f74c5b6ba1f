// Is it safe to destroy data on a block device? A property of the device, not
// of any one way of destroying it: mmc-erase, mmc-bench's write tests and the
// probe all ask here. Refuses a device that is
// mounted, holds a mounted partition, is swap, is held by device-mapper or md
// (sysfs holders/), holds the root filesystem or is read-only. /proc and
// sysfs are roots so tests can point them at fixture files.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mmc::dev {

namespace fs = std::filesystem;

struct SafetyRoots {
    fs::path proc = "/proc";
    fs::path sysfs = "/sys";

    bool is_live() const { return proc == "/proc" && sysfs == "/sys"; }
};

// One reason not to touch the device, in words:
// "loop0p1 is mounted on /mnt/data", "loop0 is held by dm-0 (device-mapper)".
struct SafetyProblem {
    std::string device; // the block device concerned: the target or one of its partitions
    std::string what;
};

// `name` is a block device name ("mmcblk0", "loop3p1"). A whole disk is
// checked with all its partitions; a partition with its disk's holders and
// whole-disk mounts. Empty when nothing stands in the way.
std::vector<SafetyProblem> check_safety(const std::string& name, const SafetyRoots& roots = {});

// Mount-table parsing, exposed for tests: every mounted source with its
// device number (when /proc/self/mountinfo gives one) and mount point.
struct MountEntry {
    std::string source;     // "/dev/loop0p1", "overlay"
    std::string devno;      // "7:1" (mountinfo only)
    std::string mountpoint; // unescaped
};
std::vector<MountEntry> read_mounts(const SafetyRoots& roots);

} // namespace mmc::dev
