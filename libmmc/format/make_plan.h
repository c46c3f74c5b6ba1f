// What mmc-format writes, decided before anything is: the SD layout (or
// a Linux one: ext4 or f2fs aligned to the unit) for the card's capacity and
// unit, and the mkfs command lines that give it. Pure: a test reads the
// commands; make_run.h runs them.
#pragma once
#include "format/f2fs_super.h"
#include "format/sd_layout.h"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::format {

enum class LayoutKind { sd, linux_ext4, linux_f2fs };

// "sd", "ext4", "f2fs": the --fs-layout word and the plan's file system.
std::string_view layout_name(LayoutKind k);
// The layout a --fs-layout word names ("linux", its first name, is ext4);
// none for another word.
std::optional<LayoutKind> layout_from_name(std::string_view word);
inline bool is_linux_layout(LayoutKind k) { return k != LayoutKind::sd; }

struct MakeOptions {
    LayoutKind layout = LayoutKind::sd;
    std::string label;                  // empty: none
    std::optional<uint64_t> unit_bytes; // the card's AU / erase group, when known
    std::string unit_source;
    uint32_t volume_id = 0;             // FAT serial (mkfs.fat -i)
};

struct MakePlan {
    SdLayout layout;                    // for the Linux layouts: the partition start and unit alone matter
    LayoutKind kind = LayoutKind::sd;
    uint64_t unit_bytes = 0;            // what the layout aligns to (the larger of the SD unit and the card's)
    std::string unit_source;
    std::string label;
    uint32_t volume_id = 0;
    std::vector<std::string> notes;     // what the plan says beyond the figures
};

// Throws LayoutError (capacity outside the table) or cli::UsageError (a
// label the file system cannot hold).
MakePlan make_plan(uint64_t card_sectors, const MakeOptions& options);

// mkfs.fat's arguments for the plan's FAT volume at its partition's
// offset in `target` (a whole device or image), `reserved` the reserved
// sector count to ask for (the plan's, or one adjusted to mkfs.fat's FAT size).
std::vector<std::string> mkfs_fat_argv(const MakePlan& plan, const std::string& target, uint32_t reserved);
// mkfs.exfat's, for the partition as its own device (a loop device over it).
std::vector<std::string> mkfs_exfat_argv(const MakePlan& plan, const std::string& partition_device);
// mkfs.ext4's (--fs-layout ext4), for the partition as its own device.
std::vector<std::string> mkfs_ext4_argv(const MakePlan& plan, const std::string& partition_device);
// ext4's stride and stripe width in 4 KiB blocks: one unit (at least one block).
uint64_t ext4_stride_blocks(uint64_t unit_bytes);
// mkfs.f2fs's (--fs-layout f2fs), for the partition as its own device.
std::vector<std::string> mkfs_f2fs_argv(const MakePlan& plan, const std::string& partition_device);

// The plan in words (mmc-format -n).
std::string plan_text(const std::string& device, const MakePlan& plan);

} // namespace mmc::format
