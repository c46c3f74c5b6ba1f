// f2fs for mmc-format --fs-layout f2fs: the superblock reader on one that
// mkfs.f2fs wrote (tests/data/format/f2fs-super-s4.bin, its provenance in
// the README there), the check of an f2fs partition against the unit (the
// main area's start, the section's size), fields Linux would not mount
// refused, and the plan's mkfs.f2fs arguments (sections of one unit).
#include "cli/errors.h"
#include "format/check.h"
#include "format/f2fs_super.h"
#include "format/make_plan.h"
#include "format/partition_table.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <string>
#include <vector>

using namespace mmc::format;

namespace {

Sector made_by_mkfs_f2fs()
{
    std::ifstream in("tests/data/format/f2fs-super-s4.bin", std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
    Sector s{};
    EXPECT_EQ(bytes.size(), s.size());
    std::copy_n(bytes.begin(), std::min(bytes.size(), s.size()), s.begin());
    return s;
}

void put32(Sector& s, std::size_t at, uint32_t v)
{
    for (int i = 0; i < 4; ++i) s[at + i] = uint8_t(v >> (8 * i));
}

// A 1 GiB card: an MBR whose one Linux partition starts at `start`, the
// superblock `super` in that partition's sector 2.
struct Card {
    uint64_t total = 2097152;
    std::map<uint64_t, Sector> sectors;
    Card(uint64_t start, const Sector& super)
    {
        sectors[0] = make_mbr(start, total - start, 0x83, 255, 63, 1);
        sectors[start + f2fs_super_sector] = super;
    }
    SectorReader reader() const
    {
        return [this](uint64_t i) -> std::optional<Sector> {
            if (i >= total) return std::nullopt;
            const auto it = sectors.find(i);
            return it == sectors.end() ? Sector{} : it->second;
        };
    }
};

const Finding* find(const CheckResult& r, const std::string& what)
{
    for (const auto& f : r.findings)
        if (to_string(f.what) == what) return &f;
    return nullptr;
}

std::vector<std::string> argv_for(uint64_t au, const std::string& label = {})
{
    MakeOptions o;
    o.layout = LayoutKind::linux_f2fs;
    o.unit_bytes = au;
    o.unit_source = "--au";
    o.label = label;
    return mkfs_f2fs_argv(make_plan(8388608, o), "/dev/loop9");
}

} // namespace

TEST(FormatF2fs, TheSuperblockMkfsF2fsWroteIsRead)
{
    const auto v = parse_f2fs_super(made_by_mkfs_f2fs());
    ASSERT_TRUE(v);
    EXPECT_EQ(v->block_bytes, 4096u);
    EXPECT_EQ(v->segment_bytes, f2fs_segment_bytes);
    EXPECT_EQ(v->segments_per_section, 4u);
    EXPECT_EQ(v->sections_per_zone, 1u);
    EXPECT_EQ(v->section_bytes(), 8u << 20);
    EXPECT_EQ(v->block_count, 65536u);
    EXPECT_EQ(v->segment0_block, 2048u);
    EXPECT_EQ(v->main_start_bytes(), 24u << 20);
}

TEST(FormatF2fs, APartitionOnTheAuWithSectionsOfOneAuIsAligned)
{
    const Card card(16384, made_by_mkfs_f2fs()); // 8 MiB in
    const auto r = check_layout(card.reader(), card.total, Unit{8u << 20, "--au"});
    EXPECT_EQ(r.verdict, Verdict::aligned);
    ASSERT_EQ(r.volumes.size(), 1u);
    ASSERT_TRUE(r.volumes[0].f2fs);
    EXPECT_TRUE(r.volumes[0].error.empty()) << r.volumes[0].error;
    ASSERT_TRUE(find(r, "f2fs_main_start"));
    EXPECT_EQ(find(r, "f2fs_main_start")->severity, Severity::ok);
    ASSERT_TRUE(find(r, "f2fs_section_size"));
    EXPECT_EQ(find(r, "f2fs_section_size")->severity, Severity::ok);
}

TEST(FormatF2fs, AStartOffTheAuPutsTheMainAreaInsideOne)
{
    const Card card(16384 + 2048, made_by_mkfs_f2fs()); // 9 MiB in: the main area at 33 MiB
    const auto r = check_layout(card.reader(), card.total, Unit{8u << 20, "--au"});
    EXPECT_EQ(r.verdict, Verdict::misaligned);
    const Finding* f = find(r, "f2fs_main_start");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::misaligned);
    EXPECT_NE(f->message.find("1 MiB into an 8 MiB AU"), std::string::npos) << f->message;
    // The partition's own start is said, but costs only through its areas.
    ASSERT_TRUE(find(r, "partition_start"));
    EXPECT_EQ(find(r, "partition_start")->severity, Severity::note);
}

