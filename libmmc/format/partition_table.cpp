// Reading an MBR partition table (partition_table.h).
#include "format/partition_table.h"

#include "format/little_endian.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace mmc::format {

namespace {

bool has_signature(const Sector& s) { return s[510] == 0x55 && s[511] == 0xAA; }

struct Entry {
    uint8_t status, type;
    uint32_t start, sectors;
};
Entry entry(const Sector& s, int i)
{
    const uint8_t* e = s.data() + 446 + 16 * i;
    return {e[0], e[4], le32(e + 8), le32(e + 12)};
}

// A logical drive's chain is at most this long: the kernel stops at 256
// partitions in all; a longer chain is a loop by another name.
constexpr unsigned max_logical = 128;

void read_logical(const SectorReader& read, uint64_t total, uint64_t ext_start, uint64_t ext_sectors,
                  PartitionTable& table)
{
    std::set<uint64_t> seen;
    uint64_t ebr = ext_start;
    unsigned number = 5;
    for (;;) {
        if (!seen.insert(ebr).second)
            throw TableError(fmt::format("the extended partition's chain loops back to sector {}", ebr));
        if (seen.size() > max_logical)
            throw TableError(fmt::format("the extended partition's chain is longer than {} links", max_logical));
        const auto s = read(ebr);
        if (!s) throw TableError(fmt::format("truncated: the extended boot record at sector {} is past the end ({} sectors)", ebr, total));
        if (!has_signature(*s)) throw TableError(fmt::format("the extended boot record at sector {} has no 55 AA signature", ebr));
        const Entry e0 = entry(*s, 0), e1 = entry(*s, 1);
        if (e0.type != 0 && e0.sectors != 0)
            table.partitions.push_back({number++, e0.type, e0.status == 0x80, ebr + e0.start, e0.sectors});
        if (e1.type == 0 || e1.sectors == 0) return;
        if (!is_extended_type(e1.type)) throw TableError(fmt::format("the extended boot record at sector {} links to a type {:#04x} entry", ebr, e1.type));
        ebr = ext_start + e1.start;
        if (ebr >= ext_start + ext_sectors)
            throw TableError(fmt::format("the extended partition's chain leaves the extended partition (sector {})", ebr));
    }
}

} // namespace

PartitionTable read_partition_table(const SectorReader& read, uint64_t total, const IsBootSector& is_boot_sector)
{
    if (total == 0) throw TableError("empty: shorter than one 512-byte sector, no partition table and no file system");
    const auto first = read(0);
    if (!first) throw TableError("truncated: shorter than one 512-byte sector");
    const Sector& s = *first;
    if (!has_signature(s)) throw TableError("no partition table: sector 0 has no 55 AA signature (not an MBR, not a boot sector)");
    PartitionTable table;
    // A FAT or exFAT boot sector at sector 0 also ends in 55 AA: a volume
    // without a table. Its entries area holds boot code, not partitions.
    if (is_boot_sector(s)) {
        table.kind = PartitionTable::Kind::none;
        return table;
    }
    table.disk_signature = le32(s.data() + 440);
    for (int i = 0; i < 4; ++i) {
        const Entry e = entry(s, i);
        if (e.type == 0xEE)
            throw TableError("a GPT (protective MBR, type 0xee): the SD layout is an MBR's; mmc-format reads MBR tables only");
        if (e.status != 0 && e.status != 0x80)
            throw TableError(fmt::format("not a partition table: entry {} has status byte {:#04x} (expected 0x00 or 0x80)", i + 1, e.status));
        if (e.type == 0 || e.sectors == 0) continue;
        table.partitions.push_back({unsigned(i + 1), e.type, e.status == 0x80, e.start, e.sectors});
    }
    const auto primaries = table.partitions;
    for (const Partition& p : primaries)
        if (is_extended_type(p.type)) read_logical(read, total, p.start, p.sectors, table);

    check_partitions(table, total);
    return table;
}

void check_partitions(const PartitionTable& table, uint64_t total)
{
    for (const Partition& p : table.partitions) {
        if (p.start == 0 && !is_extended_type(p.type))
            throw TableError(fmt::format("partition {} starts at sector 0, over the partition table", p.number));
        if (p.start + p.sectors > total)
            throw TableError(fmt::format("truncated: partition {} ends at sector {}, past the end ({} sectors)", p.number,
                                         p.start + p.sectors, total));
    }
    // Overlaps: logical partitions lie inside their extended one, which is
    // no overlap; anything else sharing a sector is.
    for (std::size_t i = 0; i < table.partitions.size(); ++i)
        for (std::size_t j = i + 1; j < table.partitions.size(); ++j) {
            const Partition &a = table.partitions[i], &b = table.partitions[j];
            if (is_extended_type(a.type) && b.number >= 5) continue;
            if (is_extended_type(b.type) && a.number >= 5) continue;
            if (a.start < b.start + b.sectors && b.start < a.start + a.sectors)
                throw TableError(fmt::format("partitions {} and {} overlap (sectors {}-{} and {}-{})", a.number, b.number,
                                             a.start, a.start + a.sectors - 1, b.start, b.start + b.sectors - 1));
        }
    if (table.partitions.empty()) throw TableError("an MBR with no partitions");
}

bool is_extended_type(uint8_t type) { return type == 0x05 || type == 0x0F || type == 0x85; }

std::string partition_type_name(uint8_t type)
{
    switch (type) {
    case 0x01: return "FAT12";
    case 0x04: return "FAT16 (<32 MiB)";
    case 0x05: return "extended";
    case 0x06: return "FAT16";
    case 0x07: return "exFAT/NTFS";
    case 0x0B: return "FAT32 (CHS)";
    case 0x0C: return "FAT32 (LBA)";
    case 0x0E: return "FAT16 (LBA)";
    case 0x0F: return "extended (LBA)";
    case 0x82: return "Linux swap";
    case 0x83: return "Linux";
    case 0x85: return "Linux extended";
    case 0xDA: return "non-FS data";
    default: return fmt::format("type {:#04x}", type);
    }
}

namespace {
// LBA to the MBR's packed CHS; past what CHS reaches, its maximum.
void put_chs(uint8_t* p, uint64_t lba, unsigned heads, unsigned spt)
{
    if (lba >= 1024ull * heads * spt || lba >= 16450560) {
        p[0] = 0xFF; // head 255, as sdFormatLinux (the SD Formatter writes 254 once: a bug, its author says)
        p[1] = 0xFF;
        p[2] = 0xFF;
        return;
    }
    const uint64_t c = lba / (heads * spt), h = lba / spt % heads, s = lba % spt + 1;
    p[0] = static_cast<uint8_t>(h);
    p[1] = static_cast<uint8_t>(s | (c >> 2 & 0xC0));
    p[2] = static_cast<uint8_t>(c);
}
} // namespace

Sector make_mbr(uint64_t start, uint64_t sectors, uint8_t type, uint8_t heads, uint8_t spt, uint32_t disk_signature)
{
    Sector s{};
    put32(s.data() + 440, disk_signature);
    uint8_t* e = s.data() + 446;
    put_chs(e + 1, start, heads, spt);
    e[4] = type;
    put_chs(e + 5, start + sectors - 1, heads, spt);
    put32(e + 8, static_cast<uint32_t>(start));
    put32(e + 12, static_cast<uint32_t>(sectors));
    s[510] = 0x55;
    s[511] = 0xAA;
    return s;
}

} // namespace mmc::format
