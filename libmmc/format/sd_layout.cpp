// The SD layout arithmetic (sd_layout.h). Where the two published sources
// disagree, this follows sdFormatLinux, whose author compared its output
// byte for byte with the SD Memory Card Formatter's on cards of several
// capacities; SdFat is an embedded library that simplifies:
//  - Small cards (at most 256 MiB): sdFormatLinux has the specification's
//    FAT12 up to 64 MiB and boundary units of 16, 32 and 64 sectors growing
//    with the card; SdFat makes FAT16 of 1-8 KiB clusters with one 64 KiB
//    boundary unit from 7 MiB up. We follow the specification's table.
//  - The partition's length: both sources end it at the card's last
//    sector, but SdFat's boot sector (and exFAT VolumeLength) counts only
//    the sectors of whole clusters; we count every sector, as the SD
//    Formatter and sdFormatLinux do.
//  - exFAT: the same table in both (SdFat computes it from log2 of the
//    capacity); SdFat writes no exFAT below 512 MiB, which the table never
//    asks for anyway.
// From 256 MiB to 2 TiB the two agree on every figure the layout has (the
// unit tests hold both to it).
#include "format/sd_layout.h"

#include <array>
#include <fmt/format.h>

namespace mmc::format {

std::string_view to_string(FsType fs)
{
    switch (fs) {
    case FsType::fat12: return "FAT12";
    case FsType::fat16: return "FAT16";
    case FsType::fat32: return "FAT32";
    case FsType::exfat: return "exFAT";
    }
    return "?";
}

namespace {

constexpr uint64_t pow2(int n) { return uint64_t{1} << n; }

// The specification's table (sdFormatLinux alignTable): capacity in
// sectors, file system, sectors per cluster, boundary unit in sectors.
constexpr std::array<Band, 9> bands{{
    {pow2(14), FsType::fat12, 16, 16},        // <= 8 MiB: 8 KiB clusters, 8 KiB BU
    {pow2(17), FsType::fat12, 32, 32},        // <= 64 MiB
    {pow2(19), FsType::fat16, 32, 64},        // <= 256 MiB
    {pow2(21), FsType::fat16, 32, 128},       // <= 1 GiB
    {pow2(22), FsType::fat16, 64, 128},       // <= 2 GiB: 32 KiB clusters, 64 KiB BU
    {pow2(26), FsType::fat32, 64, 8192},      // <= 32 GiB: 32 KiB clusters, 4 MiB BU
    {pow2(28), FsType::exfat, 256, 32768},    // <= 128 GiB: 128 KiB clusters, 16 MiB BU
    {pow2(30), FsType::exfat, 512, 65536},    // <= 512 GiB: 256 KiB clusters, 32 MiB BU
    {pow2(32), FsType::exfat, 1024, 131072},  // <= 2 TiB: 512 KiB clusters, 64 MiB BU
}};

// The fake CHS geometry by capacity in MiB (the BPB's and the MBR's).
struct Geometry {
    uint32_t max_mib;
    uint8_t heads, sectors_per_track;
};
constexpr std::array<Geometry, 10> geometries{{
    {2, 2, 16}, {16, 2, 32}, {32, 4, 32}, {128, 8, 32}, {256, 16, 32},
    {504, 16, 63}, {1008, 32, 63}, {2016, 64, 63}, {4032, 128, 63}, {UINT32_MAX, 255, 63},
}};

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Sectors of one FAT holding `clusters` + 2 entries of `bits`.
uint64_t fat_sectors_for(uint64_t clusters, unsigned bits) { return ceil_div((clusters + 2) * bits, sector_bytes * 8); }

unsigned fat_bits(FsType fs) { return fs == FsType::fat12 ? 12 : fs == FsType::fat16 ? 16 : 32; }

[[noreturn]] void too_small(const SdLayout& l)
{
    throw LayoutError(fmt::format("{} sectors leave no room for {}'s structures", l.card_sectors, to_string(l.fs)));
}

// FAT12/16: one reserved sector, two FATs and a 512-entry root directory
// end on a boundary unit, where the data area starts: the partition starts
// at least one BU into the card, wherever that puts it. The FAT size and
// the start depend on each other; iterate to the fixed point (the FAT only
// shrinks between rounds, so this ends).
void place_fat16(SdLayout& l)
{
    const uint64_t bu = l.boundary_unit, spc = l.sectors_per_cluster, total = l.card_sectors;
    const unsigned bits = fat_bits(l.fs);
    l.reserved_sectors = 1;
    l.root_dir_sectors = 32;
    uint64_t fat = ceil_div(total / spc * bits, sector_bytes * 8);
    for (;;) {
        const uint64_t area = l.reserved_sectors + 2 * fat + l.root_dir_sectors;
        uint64_t start = bu - area % bu;
        if (start != bu) start += bu;
        uint64_t needed = 0, clusters = 0;
        for (;;) {
            if (start + area >= total) too_small(l);
            clusters = (total - start - area) / spc;
            needed = fat_sectors_for(clusters, bits);
            if (needed <= fat) break;
            start += bu;
        }
        l.partition_start = start;
        l.cluster_count = clusters;
        l.data_start = area;
        if (needed == fat) break;
        fat = needed;
    }
    l.fat_sectors = static_cast<uint32_t>(fat);
}

// FAT32: the partition starts at one BU; the reserved sectors (at least 9:
// boot, FSInfo, the third boot sector and their backups at 6-8) pad the two
// FATs so that the data area starts on a BU.
void place_fat32(SdLayout& l)
{
    const uint64_t bu = l.boundary_unit, spc = l.sectors_per_cluster, total = l.card_sectors;
    l.partition_start = bu;
    uint64_t fat = ceil_div(total / spc * 32, sector_bytes * 8);
    for (;;) {
        uint64_t reserved = bu - (2 * fat) % bu;
        if (reserved < 9) reserved += bu;
        uint64_t area = reserved + 2 * fat;
        uint64_t needed = 0, clusters = 0;
        for (;;) {
            if (l.partition_start + area >= total) too_small(l);
            clusters = (total - l.partition_start - area) / spc;
            needed = fat_sectors_for(clusters, 32);
            if (needed <= fat) break;
            area += bu;
            reserved += bu;
        }
        l.reserved_sectors = static_cast<uint32_t>(reserved);
        l.data_start = area;
        l.cluster_count = clusters;
        if (needed == fat) break;
        --fat;
    }
    l.fat_sectors = static_cast<uint32_t>(fat);
}

// exFAT: the partition at one BU, the FAT in the second half of the
// partition's first BU, the cluster heap at its second.
void place_exfat(SdLayout& l)
{
    const uint64_t bu = l.boundary_unit;
    if (l.card_sectors <= 2 * bu) too_small(l);
    l.partition_start = bu;
    l.fat_count = 1;
    l.reserved_sectors = static_cast<uint32_t>(bu / 2);
    l.fat_sectors = static_cast<uint32_t>(bu / 2);
    l.data_start = bu;
    l.cluster_count = (l.card_sectors - 2 * bu) / l.sectors_per_cluster;
    if (fat_sectors_for(l.cluster_count, 32) > l.fat_sectors)
        throw LayoutError(fmt::format("{} sectors: the FAT would not fit half a boundary unit", l.card_sectors));
}

void place(SdLayout& l)
{
    switch (l.fs) {
    case FsType::fat12:
    case FsType::fat16: place_fat16(l); break;
    case FsType::fat32: place_fat32(l); break;
    case FsType::exfat: place_exfat(l); break;
    }
    l.partition_sectors = l.card_sectors - l.partition_start;
    l.volume_sectors = l.partition_sectors;
    l.partition_type = partition_type_for(l.fs, l.partition_sectors, l.card_sectors);
}

} // namespace

std::optional<Band> band_for(uint64_t card_sectors)
{
    if (card_sectors < min_card_sectors) return std::nullopt;
    for (const Band& b : bands)
        if (card_sectors <= b.max_sectors) return b;
    return std::nullopt;
}

uint8_t partition_type_for(FsType fs, uint64_t partition_sectors, uint64_t end_sector)
{
    switch (fs) {
    case FsType::fat12: return 0x01;
    case FsType::fat16: return partition_sectors < 65536 ? 0x04 : 0x06;
    case FsType::fat32: return end_sector - 1 < 16450560 ? 0x0B : 0x0C; // CHS reaches 1024*255*63 sectors
    case FsType::exfat: return 0x07;
    }
    return 0;
}

SdLayout sd_layout(uint64_t card_sectors) { return sd_layout_with_unit(card_sectors, 0); }

SdLayout sd_layout_with_unit(uint64_t card_sectors, uint32_t unit_sectors)
{
    const auto band = band_for(card_sectors);
    if (!band) {
        if (card_sectors < min_card_sectors)
            throw LayoutError(fmt::format("{} sectors is below the smallest card the SD layout formats (64 KiB)", card_sectors));
        throw LayoutError(fmt::format("{} sectors is above 2 TiB, where the SD layout's table ends", card_sectors));
    }
    SdLayout l;
    l.card_sectors = card_sectors;
    l.fs = band->fs;
    l.boundary_unit = unit_sectors ? unit_sectors : band->boundary_unit;
    l.sectors_per_cluster = band->sectors_per_cluster;
    for (const Geometry& g : geometries)
        if ((card_sectors >> 11) <= g.max_mib) {
            l.heads = g.heads;
            l.sectors_per_track = g.sectors_per_track;
            break;
        }
    place(l);
    // The FAT type is the cluster count's (Microsoft's rule, with mkfs.fat's
    // margins). At the bands' very edges (a card of exactly 64 MiB, or a
    // few sectors over 2 GiB) the table's file system cannot hold the count
    // its cluster size gives; neither source says what then (sdFormatLinux
    // refuses such a card, SdFat's FAT16/FAT32 split falls one sector
    // earlier and then refuses too). We keep the band's cluster size and
    // unit and take the FAT type the count needs. Real cards sit well inside
    // their bands (a "64 MB" card holds less than 64 MiB).
    if (l.fs == FsType::fat12 && l.cluster_count > 4084) {
        l.fs = FsType::fat16;
        place(l);
        if (l.cluster_count < 4087) {
            // Too many clusters for FAT12 and too few for FAT16 (a window of
            // a few hundred sectors below 64 MiB): FAT12 of 4084 clusters,
            // the volume ending before the partition does, as SdFat ends
            // every volume at its last whole cluster.
            l.fs = FsType::fat12;
            place(l);
            l.cluster_count = 4084;
            l.volume_sectors = l.data_start + 4084ull * l.sectors_per_cluster;
        }
    } else if (l.fs == FsType::fat32 && l.cluster_count < 65525) {
        l.fs = FsType::fat16;
        l.reserved_sectors = 0;
        place(l);
    }
    const uint64_t c = l.cluster_count;
    const bool fits = l.fs == FsType::fat12   ? c >= 1 && c <= 4084
                      : l.fs == FsType::fat16 ? c >= 4087 && c <= 65524
                      : l.fs == FsType::fat32 ? c >= 65525 && c <= 0x0FFFFFF4
                                              : c >= 1;
    if (!fits)
        throw LayoutError(fmt::format("{} sectors give {} clusters, outside {}'s range", card_sectors, c, to_string(l.fs)));
    return l;
}

} // namespace mmc::format
