// The partition-table and boot-sector parsers and the layout check, on
// crafted images: the SD layout checks aligned, a Raspberry Pi OS style
// image on an 8 MiB AU does not, and every hostile table is a TableError
// that says what is wrong.
#include "format/boot_sector.h"
#include "format/check.h"
#include "format/partition_table.h"
#include "format/sd_layout.h"

#include <gtest/gtest.h>
#include <map>
#include <string>

using namespace mmc::format;

namespace {

// A sparse image: the sectors written, zeros elsewhere, `total` long.
struct Image {
    uint64_t total = 0;
    std::map<uint64_t, Sector> sectors;
    SectorReader reader() const
    {
        return [this](uint64_t i) -> std::optional<Sector> {
            if (i >= total) return std::nullopt;
            const auto it = sectors.find(i);
            return it == sectors.end() ? Sector{} : it->second;
        };
    }
};

void put16(Sector& s, std::size_t at, uint16_t v) { s[at] = uint8_t(v), s[at + 1] = uint8_t(v >> 8); }
void put32(Sector& s, std::size_t at, uint32_t v)
{
    for (int i = 0; i < 4; ++i) s[at + i] = uint8_t(v >> (8 * i));
}

void set_entry(Sector& mbr, int i, uint8_t type, uint32_t start, uint32_t sectors)
{
    mbr[446 + 16 * i + 4] = type;
    put32(mbr, 446 + 16 * i + 8, start);
    put32(mbr, 446 + 16 * i + 12, sectors);
    mbr[510] = 0x55;
    mbr[511] = 0xAA;
}

Sector fat32_boot(uint32_t reserved, uint32_t fat, uint8_t spc, uint32_t total, uint32_t hidden)
{
    Sector s{};
    s[0] = 0xEB, s[1] = 0x58, s[2] = 0x90;
    put16(s, 11, 512);
    s[13] = spc;
    put16(s, 14, static_cast<uint16_t>(reserved));
    s[16] = 2;
    s[21] = 0xF8;
    put32(s, 28, hidden);
    put32(s, 32, total);
    put32(s, 36, fat);
    put32(s, 44, 2);
    put16(s, 48, 1);
    put16(s, 50, 6);
    s[66] = 0x29;
    for (int i = 0; i < 11; ++i) s[71 + i] = "BOOT       "[i];
    s[510] = 0x55, s[511] = 0xAA;
    return s;
}

Sector fsinfo()
{
    Sector s{};
    put32(s, 0, 0x41615252);
    put32(s, 484, 0x61417272);
    put32(s, 488, 0xFFFFFFFF);
    put32(s, 492, 0xFFFFFFFF);
    put32(s, 508, 0xAA550000);
    return s;
}

// A card of `sectors` with the SD layout's MBR and FAT32 boot sector.
Image sd_card(uint64_t sectors)
{
    const SdLayout l = sd_layout(sectors);
    Image img{sectors, {}};
    img.sectors[0] = make_mbr(l.partition_start, l.partition_sectors, l.partition_type, l.heads, l.sectors_per_track, 1);
    img.sectors[l.partition_start] = fat32_boot(l.reserved_sectors, l.fat_sectors, uint8_t(l.sectors_per_cluster),
                                                uint32_t(l.partition_sectors), uint32_t(l.partition_start));
    img.sectors[l.partition_start + 1] = fsinfo();
    return img;
}

bool has(const CheckResult& r, Severity s, const std::string& what)
{
    for (const auto& f : r.findings)
        if (f.severity == s && to_string(f.what) == what) return true;
    return false;
}

std::string table_error(const Image& img)
{
    try {
        (void)check_layout(img.reader(), img.total, Unit{});
    } catch (const TableError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST(FormatCheck, TheSdLayoutChecksAligned)
{
    const Image img = sd_card(31074304);
    const auto r = check_layout(img.reader(), img.total, Unit{4u << 20, "SSR AU_SIZE"});
    EXPECT_EQ(r.verdict, Verdict::aligned);
    ASSERT_EQ(r.volumes.size(), 1u);
    ASSERT_TRUE(r.volumes[0].volume);
    EXPECT_EQ(r.volumes[0].volume->fs, FsType::fat32);
    EXPECT_EQ(r.volumes[0].volume->reserved_sectors, 608u);
    ASSERT_TRUE(r.volumes[0].fsinfo);
    EXPECT_TRUE(r.volumes[0].fsinfo->signatures_ok);
    for (const auto& f : r.findings) EXPECT_NE(f.severity, Severity::differs) << f.message;
    EXPECT_TRUE(has(r, Severity::ok, "data_start"));
}

TEST(FormatCheck, AnAuLargerThanTheLayoutsUnitFindsTheDataAreaInsideIt)
{
    // The SD layout's data area at 8 MiB sits on an 8 MiB AU too; at 4 MiB
    // units the FAT32 data area of a 16 GB card starts at 8 MiB (aligned);
    // an AU of 16 MiB puts it half-way into one.
    const Image img = sd_card(31074304);
    const auto r = check_layout(img.reader(), img.total, Unit{16u << 20, "--au"});
    EXPECT_EQ(r.verdict, Verdict::misaligned);
    EXPECT_TRUE(has(r, Severity::misaligned, "data_start"));
    bool worded = false;
    for (const auto& f : r.findings) worded |= f.message.find("8 MiB into a 16 MiB AU") != std::string::npos;
    EXPECT_TRUE(worded);
}

TEST(FormatCheck, ARaspberryPiOsImageOnAnEightMiBAuIsMisaligned)
{
    // Partition 1 at 4 MiB (FAT32, 4 KiB clusters, 32 reserved, FAT 1022),
    // partition 2 (Linux) at 516 MiB, as the image's fdisk -l shows.
    Image img{2 * 1024 * 2048 + 1056768, {}};
    Sector mbr{};
    set_entry(mbr, 0, 0x0C, 8192, 1048576);
    set_entry(mbr, 1, 0x83, 1056768, 4194304);
    img.sectors[0] = mbr;
    img.sectors[8192] = fat32_boot(32, 1022, 8, 1048576, 8192);
    img.sectors[8193] = fsinfo();
    const auto r = check_layout(img.reader(), img.total, Unit{8u << 20, "--au"});
    EXPECT_EQ(r.verdict, Verdict::misaligned);
    EXPECT_TRUE(has(r, Severity::misaligned, "data_start"));
    EXPECT_TRUE(has(r, Severity::misaligned, "fat_start")); // its last AU holds the first clusters
    EXPECT_TRUE(has(r, Severity::misaligned, "partition_start")); // the Linux partition at 516 MiB
    EXPECT_TRUE(has(r, Severity::differs, "cluster_size"));
    ASSERT_EQ(r.volumes.size(), 2u);
    EXPECT_FALSE(r.volumes[1].volume);
    // Without an AU: held against the SD layout's 4 MiB unit, partition 1's
    // data area (4 MiB + 1038 KiB) is still inside one.
    EXPECT_EQ(check_layout(img.reader(), img.total, Unit{}).verdict, Verdict::misaligned);
}

TEST(FormatCheck, ASuperfloppyHasNoTable)
{
    Image img{7987200, {}};
    img.sectors[0] = fat32_boot(32, 7800, 8, 7987200, 0);
    const auto r = check_layout(img.reader(), img.total, Unit{4u << 20, "--au"});
    EXPECT_EQ(r.table.kind, PartitionTable::Kind::none);
    ASSERT_EQ(r.volumes.size(), 1u);
    EXPECT_TRUE(r.volumes[0].volume);
    EXPECT_TRUE(has(r, Severity::differs, "partition_table"));
}

TEST(FormatCheck, HostileTablesAreErrorsThatSayWhat)
{
    EXPECT_NE(table_error(Image{0, {}}).find("empty"), std::string::npos);

    Image unsigned_mbr{1000, {}};
    EXPECT_NE(table_error(unsigned_mbr).find("no 55 AA"), std::string::npos);

    Image gpt{100000, {}};
    Sector pmbr{};
    set_entry(pmbr, 0, 0xEE, 1, 99999);
    gpt.sectors[0] = pmbr;
    EXPECT_NE(table_error(gpt).find("GPT"), std::string::npos);

    Image overlap{100000, {}};
    Sector o{};
    set_entry(o, 0, 0x0C, 2048, 50000);
    set_entry(o, 1, 0x83, 40000, 50000);
    overlap.sectors[0] = o;
    EXPECT_NE(table_error(overlap).find("overlap"), std::string::npos);

    Image truncated{100000, {}};
    Sector t{};
    set_entry(t, 0, 0x0C, 2048, 200000);
    truncated.sectors[0] = t;
    EXPECT_NE(table_error(truncated).find("truncated"), std::string::npos);

    // An extended partition whose second EBR links back to the first.
    Image loop{100000, {}};
    Sector m{};
    set_entry(m, 0, 0x05, 10000, 80000);
    loop.sectors[0] = m;
    Sector ebr1{}, ebr2{};
    set_entry(ebr1, 0, 0x83, 63, 1000);
    set_entry(ebr1, 1, 0x05, 5000, 2000);
    set_entry(ebr2, 0, 0x83, 63, 1000);
    set_entry(ebr2, 1, 0x05, 0, 2000); // back to the extended partition's start
    loop.sectors[10000] = ebr1;
    loop.sectors[15000] = ebr2;
    EXPECT_NE(table_error(loop).find("loops"), std::string::npos);

    Image empty_table{100000, {}};
    Sector e{};
    e[510] = 0x55, e[511] = 0xAA;
    empty_table.sectors[0] = e;
    EXPECT_NE(table_error(empty_table).find("no partitions"), std::string::npos);
}

TEST(FormatCheck, LogicalPartitionsAreRead)
{
    Image img{100000, {}};
    Sector m{};
    set_entry(m, 0, 0x0F, 10000, 80000);
    img.sectors[0] = m;
    Sector ebr1{}, ebr2{};
    set_entry(ebr1, 0, 0x83, 2048, 1000);
    set_entry(ebr1, 1, 0x05, 5000, 4000);
    set_entry(ebr2, 0, 0x83, 2048, 1000);
    img.sectors[10000] = ebr1;
    img.sectors[15000] = ebr2;
    const auto t = read_partition_table(img.reader(), img.total, looks_like_boot_sector);
    ASSERT_EQ(t.partitions.size(), 3u);
    EXPECT_EQ(t.partitions[1].number, 5u);
    EXPECT_EQ(t.partitions[1].start, 12048u);
    EXPECT_EQ(t.partitions[2].number, 6u);
    EXPECT_EQ(t.partitions[2].start, 17048u);
}

TEST(FormatCheck, HostileBootSectorsAreRefusedByField)
{
    Sector s = fat32_boot(32, 1022, 8, 1048576, 0);
    s[13] = 3; // sectors per cluster not a power of two
    EXPECT_THROW(parse_boot_sector(s), BootSectorError);
    s = fat32_boot(32, 1022, 8, 1048576, 0);
    put32(s, 36, 1); // a FAT of one sector for 130k clusters
    EXPECT_THROW(parse_boot_sector(s), BootSectorError);
    s = fat32_boot(32, 1022, 8, 100, 0); // data past the end
    EXPECT_THROW(parse_boot_sector(s), BootSectorError);
    Sector x{};
    for (int i = 0; i < 8; ++i) x[3 + i] = "EXFAT   "[i];
    x[510] = 0x55, x[511] = 0xAA;
    x[108] = 40; // BytesPerSectorShift
    EXPECT_THROW(parse_boot_sector(x), BootSectorError);
}

TEST(FormatCheck, TheMbrWeWriteReadsBack)
{
    const Sector m = make_mbr(8192, 31066112, 0x0C, 255, 63, 0x12345678);
    Image img{31074304, {{0, m}}};
    const auto t = read_partition_table(img.reader(), img.total, looks_like_boot_sector);
    ASSERT_EQ(t.partitions.size(), 1u);
    EXPECT_EQ(t.partitions[0].start, 8192u);
    EXPECT_EQ(t.partitions[0].sectors, 31066112u);
    EXPECT_EQ(t.partitions[0].type, 0x0C);
    EXPECT_EQ(t.disk_signature, 0x12345678u);
    // CHS of sector 8192 on 255 heads x 63 sectors: cylinder 0, head 130, sector 3.
    EXPECT_EQ(m[447], 130);
    EXPECT_EQ(m[448], 3);
    EXPECT_EQ(m[449], 0);
}
