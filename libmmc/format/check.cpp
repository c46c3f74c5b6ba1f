// The layout check (check.h): each finding says what it costs the flash.
// The rule behind every cost: a card rewrites in whole allocation units
// (AUs). A structure that shares an AU with file data makes every update of
// one rewrite (or garbage-collect) the other; an area that starts inside an
// AU makes every AU-sized write of it touch two.
#include "format/check.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::format {

std::string_view to_string(Verdict v)
{
    switch (v) {
    case Verdict::aligned: return "aligned";
    case Verdict::misaligned: return "misaligned";
    case Verdict::unknown: return "unknown";
    }
    return "?";
}

std::string_view to_string(Severity s)
{
    switch (s) {
    case Severity::misaligned: return "misaligned";
    case Severity::differs: return "differs";
    case Severity::ok: return "ok";
    case Severity::note: return "note";
    }
    return "?";
}

std::string_view to_string(Aspect a)
{
    switch (a) {
    case Aspect::partition_table: return "partition_table";
    case Aspect::partition_start: return "partition_start";
    case Aspect::fat_start: return "fat_start";
    case Aspect::data_start: return "data_start";
    case Aspect::cluster_alignment: return "cluster_alignment";
    case Aspect::cluster_size: return "cluster_size";
    case Aspect::reserved_sectors: return "reserved_sectors";
    case Aspect::fat_size: return "fat_size";
    case Aspect::fsinfo: return "fsinfo";
    case Aspect::file_system: return "file_system";
    case Aspect::f2fs_main_start: return "f2fs_main_start";
    case Aspect::f2fs_section_size: return "f2fs_section_size";
    }
    return "?";
}

// "an AU", "an erase group", "a boundary unit": the unit's name after its article.
static std::string a_unit(std::string_view unit_name)
{
    // By sound: a vowel, or a capital read as a letter name ("AU" is "ay-you").
    const bool an = !unit_name.empty() && std::string_view("aeiouAEFHILMNORSX").find(unit_name[0]) != std::string_view::npos;
    return fmt::format("{} {}", an ? "an" : "a", unit_name);
}

std::string offset_into(uint64_t offset_bytes, uint64_t unit_bytes, std::string_view unit_name)
{
    const std::string unit = cli::format_bytes(unit_bytes);
    const bool an = unit.starts_with("8") || unit.starts_with("11 ") || unit.starts_with("18 ");
    return fmt::format("{} into {} {} {}", cli::format_bytes(offset_bytes), an ? "an" : "a", unit, unit_name);
}

namespace {

struct Checker {
    const SectorReader& read;
    CheckResult& r;
    uint64_t unit = 0;           // bytes
    std::string unit_name = "AU"; // "AU", "erase group", "boundary unit"
    bool undecided = false;       // a start only a boot sector unseen could say is aligned or not

    void add(Severity s, Aspect what, std::optional<unsigned> part, std::string message)
    {
        r.findings.push_back({s, what, part, std::move(message)});
    }

    // holds_volume: a FAT or exFAT volume whose areas are checked on their
    // own; its start alone costs nothing (the SD layout floats a FAT12/16
    // partition so that its data area lands on the unit).
    void check_partition_start(const Partition& p, bool holds_volume)
    {
        const uint64_t off = p.start * sector_bytes % unit;
        if (off == 0) {
            add(Severity::ok, Aspect::partition_start, p.number,
                fmt::format("partition {} starts on {} boundary (sector {})", p.number, a_unit(unit_name), p.start));
            return;
        }
        if (holds_volume) {
            add(Severity::note, Aspect::partition_start, p.number,
                fmt::format("partition {} starts {}; what its file system's areas cost is said below", p.number,
                            offset_into(off, unit, unit_name)));
            return;
        }
        add(Severity::misaligned, Aspect::partition_start, p.number,
            fmt::format("partition {} starts {}: every {}-sized write the file system makes straddles two {}s, "
                        "so the card programs and later garbage-collects two where one would do",
                        p.number, offset_into(off, unit, unit_name), unit_name, unit_name));
    }

