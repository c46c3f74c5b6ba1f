// The f2fs superblock (f2fs-tools' include/f2fs_fs.h, struct
// f2fs_super_block; the kernel's fs/f2fs/super.c checks the same fields
// before mounting): where the volume's main area starts and how large its
// segments, sections and zones are, which is what aligning f2fs to a card's
// unit is about. Pure, from bytes (fuzzed through the format harness).
#pragma once
#include "format/partition_table.h"
#include <cstdint>
#include <optional>

namespace mmc::format {

// The superblock's first copy sits 1024 bytes into the volume: in its
// third 512-byte sector.
inline constexpr uint64_t f2fs_super_sector = 2;
// A segment: 512 blocks of 4 KiB, fixed for every volume Linux mounts.
inline constexpr uint64_t f2fs_segment_bytes = uint64_t{2} << 20;
// The segments a section needs to hold a card unit of unit_bytes (at least
// one): what mmc-format gives mkfs.f2fs -s, and the remedy --check names.
inline uint64_t f2fs_segments_per_section(uint64_t unit_bytes)
{
    return unit_bytes <= f2fs_segment_bytes ? 1 : (unit_bytes + f2fs_segment_bytes - 1) / f2fs_segment_bytes;
}

struct F2fsVolume {
    uint64_t block_bytes = 0;        // 4096: the only size Linux mounts
    uint64_t segment_bytes = 0;      // 2 MiB (512 blocks)
    uint32_t segments_per_section = 0;
    uint32_t sections_per_zone = 0;
    uint64_t block_count = 0;
    uint64_t segment0_block = 0;     // the first segment (checkpoint, SIT, NAT, SSA, then main)
    uint64_t main_block = 0;         // the main area: data and node segments, what the cleaner frees
    uint64_t section_bytes() const { return segment_bytes * segments_per_section; }
    uint64_t main_start_bytes() const { return main_block * block_bytes; }
};

// Whether `s` (the volume's sector f2fs_super_sector) holds an f2fs
// superblock's magic, 0xF2F52010.
bool is_f2fs_super(const Sector& s);

// The geometry of a superblock whose fields are the ones Linux mounts
// (4 KiB blocks, 512 blocks a segment, sections and zones of at least one,
// the main area after segment 0); none for any other.
std::optional<F2fsVolume> parse_f2fs_super(const Sector& s);

} // namespace mmc::format
