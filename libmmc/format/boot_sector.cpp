// Parsing FAT and exFAT boot sectors (boot_sector.h). The FAT type is the
// cluster count's, as Microsoft's specification and Linux decide it, not
// the BPB's text label.
#include "format/boot_sector.h"

#include "format/little_endian.h"

#include <cstring>
#include <fmt/format.h>

namespace mmc::format {

namespace {

bool is_power_of_two(uint64_t v) { return v && !(v & (v - 1)); }
bool is_exfat(const Sector& s) { return std::memcmp(s.data() + 3, "EXFAT   ", 8) == 0; }

std::string trimmed(const uint8_t* p, std::size_t n)
{
    std::string t(reinterpret_cast<const char*>(p), n);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\0')) t.pop_back();
    for (char& c : t)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) c = '?';
    return t;
}

Volume parse_exfat(const Sector& s)
{
    Volume v;
    v.fs = FsType::exfat;
    const unsigned bps_shift = s[108], spc_shift = s[109];
    if (bps_shift < 9 || bps_shift > 12) throw BootSectorError(fmt::format("exFAT BytesPerSectorShift {} (expected 9-12)", bps_shift));
    if (bps_shift + spc_shift > 25) throw BootSectorError(fmt::format("exFAT SectorsPerClusterShift {}: clusters over 32 MiB", spc_shift));
    v.bytes_per_sector = 1u << bps_shift;
    v.sectors_per_cluster = 1u << spc_shift;
    v.hidden_sectors = le64(s.data() + 64);
    v.total_sectors = le64(s.data() + 72);
    v.reserved_sectors = le32(s.data() + 80);
    v.fat_sectors = le32(s.data() + 84);
    v.data_start = le32(s.data() + 88);
    v.cluster_count = le32(s.data() + 92);
    v.fat_count = s[110];
    if (v.fat_count != 1 && v.fat_count != 2) throw BootSectorError(fmt::format("exFAT NumberOfFats {} (expected 1 or 2)", v.fat_count));
    if (v.reserved_sectors < 24) throw BootSectorError(fmt::format("exFAT FatOffset {} (at least 24: the boot regions)", v.reserved_sectors));
    if (v.data_start < v.reserved_sectors + v.fat_count * v.fat_sectors)
        throw BootSectorError(fmt::format("exFAT ClusterHeapOffset {} lies inside the FAT", v.data_start));
    if (v.data_start + v.cluster_count * v.sectors_per_cluster > v.total_sectors)
        throw BootSectorError(fmt::format("exFAT cluster heap ({} clusters from sector {}) runs past VolumeLength {}",
                                          v.cluster_count, v.data_start, v.total_sectors));
    return v;
}

Volume parse_fat(const Sector& s)
{
    Volume v;
    v.bytes_per_sector = le16(s.data() + 11);
    v.sectors_per_cluster = s[13];
    v.reserved_sectors = le16(s.data() + 14);
    v.fat_count = s[16];
    const uint32_t root_entries = le16(s.data() + 17);
    const uint32_t total16 = le16(s.data() + 19), fat16 = le16(s.data() + 22);
    v.hidden_sectors = le32(s.data() + 28);
    const uint32_t total32 = le32(s.data() + 32);
    if (v.bytes_per_sector < 512 || v.bytes_per_sector > 4096 || !is_power_of_two(v.bytes_per_sector))
        throw BootSectorError(fmt::format("BPB_BytsPerSec {} (expected 512, 1024, 2048 or 4096)", v.bytes_per_sector));
    if (!is_power_of_two(v.sectors_per_cluster) || v.sectors_per_cluster > 128)
        throw BootSectorError(fmt::format("BPB_SecPerClus {} (expected a power of two up to 128)", v.sectors_per_cluster));
    if (v.reserved_sectors == 0) throw BootSectorError("BPB_RsvdSecCnt 0 (the boot sector itself is reserved)");
    if (v.fat_count == 0) throw BootSectorError("BPB_NumFATs 0");
    v.fat_sectors = fat16 ? fat16 : le32(s.data() + 36);
    if (v.fat_sectors == 0) throw BootSectorError("the FAT size is 0 (BPB_FATSz16 and BPB_FATSz32)");
    v.total_sectors = total16 ? total16 : total32;
    v.root_dir_sectors = (uint64_t{root_entries} * 32 + v.bytes_per_sector - 1) / v.bytes_per_sector;
    v.data_start = v.reserved_sectors + uint64_t{v.fat_count} * v.fat_sectors + v.root_dir_sectors;
    if (v.data_start >= v.total_sectors)
        throw BootSectorError(fmt::format("the data area would start at sector {}, past the volume's {} sectors", v.data_start,
                                          v.total_sectors));
    v.cluster_count = (v.total_sectors - v.data_start) / v.sectors_per_cluster;
    v.fs = v.cluster_count < 4085 ? FsType::fat12 : v.cluster_count < 65525 ? FsType::fat16 : FsType::fat32;
    if (v.fs == FsType::fat32) {
        if (fat16 != 0 || root_entries != 0)
            throw BootSectorError(fmt::format("{} clusters make FAT32, but BPB_FATSz16 {} / BPB_RootEntCnt {} are not 0",
                                              v.cluster_count, fat16, root_entries));
        v.fsinfo_sector = le16(s.data() + 48);
        v.backup_boot_sector = le16(s.data() + 50);
        v.label = trimmed(s.data() + 71, 11);
    } else if (root_entries == 0) {
        throw BootSectorError(fmt::format("{} clusters make {}, but BPB_RootEntCnt is 0", v.cluster_count, to_string(v.fs)));
    } else {
        v.label = trimmed(s.data() + 43, 11);
    }
    const uint64_t entries_held = v.fat_sectors * v.bytes_per_sector * 8 /
                                  (v.fs == FsType::fat12 ? 12 : v.fs == FsType::fat16 ? 16 : 32);
    if (entries_held < v.cluster_count + 2)
        throw BootSectorError(fmt::format("a FAT of {} sectors cannot hold {} clusters", v.fat_sectors, v.cluster_count));
    return v;
}

} // namespace

bool looks_like_boot_sector(const Sector& s)
{
    if (s[510] != 0x55 || s[511] != 0xAA) return false;
    if (is_exfat(s)) return true;
    const bool jump = s[0] == 0xEB || s[0] == 0xE9;
    const uint16_t bps = le16(s.data() + 11);
    return jump && is_power_of_two(bps) && bps >= 512 && bps <= 4096 && is_power_of_two(s[13]) && s[16] != 0;
}

Volume parse_boot_sector(const Sector& s)
{
    if (s[510] != 0x55 || s[511] != 0xAA) throw BootSectorError("no 55 AA signature: not a boot sector");
    if (is_exfat(s)) return parse_exfat(s);
    if (!looks_like_boot_sector(s)) throw BootSectorError("neither a FAT nor an exFAT boot sector");
    return parse_fat(s);
}

FsInfo parse_fsinfo(const Sector& s)
{
    FsInfo f;
    f.signatures_ok = le32(s.data()) == 0x41615252 && le32(s.data() + 484) == 0x61417272 && le32(s.data() + 508) == 0xAA550000;
    f.free_count = le32(s.data() + 488);
    f.next_free = le32(s.data() + 492);
    return f;
}

} // namespace mmc::format