    void check_volume(const Partition& p, const Volume& v)
    {
        const uint64_t bps = v.bytes_per_sector;
        const uint64_t base = p.start * sector_bytes;
        const uint64_t fat_at = base + v.fat_start() * bps;
        const uint64_t fat_end = fat_at + v.fat_count * v.fat_sectors * bps; // exclusive
        const uint64_t data_at = base + v.data_start * bps;
        const auto part = p.number ? std::optional<unsigned>(p.number) : std::nullopt;
        const std::string fs{to_string(v.fs)};

        // The data area: where every file's clusters begin.
        const uint64_t data_off = data_at % unit;
        if (data_off == 0)
            add(Severity::ok, Aspect::data_start, part, fmt::format("the {} data area starts on {} boundary", fs, a_unit(unit_name)));
        else
            add(Severity::misaligned, Aspect::data_start, part,
                fmt::format("the {} data area starts {}: each {} of file data straddles two {}s (twice the "
                            "program and erase work for a sequential write), and the {} holding the FAT's end "
                            "also holds the first clusters, so every FAT update rewrites {} of file data",
                            fs, offset_into(data_off, unit, unit_name), unit_name, unit_name, unit_name, a_unit(unit_name)));
        if (data_off % v.cluster_bytes() != 0 && v.cluster_bytes() <= unit)
            add(Severity::misaligned, Aspect::cluster_alignment, part,
                fmt::format("clusters of {} start {} into their own size: one cluster in every {} straddles two {}s",
                            cli::format_bytes(v.cluster_bytes()), cli::format_bytes(data_off % v.cluster_bytes()),
                            unit_name, unit_name));

        // The FAT: updated on every allocation.
        const uint64_t fat_off = fat_at % unit;
        const bool fat_shares_with_data = fat_end > 0 && (fat_end - 1) / unit == data_at / unit && data_off != 0;
        if (fat_shares_with_data)
            add(Severity::misaligned, Aspect::fat_start, part,
                fmt::format("the FAT starts {} and its last {} also holds file data: every FAT update also "
                            "rewrites the clusters that share its {}",
                            offset_into(fat_off, unit, unit_name), unit_name, unit_name));
        else if (fat_off != 0)
            add(Severity::ok, Aspect::fat_start, part,
                fmt::format("the FAT starts {}; its {}s hold only the boot sectors and the FATs, as the SD layout "
                            "places them (the FATs end where the data area starts)",
                            offset_into(fat_off, unit, unit_name), unit_name));
        else
            add(Severity::ok, Aspect::fat_start, part, fmt::format("the FAT starts on {} boundary", a_unit(unit_name)));

        if (!r.sd) return;
        const SdLayout& sd = *r.sd;
        const std::string capacity = cli::format_bytes(r.disk_sectors * sector_bytes);
        if (v.fs != sd.fs)
            add(Severity::differs, Aspect::file_system, part,
                fmt::format("{} where the SD layout for {} has {}", fs, capacity, to_string(sd.fs)));
        const uint64_t sd_cluster = uint64_t{sd.sectors_per_cluster} * sector_bytes;
        if (v.cluster_bytes() < sd_cluster)
            add(Severity::differs, Aspect::cluster_size, part,
                fmt::format("clusters of {} where the SD layout for {} has {}: {} times the FAT updates per byte "
                            "written, each a rewrite in the FAT's {}",
                            cli::format_bytes(v.cluster_bytes()), capacity, cli::format_bytes(sd_cluster),
                            sd_cluster / v.cluster_bytes(), unit_name));
        else if (v.cluster_bytes() > sd_cluster)
            add(Severity::differs, Aspect::cluster_size, part,
                fmt::format("clusters of {} where the SD layout for {} has {}: fewer FAT updates, more slack per small file",
                            cli::format_bytes(v.cluster_bytes()), capacity, cli::format_bytes(sd_cluster)));
        if (p.number <= 1 && p.start != sd.partition_start)
            add(Severity::differs, Aspect::partition_start, part,
                fmt::format("partition {} starts at sector {}; the SD layout starts it at {}", p.number, p.start,
                            sd.partition_start));
        if (v.fs == sd.fs && v.sectors_per_cluster * bps == sd_cluster && p.start == sd.partition_start) {
            if (v.reserved_sectors * bps != uint64_t{sd.reserved_sectors} * sector_bytes)
                add(Severity::differs, Aspect::reserved_sectors, part,
                    fmt::format("{} reserved sectors (or FAT offset); the SD layout has {}", v.reserved_sectors, sd.reserved_sectors));
            if (v.fs != FsType::exfat && v.fat_sectors * bps != uint64_t{sd.fat_sectors} * sector_bytes)
                add(Severity::differs, Aspect::fat_size, part,
                    fmt::format("a FAT of {} sectors; the SD layout has {}", v.fat_sectors, sd.fat_sectors));
        }
    }

