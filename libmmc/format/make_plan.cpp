// The format plan and its mkfs command lines (make_plan.h).
//
// Which structures mkfs writes and which we do, and why:
//  - the MBR: ours (partition_table.h make_mbr). mkfs.fat's --mbr spans the
//    whole disk from sector 0 and mkfs.exfat writes none; the SD layout's
//    partition starts at the boundary unit with the SD Formatter's fake CHS.
//  - FAT12/16/32: mkfs.fat, told every figure (-F, -s, -R, -f 2, -r 512,
//    -h, -g, -a to keep its own alignment out, --offset). It computes the
//    FAT size itself; where its size differs from the layout's, the reserved
//    sectors are moved by the difference so the data area still starts on
//    the unit (make_run.cpp).
//  - exFAT: mkfs.exfat on the partition alone (a loop device over it) with
//    --boundary-align of half the unit: that puts the FAT at half a unit and
//    the cluster heap at one unit, the SD layout's places. It cannot be told
//    the partition's offset on a device that is not a partition (it reads it
//    from sysfs), so we write PartitionOffset into both boot regions and
//    their checksums afterwards (make_run.cpp). Its FatLength is what the
//    clusters need, where the SD Formatter's fills half a unit: the places
//    are the same, the FAT's tail is free either way.
#include "format/make_plan.h"

#include "cli/cli.h"
#include "cli/size.h"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace mmc::format {

namespace {

std::string fat_label(const std::string& label)
{
    if (label.size() > 11) throw cli::UsageError(fmt::format("volume label '{}': a FAT label holds at most 11 characters", label));
    for (const char c : label)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e || std::string("\"*+,./:;<=>?[\\]|").find(c) != std::string::npos)
            throw cli::UsageError(fmt::format("volume label '{}': '{}' is not allowed in a FAT label", label, c));
    std::string up = label;
    std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return up;
}

} // namespace

MakePlan make_plan(uint64_t card_sectors, const MakeOptions& o)
{
    MakePlan p;
    p.kind = o.layout;
    p.volume_id = o.volume_id;
    SdLayout sd = sd_layout(card_sectors);
    const uint64_t bu_bytes = uint64_t{sd.boundary_unit} * sector_bytes;
    p.unit_bytes = bu_bytes;
    p.unit_source = fmt::format("the SD layout's boundary unit for {}", cli::format_bytes(card_sectors * sector_bytes));
    const bool spec_on_au = o.unit_bytes && *o.unit_bytes > bu_bytes && *o.unit_bytes % bu_bytes == 0 &&
                            (sd.partition_start + sd.data_start) * sector_bytes % *o.unit_bytes == 0;
    if (spec_on_au) {
        // The specification's places already put the data area on an AU
        // (4 GB: partition at 4 MiB, data at 8 MiB, on an 8 MiB AU): kept.
        // Moving them out to the AU would put the root directory past the
        // first AUs, which cards take small writes in (sim/ftl.h's FAT
        // area): bench/format-wa measured the SD layout 1.6x fewer erases
        // than mkfs.vfat there, and fewer erases than mkfs.vfat only then.
        p.unit_bytes = *o.unit_bytes;
        p.unit_source = o.unit_source;
        p.notes.push_back(fmt::format("the card's AU ({}, {}) is larger than the SD layout's boundary unit ({}); the "
                                      "layout's data area starts on an AU all the same: kept where the specification puts it",
                                      cli::format_bytes(*o.unit_bytes), o.unit_source, cli::format_bytes(bu_bytes)));
    } else if (o.unit_bytes && *o.unit_bytes > bu_bytes && *o.unit_bytes % sector_bytes == 0) {
        // A card whose AU is larger than the table's unit (an 8 MiB AU on a
        // card the table gives 4 MiB): the layout is placed on the AU, so
        // the FAT and the data area do not share one.
        p.notes.push_back(fmt::format("the card's AU ({}, {}) is larger than the SD layout's boundary unit ({}): "
                                      "aligned to the AU instead",
                                      cli::format_bytes(*o.unit_bytes), o.unit_source, cli::format_bytes(bu_bytes)));
        const uint64_t au_sectors = *o.unit_bytes / sector_bytes;
        if (au_sectors <= UINT32_MAX) {
            p.unit_bytes = *o.unit_bytes;
            p.unit_source = o.unit_source;
            sd = sd_layout_with_unit(card_sectors, static_cast<uint32_t>(au_sectors));
        }
    }
    p.layout = sd;
    if (is_linux_layout(o.layout)) {
        p.layout.partition_start = p.unit_bytes / sector_bytes;
        p.layout.partition_sectors = card_sectors - p.layout.partition_start;
        p.layout.partition_type = 0x83;
        // ext4's s_volume_name is 16 bytes; mkfs.f2fs refuses a label over 512.
        const std::size_t label_max = o.layout == LayoutKind::linux_ext4 ? 16 : 512;
        if (o.label.size() > label_max)
            throw cli::UsageError(fmt::format("volume label '{}': an {} label holds at most {} bytes", o.label,
                                                    layout_name(o.layout), label_max));
        p.label = o.label;
        if (o.layout == LayoutKind::linux_f2fs && p.unit_bytes % f2fs_segment_bytes != 0 && p.unit_bytes > f2fs_segment_bytes)
            p.notes.push_back(fmt::format("the unit ({}) is no whole number of f2fs's 2 MiB segments: sections of {} "
                                          "segments cover it but end off its boundaries",
                                          cli::format_bytes(p.unit_bytes), f2fs_segments_per_section(p.unit_bytes)));
    } else {
        p.label = o.label.empty() ? std::string() : sd.fs == FsType::exfat ? o.label : fat_label(o.label);
        if (sd.fs == FsType::exfat && o.label.size() > 11)
            throw cli::UsageError(fmt::format("volume label '{}': an exFAT label holds at most 11 characters", o.label));
    }
    return p;
}

