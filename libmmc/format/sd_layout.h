// The SD Association's file-system layout for a card of a given capacity
// (Part 2, File System Specification, as the SD Memory Card Formatter
// writes it): the file system and cluster size by capacity band, and the
// partition, FAT and data area placed so that the data area (FAT12/16),
// the FAT and data area (FAT32) or the FAT and cluster heap (exFAT) start
// on a boundary unit. Pure arithmetic: no device, no I/O.
//
// Sources of the published tables (facts, not code): sdFormatLinux's
// format.cpp/fat.cpp/exfat.cpp, which its author checked byte for byte
// against the SD Formatter, and SdFat's FatFormatter/ExFatFormatter. Where
// they disagree, this follows sdFormatLinux (see sd_layout.cpp and
// mmc-format(1), "SOURCES").
#pragma once
#include "cli/errors.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace mmc::format {

enum class FsType { fat12, fat16, fat32, exfat };
std::string_view to_string(FsType fs); // "FAT12", "FAT16", "FAT32", "exFAT"

constexpr uint32_t sector_bytes = 512;

// One row of the capacity table: cards of at most max_sectors get fs with
// clusters of sectors_per_cluster and a boundary unit of boundary_unit
// sectors.
struct Band {
    uint64_t max_sectors;
    FsType fs;
    uint32_t sectors_per_cluster;
    uint32_t boundary_unit;
};
// The band of a card of `card_sectors`; none above 2 TiB (the table ends
// there) or below min_card_sectors.
std::optional<Band> band_for(uint64_t card_sectors);
constexpr uint64_t min_card_sectors = 128; // 64 KiB: smaller leaves no cluster

// The whole layout. Sector numbers: partition_start and the card's are from
// the card's first sector; the rest from the partition's first sector (as
// the boot sector counts them).
struct SdLayout {
    uint64_t card_sectors = 0;
    FsType fs = FsType::fat32;
    uint32_t boundary_unit = 0;       // sectors
    uint32_t sectors_per_cluster = 0;
    uint64_t partition_start = 0;     // the MBR's first (and only) partition
    uint64_t partition_sectors = 0;   // to the card's end
    uint8_t partition_type = 0;       // 0x01, 0x04, 0x06, 0x0B, 0x0C, 0x07
    uint32_t reserved_sectors = 0;    // FAT: BPB_RsvdSecCnt; exFAT: FatOffset
    uint32_t fat_sectors = 0;         // one FAT (exFAT: FatLength)
    uint32_t fat_count = 2;           // exFAT: 1
    uint32_t root_dir_sectors = 0;    // FAT12/16: 512 entries = 32 sectors
    uint64_t data_start = 0;          // cluster 2 (FAT) or the cluster heap (exFAT)
    uint64_t cluster_count = 0;
    uint8_t heads = 0, sectors_per_track = 0; // the fake CHS geometry of the BPB and MBR
    uint64_t volume_sectors = 0;      // the BPB's total / exFAT VolumeLength: the partition's, but
                                      // at a band edge (sd_layout.cpp) only whole clusters
};

// Outside the table, or a size whose cluster count falls outside its FAT
// type's range: what() says which.
// A failure (exit 1): the command line was right, the card is not one the
// layout formats.
struct LayoutError : cli::Error {
    explicit LayoutError(const std::string& what) : cli::Error(cli::ErrorKind::failure, what, cli::Remedy::none) {}
};

// The SD layout of a card of `card_sectors` 512-byte sectors. Throws LayoutError.
SdLayout sd_layout(uint64_t card_sectors);

// The same placed on a unit other than the table's (a card whose AU is
// larger): the band's file system and clusters, the partition and areas
// aligned to `unit_sectors`. Throws LayoutError.
SdLayout sd_layout_with_unit(uint64_t card_sectors, uint32_t unit_sectors);

// The MBR's partition type for a file system ending at `end_sector` (exclusive).
uint8_t partition_type_for(FsType fs, uint64_t partition_sectors, uint64_t end_sector);

} // namespace mmc::format