    // An f2fs volume: its main area is where the cleaner allocates and frees
    // whole sections, so its start and the section's size are what meet the
    // card's unit (f2fs itself keeps the metadata before it in segment 0's
    // zone: mkfs.f2fs aligns the main area to a zone from the partition's
    // start).
    void check_f2fs(const Partition& p, const F2fsVolume& v)
    {
        const auto part = p.number ? std::optional<unsigned>(p.number) : std::nullopt;
        const uint64_t main_off = (p.start * sector_bytes + v.main_start_bytes()) % unit;
        if (main_off == 0)
            add(Severity::ok, Aspect::f2fs_main_start, part, fmt::format("the f2fs main area starts on {} boundary", a_unit(unit_name)));
        else
            add(Severity::misaligned, Aspect::f2fs_main_start, part,
                fmt::format("the f2fs main area starts {}: each {} segment and each section it writes as one "
                            "straddles two {}s, so the card programs and garbage-collects two where one would do",
                            offset_into(main_off, unit, unit_name), cli::format_bytes(v.segment_bytes), unit_name));
        const uint64_t section = v.section_bytes();
        if (section % unit == 0)
            add(Severity::ok, Aspect::f2fs_section_size, part,
                fmt::format("f2fs sections of {} hold whole {}s: its cleaner frees a {} at a time", cli::format_bytes(section),
                            unit_name, unit_name));
        else
            add(Severity::differs, Aspect::f2fs_section_size, part,
                fmt::format("f2fs sections of {} where the {} is {}: its cleaner frees part of one at a time, and the "
                            "card copies the rest before it can erase it (mkfs.f2fs -s {} makes sections of one {})",
                            cli::format_bytes(section), unit_name, cli::format_bytes(unit),
                            f2fs_segments_per_section(unit), unit_name));
    }

    // A table read from text (fdisk -l): where each partition starts is all
    // there is. A FAT12/16 start off the unit is the SD layout's own for
    // small cards (it floats the partition to align the data area), so it
    // is not held against the table without the boot sector.
    void check_start_only(const Partition& p, std::string_view seen_from)
    {
        add(Severity::note, Aspect::file_system, p.number,
            fmt::format("partition {} ({}): its file system is not in {}; only where it starts is checked", p.number,
                        partition_type_name(p.type), seen_from));
        r.volumes.push_back({p, std::nullopt, fmt::format("not in {}", seen_from), std::nullopt, std::nullopt});
        if (!unit) return;
        const bool fat = p.type == 0x01 || p.type == 0x04 || p.type == 0x06 || p.type == 0x0E || p.type == 0x0B ||
                         p.type == 0x0C || p.type == 0x07;
        const uint64_t off = p.start * sector_bytes % unit;
        if (!fat || off == 0) return check_partition_start(p, false);
        // A FAT or exFAT volume can pad its reserved sectors so that its FAT
        // and data area land on the unit all the same (the SD layout floats
        // small cards' partitions so): only its boot sector can tell.
        undecided = true;
        add(Severity::note, Aspect::partition_start, p.number,
            fmt::format("partition {} starts {}; whether its FAT and data area are aligned only its boot sector can tell "
                        "(check the card or an image of it)",
                        p.number, offset_into(off, unit, unit_name)));
    }