std::vector<std::string> mkfs_fat_argv(const MakePlan& plan, const std::string& target, uint32_t reserved)
{
    const SdLayout& l = plan.layout;
    const int bits = l.fs == FsType::fat12 ? 12 : l.fs == FsType::fat16 ? 16 : 32;
    std::vector<std::string> argv = {"mkfs.fat", "-I", "-a", "-F", std::to_string(bits), "-S", "512",
                                     "-s", std::to_string(l.sectors_per_cluster), "-R", std::to_string(reserved),
                                     "-f", "2", "-M", "0xF8", "-D", "0x80",
                                     "-h", std::to_string(l.partition_start),
                                     "-g", fmt::format("{}/{}", l.heads, l.sectors_per_track),
                                     "-i", fmt::format("{:08X}", plan.volume_id),
                                     fmt::format("--offset={}", l.partition_start)};
    if (bits == 32) argv.insert(argv.end(), {"-b", "6"});
    else argv.insert(argv.end(), {"-r", "512"});
    if (!plan.label.empty()) argv.insert(argv.end(), {"-n", plan.label});
    argv.push_back(target);
    // mkfs.fat counts in 1 KiB blocks: an odd partition would lose its last
    // sector, so none is given and it takes the device's end (--offset on).
    return argv;
}

std::vector<std::string> mkfs_exfat_argv(const MakePlan& plan, const std::string& partition_device)
{
    const SdLayout& l = plan.layout;
    std::vector<std::string> argv = {"mkfs.exfat", "-c", std::to_string(uint64_t{l.sectors_per_cluster} * sector_bytes),
                                     "-b", std::to_string(uint64_t{l.boundary_unit} * sector_bytes / 2)};
    if (!plan.label.empty()) argv.insert(argv.end(), {"-L", plan.label});
    argv.push_back(partition_device);
    return argv;
}

