// parse_f2fs_super (f2fs_super.h). Offsets are struct f2fs_super_block's.
#include "format/f2fs_super.h"

#include "format/little_endian.h"

namespace mmc::format {

namespace {

constexpr uint32_t f2fs_magic = 0xF2F52010;

} // namespace

bool is_f2fs_super(const Sector& s) { return le32(s.data() + 0) == f2fs_magic; }

std::optional<F2fsVolume> parse_f2fs_super(const Sector& s)
{
    if (!is_f2fs_super(s)) return std::nullopt;
    const uint32_t log_sectorsize = le32(s.data() + 8);
    const uint32_t log_sectors_per_block = le32(s.data() + 12);
    const uint32_t log_blocksize = le32(s.data() + 16);
    const uint32_t log_blocks_per_seg = le32(s.data() + 20);
    F2fsVolume v;
    v.segments_per_section = le32(s.data() + 24);
    v.sections_per_zone = le32(s.data() + 28);
    v.block_count = le64(s.data() + 36);
    v.segment0_block = le32(s.data() + 72);
    v.main_block = le32(s.data() + 92);
    // What the kernel's sanity check demands before it mounts (fs/f2fs/
    // super.c): 4 KiB blocks of 512 to 4096-byte sectors, 2 MiB segments.
    if (log_blocksize != 12 || log_blocks_per_seg != 9) return std::nullopt;
    if (log_sectorsize < 9 || log_sectorsize > 12 || log_sectorsize + log_sectors_per_block != 12) return std::nullopt;
    // A section or zone of zero or of more segments than a 16 TiB volume
    // holds is no geometry at all.
    if (v.segments_per_section == 0 || v.segments_per_section > (1u << 23)) return std::nullopt;
    if (v.sections_per_zone == 0 || v.sections_per_zone > (1u << 23)) return std::nullopt;
    if (v.main_block < v.segment0_block || v.main_block >= v.block_count) return std::nullopt;
    v.block_bytes = uint64_t{1} << log_blocksize;
    v.segment_bytes = v.block_bytes << log_blocks_per_seg;
    return v;
}

} // namespace mmc::format
