// Carrying out a format plan (make_plan.h) on a device or an image: zero
// the units before the partition, write the MBR, run mkfs, write what mkfs
// cannot, check the file system (fsck -n) and the layout (check.h). The
// caller has resolved the device, checked it is safe and asked.
#pragma once
#include "format/check.h"
#include "format/make_plan.h"
#include <functional>
#include <string>
#include <vector>

namespace mmc::format {

struct MakeReport {
    std::vector<std::string> steps;       // what was done, in order, in words
    std::vector<std::string> commands;    // the mkfs/fsck command lines run
    uint32_t reserved_sectors = 0;        // as written (the plan's, or moved to mkfs.fat's FAT size)
    std::string fsck;                     // "clean", or "not run: why"
    CheckResult check;                    // --check on the result
};

// Throws cli::Error (failure) naming the step that failed and what the
// program said.
MakeReport make_filesystem(const std::string& target, bool is_block_device, const MakePlan& plan);

} // namespace mmc::format
