// mmc-format --check: a card's or an image's partition table and each FAT,
// exFAT or f2fs volume's geometry held against the card's unit (its AU, erase
// group, preferred erase size, or a measured AU) and against the SD layout
// for its capacity. Pure: it reads through a SectorReader, so a test or a
// fuzzer hands it bytes.
#pragma once
#include "format/boot_sector.h"
#include "format/f2fs_super.h"
#include "format/partition_table.h"
#include "format/sd_layout.h"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::format {

// The unit the flash erases and rewrites in, when known.
struct Unit {
    std::optional<uint64_t> bytes; // none: unknown (an image without --au); the SD layout's unit is used
    std::string source;            // "SSR AU_SIZE", "--au", "EXT_CSD HC_ERASE_GRP_SIZE", "sysfs preferred_erase_size"
};

enum class Verdict { aligned, misaligned, unknown };
std::string_view to_string(Verdict v);

enum class Severity {
    misaligned, // costs flash work on every update (counts against the verdict)
    differs,    // not the SD layout's choice, at a cost said in words (not an alignment)
    ok,         // as it should be
    note,       // said for the record (a partition not checked inside, a FSInfo)
};
std::string_view to_string(Severity s);

// What a finding is about; to_string gives the JSON's "what".
enum class Aspect {
    partition_table,   // none: the file system at sector 0
    partition_start,
    fat_start,
    data_start,        // a FAT or exFAT data area
    cluster_alignment, // clusters across unit boundaries
    cluster_size,
    reserved_sectors,
    fat_size,
    fsinfo,
    file_system,       // the kind, or why it was not checked inside
    f2fs_main_start,
    f2fs_section_size,
};
std::string_view to_string(Aspect a);

struct Finding {
    Severity severity = Severity::note;
    Aspect what = Aspect::file_system;
    std::optional<unsigned> partition; // its number; none for the card as a whole
    std::string message;            // with its cost in words
};

struct CheckedVolume {
    Partition partition;            // kind none: sector 0 to the end, number 0
    std::optional<Volume> volume;   // none: not FAT/exFAT (error says why)
    std::string error;
    std::optional<FsInfo> fsinfo;
    std::optional<F2fsVolume> f2fs; // an f2fs volume (mmc-format --fs-layout f2fs writes one)
};

struct CheckResult {
    Verdict verdict = Verdict::unknown;
    uint64_t disk_sectors = 0;
    uint64_t unit_bytes = 0;        // what was held against (0: none)
    std::string unit_source;
    std::optional<SdLayout> sd;     // the SD layout for this capacity, where the table has one
    PartitionTable table;
    std::vector<CheckedVolume> volumes;
    std::vector<Finding> findings;
};

// Throws TableError for a table that cannot be read (format/partition_table.h).
CheckResult check_layout(const SectorReader& read, uint64_t disk_sectors, const Unit& unit);

// The same check on a table known only as text (fdisk -l's rows): where
// each partition starts, the file systems unseen (a note says so, naming
// `seen_from`). Throws TableError for a table that cannot be (overlaps,
// past the end).
CheckResult check_table(const PartitionTable&, uint64_t disk_sectors, const Unit& unit, std::string_view seen_from);

// "12 KiB into an 8 MiB AU" (offset within unit, in words).
std::string offset_into(uint64_t offset_bytes, uint64_t unit_bytes, std::string_view unit_name);

} // namespace mmc::format
