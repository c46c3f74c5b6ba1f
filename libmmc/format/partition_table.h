// The MBR partition table of a card or an image, read through a sector
// reader so that the parser is pure and fuzzable: primary partitions, the
// logical ones of an extended partition's chain, and every way a table can
// be wrong (no signature, a GPT, a loop in the chain, overlapping or
// truncated partitions) as a TableError that says what, never a crash.
#pragma once
#include "cli/errors.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmc::format {

using Sector = std::array<uint8_t, 512>;
// The sector at an index, or none past the end of the device or image.
using SectorReader = std::function<std::optional<Sector>(uint64_t index)>;

struct Partition {
    unsigned number = 0;     // 1-4 primary, 5... logical (as Linux numbers them)
    uint8_t type = 0;
    bool bootable = false;
    uint64_t start = 0;      // sectors from the disk's first
    uint64_t sectors = 0;
};

struct PartitionTable {
    // mbr: partitions as listed; none: no table, a file system from sector 0
    // (a "superfloppy", as cameras sometimes format).
    enum class Kind { mbr, none } kind = Kind::mbr;
    uint32_t disk_signature = 0;
    std::vector<Partition> partitions; // in table order, logical ones after
};

// A failure (exit 1), as every library error is a cli::Error.
struct TableError : cli::Error {
    explicit TableError(const std::string& what) : cli::Error(cli::ErrorKind::failure, what, cli::Remedy::none) {}
};

// Whether a sector is a FAT or exFAT boot sector (format/boot_sector.h),
// to tell a table from a superfloppy; passed in to keep the two apart.
using IsBootSector = std::function<bool(const Sector&)>;

// Reads the table of a device of `total_sectors`. Throws TableError.
PartitionTable read_partition_table(const SectorReader& read, uint64_t total_sectors, const IsBootSector& is_boot_sector);

// What every table read must hold, however it was read (sectors, or
// fdisk -l's text): no partition over sector 0 or past the end, no overlap
// (logical ones inside their extended one are none), at least one. Throws
// TableError.
void check_partitions(const PartitionTable&, uint64_t total_sectors);

// An extended partition's type (0x05, 0x0F, 0x85): a container of logical ones.
bool is_extended_type(uint8_t type);

// The type in words: "FAT32 (LBA)", "Linux", "extended", "exFAT/NTFS", ...
std::string partition_type_name(uint8_t type);

// One MBR sector with a single partition (what mmc-format writes): the
// fake CHS of the SD layout, no boot code, status inactive.
Sector make_mbr(uint64_t start, uint64_t sectors, uint8_t type, uint8_t heads, uint8_t sectors_per_track,
                uint32_t disk_signature);

} // namespace mmc::format
