// The SD layout arithmetic against the published tables: hand-worked rows,
// and SdFat's formatter (FatFormatter/ExFatFormatter, re-derived here from
// its published rules as an independent oracle: it finds the first data
// start that fits, where the layout iterates the FAT size to a fixed
// point) over capacities across the bands where the two sources agree.
#include "format/sd_layout.h"

#include <gtest/gtest.h>
#include <vector>

using mmc::format::FsType;
using mmc::format::sd_layout;

namespace {

constexpr uint64_t MiB = 2048; // sectors
constexpr uint64_t GiB = 1024 * MiB;

struct Oracle {
    uint64_t partition_start, reserved, fat, data_start, clusters; // data_start from the partition
    uint32_t spc;
};

// SdFat's FAT16 (above 256 MiB, where its 64 KiB unit is the table's),
// FAT32 and exFAT rules.
Oracle sdfat(uint64_t sectors)
{
    Oracle o{};
    const uint64_t mb = (sectors + MiB - 1) / MiB;
    o.spc = mb <= 1024 ? 32 : 64;
    if (sectors <= 2 * GiB) { // the table's FAT16 band (SdFat's own ends one sector earlier)
        const uint64_t bu = 128;
        for (uint64_t data = 2 * bu;; data += bu) {
            const uint64_t nc = (sectors - data) / o.spc;
            const uint64_t fat = (nc + 2 + 255) / 256;
            const uint64_t r = bu + 1 + 2 * fat + 32;
            if (data >= r) {
                o.partition_start = data - r + bu;
                o = {o.partition_start, 1, fat, data - o.partition_start, nc, o.spc};
                return o;
            }
        }
    }
    if (sectors <= 32 * GiB) {
        const uint64_t bu = 8192;
        for (uint64_t data = 2 * bu;; data += bu) {
            const uint64_t nc = (sectors - data) / o.spc;
            const uint64_t fat = (nc + 2 + 127) / 128;
            if (data >= bu + 9 + 2 * fat) return {bu, data - bu - 2 * fat, fat, data - bu, nc, o.spc};
        }
    }
    unsigned vs = 0;
    for (uint64_t m = 1; sectors > m; m <<= 1) ++vs;
    const unsigned shift = vs < 29 ? 8 : (vs - 11) / 2;
    const uint64_t fat_length = uint64_t{1} << (vs < 27 ? 13 : (vs + 1) / 2);
    return {2 * fat_length, fat_length, fat_length, 2 * fat_length, (sectors - 4 * fat_length) >> shift, 1u << shift};
}

} // namespace

TEST(FormatSdLayout, Fat12EightMiBByHand)
{
    // 16384 sectors: 8 KiB clusters, 8 KiB unit. FAT 3 sectors; 1 + 6 + 32 =
    // 39 sectors of structures; the partition at 25 puts the data at 64.
    const auto l = sd_layout(8 * MiB);
    EXPECT_EQ(l.fs, FsType::fat12);
    EXPECT_EQ(l.sectors_per_cluster, 16u);
    EXPECT_EQ(l.boundary_unit, 16u);
    EXPECT_EQ(l.partition_start, 25u);
    EXPECT_EQ(l.reserved_sectors, 1u);
    EXPECT_EQ(l.fat_sectors, 3u);
    EXPECT_EQ(l.data_start, 39u);
    EXPECT_EQ(l.cluster_count, 1020u);
    EXPECT_EQ(l.partition_type, 0x01);
    EXPECT_EQ(l.heads, 2);
    EXPECT_EQ(l.sectors_per_track, 32);
}