TEST(FormatF2fs, SectionsSmallerThanTheAuDifferAndSayTheRemedy)
{
    const Card card(32768, made_by_mkfs_f2fs()); // 16 MiB in: the main area at 40 MiB, off a 16 MiB AU
    const auto r = check_layout(card.reader(), card.total, Unit{16u << 20, "--au"});
    const Finding* f = find(r, "f2fs_section_size");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->severity, Severity::differs);
    EXPECT_NE(f->message.find("mkfs.f2fs -s 8"), std::string::npos) << f->message;
    EXPECT_EQ(find(r, "f2fs_main_start")->severity, Severity::misaligned);
}

TEST(FormatF2fs, TheRemedyIsThePlansSectionSize)
{
    // A 3 MiB unit is 1.5 segments: --check's remedy names the -s that
    // mmc-format itself would give (2 segments cover the unit), not 1.
    const Card card(16384, made_by_mkfs_f2fs());
    const auto r = check_layout(card.reader(), card.total, Unit{3u << 20, "--au"});
    const Finding* f = find(r, "f2fs_section_size");
    ASSERT_TRUE(f);
    EXPECT_NE(f->message.find("mkfs.f2fs -s 2 "), std::string::npos) << f->message;
}

TEST(FormatF2fs, LayoutWordsRoundTrip)
{
    for (const LayoutKind k : {LayoutKind::sd, LayoutKind::linux_ext4, LayoutKind::linux_f2fs})
        EXPECT_EQ(layout_from_name(layout_name(k)), k);
    EXPECT_EQ(layout_from_name("linux"), LayoutKind::linux_ext4);
    EXPECT_FALSE(layout_from_name("btrfs"));
    EXPECT_FALSE(layout_from_name(""));
}

TEST(FormatF2fs, FieldsLinuxWouldNotMountAreNoGeometry)
{
    const Sector good = made_by_mkfs_f2fs();
    const std::vector<std::pair<std::size_t, uint32_t>> bad = {
        {16, 13},         // 8 KiB blocks
        {20, 10},         // 1024 blocks a segment
        {8, 8},           // 256-byte sectors
        {24, 0},          // no segments in a section
        {28, 0},          // no sections in a zone
        {92, 1000},       // the main area before segment 0
        {92, 70000},      // the main area past the volume's end
    };
    for (const auto& [at, value] : bad) {
        Sector s = good;
        put32(s, at, value);
        EXPECT_FALSE(parse_f2fs_super(s)) << "offset " << at << " = " << value;
        const Card card(16384, s);
        const auto r = check_layout(card.reader(), card.total, Unit{8u << 20, "--au"});
        ASSERT_EQ(r.volumes.size(), 1u);
        EXPECT_FALSE(r.volumes[0].f2fs);
        EXPECT_EQ(r.volumes[0].error, "an f2fs superblock with fields Linux does not mount");
    }
    Sector no_magic = good;
    put32(no_magic, 0, 0xEF53);
    EXPECT_FALSE(is_f2fs_super(no_magic));
}

TEST(FormatF2fs, ThePlanMakesSectionsOfOneUnit)
{
    const auto has = [](const std::vector<std::string>& argv, const std::string& flag, const std::string& value) {
        const auto it = std::find(argv.begin(), argv.end(), flag);
        return it != argv.end() && std::next(it) != argv.end() && *std::next(it) == value;
    };
    const auto eight = argv_for(8u << 20, "CARD");
    EXPECT_EQ(eight.front(), "mkfs.f2fs");
    EXPECT_EQ(eight.back(), "/dev/loop9");
    EXPECT_TRUE(has(eight, "-s", "4"));
    EXPECT_TRUE(has(eight, "-z", "1"));
    EXPECT_TRUE(has(eight, "-l", "CARD"));
    EXPECT_TRUE(has(argv_for(12u << 20), "-s", "6"));  // a TLC card's 12 MiB AU
    EXPECT_TRUE(has(argv_for(4u << 20), "-s", "2"));
    EXPECT_EQ(f2fs_segments_per_section(1u << 20), 1u); // under a segment: one
    EXPECT_EQ(f2fs_segments_per_section(3u << 20), 2u); // covered, and the plan says it is not whole

    MakeOptions o;
    o.layout = LayoutKind::linux_f2fs;
    o.unit_bytes = 8u << 20;
    o.unit_source = "--au";
    const MakePlan p = make_plan(8388608, o);
    EXPECT_EQ(p.layout.partition_start, 16384u); // on the unit
    EXPECT_EQ(p.layout.partition_type, 0x83);
    o.label = std::string(513, 'x');
    try {
        make_plan(8388608, o);
        FAIL() << "a 513-byte f2fs label was taken";
    } catch (const mmc::cli::Error& e) {
        EXPECT_EQ(e.kind, mmc::cli::ErrorKind::usage); // the label is the user's: a usage error
    }
}