    void check(const Partition& p)
    {
        CheckedVolume cv{p, std::nullopt, {}, std::nullopt, std::nullopt};
        const auto s = read(p.start);
        try {
            if (!s) throw BootSectorError("its first sector is past the end");
            cv.volume = parse_boot_sector(*s);
        } catch (const BootSectorError& e) {
            if (const auto super = read(p.start + f2fs_super_sector); super && is_f2fs_super(*super)) {
                cv.f2fs = parse_f2fs_super(*super);
                if (!cv.f2fs) cv.error = "an f2fs superblock with fields Linux does not mount";
            } else {
                cv.error = e.what();
            }
            if (!cv.f2fs)
                add(Severity::note, Aspect::file_system, p.number ? std::optional<unsigned>(p.number) : std::nullopt,
                    fmt::format("partition {} ({}): not checked inside: {}", p.number, partition_type_name(p.type), cv.error));
        }
        if (cv.volume && cv.volume->fs == FsType::fat32 && cv.volume->fsinfo_sector != 0 &&
            cv.volume->fsinfo_sector < cv.volume->reserved_sectors && cv.volume->bytes_per_sector == sector_bytes) {
            if (const auto f = read(p.start + cv.volume->fsinfo_sector)) {
                cv.fsinfo = parse_fsinfo(*f);
                if (!cv.fsinfo->signatures_ok)
                    add(Severity::note, Aspect::fsinfo, p.number, fmt::format("the FSInfo sector ({}) has wrong signatures", cv.volume->fsinfo_sector));
            }
        }
        if (unit) check_partition_start(p, cv.volume.has_value() || cv.f2fs.has_value());
        if (cv.volume && unit) check_volume(p, *cv.volume);
        if (cv.f2fs && unit) check_f2fs(p, *cv.f2fs);
        r.volumes.push_back(std::move(cv));
    }
};

} // namespace

namespace {

// The check of a table already read: through `read` into each file system,
// or (no reader) its partitions' starts only, as `seen_from` showed them.
CheckResult check_read_table(const SectorReader& read, PartitionTable table, uint64_t disk_sectors, const Unit& unit,
                             std::string_view seen_from)
{
    CheckResult r;
    r.disk_sectors = disk_sectors;
    try {
        r.sd = sd_layout(disk_sectors);
    } catch (const LayoutError&) {
    }
    r.table = std::move(table);
    Checker c{read, r};
    if (unit.bytes && *unit.bytes >= sector_bytes) {
        c.unit = *unit.bytes;
        r.unit_source = unit.source;
        c.unit_name = unit.source.find("erase group") != std::string::npos ? "erase group" : "AU";
    } else if (r.sd) {
        c.unit = uint64_t{r.sd->boundary_unit} * sector_bytes;
        r.unit_source = "the SD layout's boundary unit for this capacity (the card's AU is unknown)";
        c.unit_name = "boundary unit";
    }
    r.unit_bytes = c.unit;
    if (r.table.kind == PartitionTable::Kind::none) {
        const Partition whole{0, 0, false, 0, disk_sectors};
        c.add(Severity::differs, Aspect::partition_table, std::nullopt,
              "no partition table: the file system starts at sector 0, sharing its unit with nothing to align it to; "
              "the SD layout puts an MBR there and the partition one boundary unit in");
        c.check(whole);
    } else {
        for (const Partition& p : r.table.partitions)
            if (is_extended_type(p.type)) continue;
            else if (read) c.check(p);
            else c.check_start_only(p, seen_from);
    }
    bool misaligned = false;
    for (const Finding& f : r.findings) misaligned |= f.severity == Severity::misaligned;
    r.verdict = !c.unit ? Verdict::unknown : misaligned ? Verdict::misaligned : c.undecided ? Verdict::unknown : Verdict::aligned;
    return r;
}

} // namespace

CheckResult check_layout(const SectorReader& read, uint64_t disk_sectors, const Unit& unit)
{
    return check_read_table(read, read_partition_table(read, disk_sectors, looks_like_boot_sector), disk_sectors, unit, "");
}

CheckResult check_table(const PartitionTable& table, uint64_t disk_sectors, const Unit& unit, std::string_view seen_from)
{
    check_partitions(table, disk_sectors);
    return check_read_table({}, table, disk_sectors, unit, seen_from);
}

} // namespace mmc::format