TEST(FormatSdLayout, Fat32SixteenGigabyteCardByHand)
{
    // The 16 GB card of sdFormatLinux's README (31074304 sectors): the FAT
    // converges at 3792 sectors, padded by 608 reserved sectors to one 4 MiB unit.
    const auto l = sd_layout(31074304);
    EXPECT_EQ(l.fs, FsType::fat32);
    EXPECT_EQ(l.sectors_per_cluster, 64u);
    EXPECT_EQ(l.boundary_unit, 8192u);
    EXPECT_EQ(l.partition_start, 8192u);
    EXPECT_EQ(l.reserved_sectors, 608u);
    EXPECT_EQ(l.fat_sectors, 3792u);
    EXPECT_EQ(l.data_start, 8192u);
    EXPECT_EQ(l.cluster_count, 485280u);
    EXPECT_EQ(l.partition_sectors, 31074304u - 8192u);
    EXPECT_EQ(l.partition_type, 0x0C); // ends past what CHS reaches
    EXPECT_EQ(l.heads, 255);
    EXPECT_EQ(l.sectors_per_track, 63);
}

TEST(FormatSdLayout, ExfatSixtyFourGigabyteByHand)
{
    // 124735488 sectors (a 64 GB card): 128 KiB clusters, 16 MiB unit;
    // FAT at 8 MiB, heap at 16 MiB into the partition, which starts at 16 MiB.
    const auto l = sd_layout(124735488);
    EXPECT_EQ(l.fs, FsType::exfat);
    EXPECT_EQ(l.sectors_per_cluster, 256u);
    EXPECT_EQ(l.partition_start, 32768u);
    EXPECT_EQ(l.reserved_sectors, 16384u);
    EXPECT_EQ(l.fat_sectors, 16384u);
    EXPECT_EQ(l.data_start, 32768u);
    EXPECT_EQ(l.cluster_count, (124735488u - 65536u) / 256u);
    EXPECT_EQ(l.fat_count, 1u);
    EXPECT_EQ(l.partition_type, 0x07);
}

TEST(FormatSdLayout, BandsAndTheirEdges)
{
    struct Row {
        uint64_t sectors;
        FsType fs;
        uint32_t spc, bu;
    };
    const std::vector<Row> rows = {
        {128, FsType::fat12, 16, 16},
        {8 * MiB, FsType::fat12, 16, 16},          {8 * MiB + 1, FsType::fat12, 32, 32},
        {64 * MiB - 256, FsType::fat12, 32, 32}, // FAT12 too many, FAT16 too few: FAT12, 4084 clusters   {64 * MiB, FsType::fat16, 32, 32}, // 4096 clusters: FAT16's         {64 * MiB + 1, FsType::fat16, 32, 64},
        {256 * MiB, FsType::fat16, 32, 64},        {256 * MiB + 1, FsType::fat16, 32, 128},
        {GiB, FsType::fat16, 32, 128},             {GiB + 1, FsType::fat16, 64, 128},
        {2 * GiB, FsType::fat16, 64, 128},         {2 * GiB + 1, FsType::fat16, 64, 8192}, // 65280 clusters: FAT16's
        {2 * GiB + 32 * MiB, FsType::fat32, 64, 8192},
        {32 * GiB, FsType::fat32, 64, 8192},       {32 * GiB + 1, FsType::exfat, 256, 32768},
        {128 * GiB, FsType::exfat, 256, 32768},    {128 * GiB + 1, FsType::exfat, 512, 65536},
        {512 * GiB, FsType::exfat, 512, 65536},    {512 * GiB + 1, FsType::exfat, 1024, 131072},
        {2048 * GiB, FsType::exfat, 1024, 131072},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE(r.sectors);
        const auto l = sd_layout(r.sectors);
        EXPECT_EQ(l.fs, r.fs);
        EXPECT_EQ(l.sectors_per_cluster, r.spc);
        EXPECT_EQ(l.boundary_unit, r.bu);
    }
    const auto window = sd_layout(64 * MiB - 256);
    EXPECT_EQ(window.cluster_count, 4084u);
    EXPECT_EQ(window.volume_sectors, window.data_start + 4084u * 32u);
    EXPECT_LT(window.volume_sectors, window.partition_sectors);
    EXPECT_THROW(sd_layout(127), mmc::format::LayoutError);
    EXPECT_THROW(sd_layout(2048 * GiB + 1), mmc::format::LayoutError);
}