std::vector<std::string> mkfs_ext4_argv(const MakePlan& plan, const std::string& partition_device)
{
    // stride and stripe-width in 4 KiB blocks: the allocator places block
    // groups' metadata and large files' extents on AU boundaries.
    const uint64_t blocks = ext4_stride_blocks(plan.unit_bytes);
    std::vector<std::string> argv = {"mkfs.ext4", "-F", "-q", "-b", "4096",
                                     "-E", fmt::format("stride={},stripe_width={}", blocks, blocks)};
    if (!plan.label.empty()) argv.insert(argv.end(), {"-L", plan.label});
    argv.push_back(partition_device);
    return argv;
}

uint64_t ext4_stride_blocks(uint64_t unit_bytes) { return std::max<uint64_t>(1, unit_bytes / 4096); }

std::vector<std::string> mkfs_f2fs_argv(const MakePlan& plan, const std::string& partition_device)
{
    // -s: segments per section, the unit the cleaner frees, made one card
    // unit; -z 1: a zone of one section. mkfs.f2fs starts the main area on a
    // zone boundary counted from the partition's start, which is on the unit.
    std::vector<std::string> argv = {"mkfs.f2fs", "-f", "-q", "-s", std::to_string(f2fs_segments_per_section(plan.unit_bytes)),
                                     "-z", "1"};
    if (!plan.label.empty()) argv.insert(argv.end(), {"-l", plan.label});
    argv.push_back(partition_device);
    return argv;
}

std::string_view layout_name(LayoutKind k)
{
    switch (k) {
    case LayoutKind::sd: return "sd";
    case LayoutKind::linux_ext4: return "ext4";
    case LayoutKind::linux_f2fs: return "f2fs";
    }
    return "?";
}

std::optional<LayoutKind> layout_from_name(std::string_view word)
{
    if (word == "linux") return LayoutKind::linux_ext4;
    for (const LayoutKind k : {LayoutKind::sd, LayoutKind::linux_ext4, LayoutKind::linux_f2fs})
        if (word == layout_name(k)) return k;
    return std::nullopt;
}

std::string plan_text(const std::string& device, const MakePlan& p)
{
    const SdLayout& l = p.layout;
    std::string out = fmt::format("{}: {} sectors ({})\n", device, l.card_sectors,
                                  cli::format_bytes_exact(l.card_sectors * sector_bytes));
    out += fmt::format("unit:        {} ({})\n", cli::format_bytes(p.unit_bytes), p.unit_source);
    out += fmt::format("MBR:         one partition, type {:#04x}, sectors {}-{} (starts {} in)\n", l.partition_type,
                       l.partition_start, l.card_sectors - 1, cli::format_bytes(l.partition_start * sector_bytes));
    if (p.kind == LayoutKind::linux_ext4) {
        out += fmt::format("file system: ext4, 4 KiB blocks, stride = stripe width = {} blocks (one unit)\n",
                           ext4_stride_blocks(p.unit_bytes));
    } else if (p.kind == LayoutKind::linux_f2fs) {
        const uint64_t segments = f2fs_segments_per_section(p.unit_bytes);
        out += fmt::format("file system: f2fs, sections of {} segments ({}, one unit), a zone of one section\n", segments,
                           cli::format_bytes(segments * f2fs_segment_bytes));
    } else {
        out += fmt::format("file system: {}, {} clusters, {} reserved sectors, {} FAT{} of {} sectors, data at sector "
                           "{} of the partition ({} on the card)\n",
                           to_string(l.fs), cli::format_bytes(uint64_t{l.sectors_per_cluster} * sector_bytes),
                           l.reserved_sectors, l.fat_count, l.fat_count == 1 ? "" : "s", l.fat_sectors, l.data_start,
                           cli::format_bytes((l.partition_start + l.data_start) * sector_bytes));
    }
    if (!p.label.empty()) out += fmt::format("label:       {}\n", p.label);
    for (const std::string& n : p.notes) out += fmt::format("note:        {}\n", n);
    return out;
}

} // namespace mmc::format
