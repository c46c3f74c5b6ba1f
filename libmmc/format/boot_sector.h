// FAT12/16/32 and exFAT boot sectors and the FAT32 FSInfo sector: parsed
// from bytes (pure, fuzzable) into the geometry a layout check needs, with
// every field a hostile image could make nonsense checked before use.
#pragma once
#include "cli/errors.h"
#include "format/partition_table.h"
#include "format/sd_layout.h"
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace mmc::format {

// A volume's geometry in its own sectors, from its first (the boot sector).
struct Volume {
    FsType fs = FsType::fat32;
    uint32_t bytes_per_sector = 512;
    uint32_t sectors_per_cluster = 0;
    uint64_t reserved_sectors = 0;   // FAT: BPB_RsvdSecCnt; exFAT: FatOffset
    uint32_t fat_count = 0;
    uint64_t fat_sectors = 0;        // one FAT (exFAT: FatLength)
    uint64_t root_dir_sectors = 0;   // FAT12/16
    uint64_t total_sectors = 0;      // exFAT: VolumeLength
    uint64_t hidden_sectors = 0;     // exFAT: PartitionOffset
    uint64_t data_start = 0;         // cluster 2 / the cluster heap
    uint64_t cluster_count = 0;
    uint16_t fsinfo_sector = 0, backup_boot_sector = 0; // FAT32
    std::string label;               // the boot sector's (FAT), trimmed
    uint64_t fat_start() const { return reserved_sectors; }
    uint64_t cluster_bytes() const { return uint64_t{sectors_per_cluster} * bytes_per_sector; }
};

struct FsInfo {
    bool signatures_ok = false; // lead 0x41615252, struct 0x61417272, trail 0xAA550000
    uint32_t free_count = 0, next_free = 0;
};

// A failure (exit 1), as every library error is a cli::Error.
struct BootSectorError : cli::Error {
    explicit BootSectorError(const std::string& what) : cli::Error(cli::ErrorKind::failure, what, cli::Remedy::none) {}
};

// Whether the sector looks like a FAT or exFAT boot sector at all (a jump,
// a sane BPB or "EXFAT   "), without judging it.
bool looks_like_boot_sector(const Sector& s);

// The volume of a boot sector. Throws BootSectorError saying which field is wrong.
Volume parse_boot_sector(const Sector& s);

FsInfo parse_fsinfo(const Sector& s);

} // namespace mmc::format