TEST(FormatSdLayout, EveryLayoutIsAlignedAndConsistent)
{
    // Band edges, odd sizes and real cards' sizes.
    const std::vector<uint64_t> sizes = {
        128, 1000, 4095, 16383, 8 * MiB, 8 * MiB + 1, 30000, 64 * MiB - 7, 64 * MiB - 256, 64 * MiB, 64 * MiB + 1, 100 * MiB + 3, 256 * MiB,
        256 * MiB + 1, 999999, GiB, GiB + 1, 3862528, 2 * GiB - 1, 2 * GiB, 2 * GiB + 1, 7744512, 15523840, 31074304,
        31116288, 61069312, 62333952, 32 * GiB, 32 * GiB + 1, 124735488, 249737216, 128 * GiB + 1, 1000215216,
        512 * GiB + 1, 2048 * GiB - 1};
    for (const uint64_t s : sizes) {
        SCOPED_TRACE(s);
        const auto l = sd_layout(s);
        const uint64_t bu = l.boundary_unit;
        EXPECT_EQ((l.partition_start + l.data_start) % bu, 0u) << "data area off the boundary unit";
        EXPECT_GE(l.partition_start, bu) << "the MBR's unit holds no file system";
        EXPECT_EQ(l.partition_start + l.partition_sectors, s);
        const unsigned bits = l.fs == FsType::fat12 ? 12 : l.fs == FsType::fat16 ? 16 : 32;
        EXPECT_GE(uint64_t{l.fat_sectors} * 512 * 8 / bits, l.cluster_count + 2) << "the FAT cannot hold every cluster";
        EXPECT_LE(l.data_start + l.cluster_count * l.sectors_per_cluster, l.volume_sectors);
        EXPECT_GT(l.data_start + (l.cluster_count + 1) * l.sectors_per_cluster, l.volume_sectors)
            << "a whole cluster left unused";
        if (l.fs == FsType::exfat) {
            EXPECT_EQ(l.reserved_sectors, bu / 2);
        } else {
            EXPECT_EQ(l.data_start, l.reserved_sectors + uint64_t{l.fat_count} * l.fat_sectors + l.root_dir_sectors);
        }
        if (l.fs == FsType::fat32) {
            EXPECT_GE(l.reserved_sectors, 9u);
            EXPECT_EQ(l.partition_start % bu, 0u);
            // The FAT is no larger than needed: one sector less could not hold the clusters.
            EXPECT_LT(uint64_t{l.fat_sectors - 1} * 128, l.cluster_count + 2);
        }
    }
}

TEST(FormatSdLayout, AgreesWithSdFatWhereItsTablesAreTheSpecifications)
{
    // From 256 MiB (where SdFat's fixed 64 KiB unit becomes the table's) to
    // 2 TiB, every 37th MiB-ish step plus the edges and odd sizes.
    std::vector<uint64_t> sizes = {256 * MiB + 1, GiB, GiB + 1, 2 * GiB - 1, 2 * GiB + 1, 32 * GiB, 32 * GiB + 1,
                                   128 * GiB, 128 * GiB + 1, 512 * GiB, 512 * GiB + 1, 2048 * GiB};
    for (uint64_t s = 256 * MiB + 12345; s < 64 * GiB; s = s * 9 / 8 + 7) sizes.push_back(s);
    for (uint64_t s = 64 * GiB + 3; s < 2048 * GiB; s = s * 3 / 2 + 1) sizes.push_back(s);
    for (const uint64_t s : sizes) {
        SCOPED_TRACE(s);
        const auto l = sd_layout(s);
        const Oracle o = sdfat(s);
        if (s > 2 * GiB && s <= 32 * GiB && o.clusters < 65525) {
            // SdFat refuses ("Bad cluster count"); the layout makes FAT16 of the same clusters.
            EXPECT_EQ(l.fs, FsType::fat16);
            continue;
        }
        EXPECT_EQ(l.sectors_per_cluster, o.spc);
        EXPECT_EQ(l.partition_start, o.partition_start);
        EXPECT_EQ(l.reserved_sectors, o.reserved);
        EXPECT_EQ(l.fat_sectors, o.fat);
        EXPECT_EQ(l.data_start, o.data_start);
        EXPECT_EQ(l.cluster_count, o.clusters);
    }
}
