// `fdisk -l` output pasted from somewhere (a forum post, an issue, a log)
// read back into the partition table it shows, so that mmc-format --check
// can hold a card nobody can hand us against its unit. Both util-linux
// layouts are read: the current one ("Units: sectors of 1 * 512 = 512
// bytes"; Start End Sectors Size Id Type) and the older one ("Units =
// sectors of ..."; Start End Blocks Id System). What cannot give exact
// sectors is refused with the reason: cylinder units (fdisk before
// util-linux 2.23 without -u), a GPT (the SD layout is an MBR's), no disk
// line, a row that does not add up. Pure and fuzzable.
#pragma once
#include "format/partition_table.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::format {

struct FdiskDisk {
    std::string name;          // "/dev/mmcblk0", "2023-05-03-raspios-bullseye-arm64.img"
    uint64_t sectors = 0;      // the disk's, in 512-byte sectors
    PartitionTable table;      // kind mbr, the rows as listed (extended and logical ones too)
    std::string refused;       // why this disk cannot be checked ("" = it can): a GPT, cylinder units, a bad row
};

// The disks of the text that list partitions (or would, if they could be
// read: refused says why not), in order. Throws TableError when there is
// none at all.
std::vector<FdiskDisk> parse_fdisk_text(std::string_view text);

// The one disk to check: `name` if given (as fdisk printed it), else the
// only one. Throws TableError listing the names when that is ambiguous,
// and with the disk's refusal when it cannot be checked.
FdiskDisk pick_fdisk_disk(const std::vector<FdiskDisk>&, std::string_view name);

} // namespace mmc::format
