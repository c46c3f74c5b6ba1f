// Views of the layout check (check_view.h).
#include "format/check_view.h"

#include "cli/size.h"

#include <fmt/format.h>

namespace mmc::format {

namespace {

std::string layout_line(const SdLayout& l)
{
    return fmt::format("{}, {} clusters, boundary unit {}; partition at sector {}, {} reserved sectors, {} FAT{} of {} "
                       "sectors, data at sector {} of the partition",
                       to_string(l.fs), cli::format_bytes(uint64_t{l.sectors_per_cluster} * sector_bytes),
                       cli::format_bytes(uint64_t{l.boundary_unit} * sector_bytes), l.partition_start,
                       l.reserved_sectors, l.fat_count, l.fat_count == 1 ? "" : "s", l.fat_sectors, l.data_start);
}

nlohmann::ordered_json volume_json(const Volume& v)
{
    nlohmann::ordered_json j;
    j["file_system"] = std::string(to_string(v.fs));
    j["bytes_per_sector"] = v.bytes_per_sector;
    j["cluster_bytes"] = v.cluster_bytes();
    j["reserved_sectors"] = v.reserved_sectors;
    j["fat_count"] = v.fat_count;
    j["fat_sectors"] = v.fat_sectors;
    j["root_dir_sectors"] = v.root_dir_sectors;
    j["data_start_sector"] = v.data_start;
    j["cluster_count"] = v.cluster_count;
    j["total_sectors"] = v.total_sectors;
    j["hidden_sectors"] = v.hidden_sectors;
    j["label"] = v.label;
    return j;
}

nlohmann::ordered_json f2fs_json(const F2fsVolume& v)
{
    nlohmann::ordered_json j;
    j["file_system"] = "f2fs";
    j["block_bytes"] = v.block_bytes;
    j["segment_bytes"] = v.segment_bytes;
    j["segments_per_section"] = v.segments_per_section;
    j["sections_per_zone"] = v.sections_per_zone;
    j["section_bytes"] = v.section_bytes();
    j["block_count"] = v.block_count;
    j["main_start_bytes"] = v.main_start_bytes();
    return j;
}

} // namespace

nlohmann::ordered_json layout_json(const SdLayout& l)
{
    nlohmann::ordered_json j;
    j["file_system"] = std::string(to_string(l.fs));
    j["boundary_unit_bytes"] = uint64_t{l.boundary_unit} * sector_bytes;
    j["cluster_bytes"] = uint64_t{l.sectors_per_cluster} * sector_bytes;
    j["partition_start_sector"] = l.partition_start;
    j["partition_sectors"] = l.partition_sectors;
    j["partition_type"] = l.partition_type;
    j["reserved_sectors"] = l.reserved_sectors;
    j["fat_count"] = l.fat_count;
    j["fat_sectors"] = l.fat_sectors;
    j["root_dir_sectors"] = l.root_dir_sectors;
    j["data_start_sector"] = l.data_start;
    j["cluster_count"] = l.cluster_count;
    j["volume_sectors"] = l.volume_sectors;
    return j;
}

nlohmann::ordered_json plan_json(const MakePlan& p)
{
    if (!is_linux_layout(p.kind)) return layout_json(p.layout);
    nlohmann::ordered_json j;
    j["file_system"] = std::string(layout_name(p.kind));
    j["unit_bytes"] = p.unit_bytes;
    j["partition_start_sector"] = p.layout.partition_start;
    j["partition_sectors"] = p.layout.partition_sectors;
    j["partition_type"] = p.layout.partition_type;
    if (p.kind == LayoutKind::linux_ext4) {
        j["block_bytes"] = 4096;
        j["stride_blocks"] = ext4_stride_blocks(p.unit_bytes);
    } else {
        const uint64_t segments = f2fs_segments_per_section(p.unit_bytes);
        j["segments_per_section"] = segments;
        j["section_bytes"] = segments * f2fs_segment_bytes;
    }
    return j;
}

std::string check_text(const std::string& device, const CheckResult& r)
{
    std::string out = fmt::format("{}: {} sectors ({})\n", device, r.disk_sectors,
                                  cli::format_bytes_exact(r.disk_sectors * sector_bytes));
    if (r.unit_bytes)
        out += fmt::format("unit:      {} ({})\n", cli::format_bytes(r.unit_bytes), r.unit_source);
    else
        out += "unit:      unknown (give the card's AU with --au SIZE)\n";
    out += r.sd ? fmt::format("SD layout: {}\n", layout_line(*r.sd)) : "SD layout: none for this capacity\n";
    if (r.table.kind == PartitionTable::Kind::none) out += "table:     none (a file system from sector 0)\n";
    for (const CheckedVolume& cv : r.volumes) {
        const Partition& p = cv.partition;
        out += fmt::format("partition {}: {}, sectors {}-{} ({})", p.number, partition_type_name(p.type), p.start,
                           p.start + p.sectors - 1, cli::format_bytes(p.sectors * sector_bytes));
        if (cv.volume) {
            const Volume& v = *cv.volume;
            out += fmt::format(": {}, {} clusters, {} reserved, {} x {} FAT sectors, data at +{}", to_string(v.fs),
                               cli::format_bytes(v.cluster_bytes()), v.reserved_sectors, v.fat_count, v.fat_sectors,
                               v.data_start);
        }
        if (cv.f2fs)
            out += fmt::format(": f2fs, sections of {} ({} segments), main area at +{}",
                               cli::format_bytes(cv.f2fs->section_bytes()), cv.f2fs->segments_per_section,
                               cli::format_bytes(cv.f2fs->main_start_bytes()));
        out += "\n";
    }
    for (const Finding& f : r.findings)
        if (f.severity != Severity::ok) out += fmt::format("  {:<10}  {}\n", to_string(f.severity), f.message);
    out += fmt::format("verdict:   {}\n", to_string(r.verdict));
    return out;
}

nlohmann::ordered_json check_json(const std::string& device, const CheckResult& r)
{
    nlohmann::ordered_json j;
    j["device"] = device;
    j["disk_sectors"] = r.disk_sectors;
    j["disk_bytes"] = r.disk_sectors * sector_bytes;
    j["unit_bytes"] = r.unit_bytes ? nlohmann::ordered_json(r.unit_bytes) : nlohmann::ordered_json(nullptr);
    j["unit_source"] = r.unit_source;
    j["sd_layout"] = r.sd ? layout_json(*r.sd) : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json table;
    table["kind"] = r.table.kind == PartitionTable::Kind::mbr ? "mbr" : "none";
    table["disk_signature"] = r.table.disk_signature;
    table["partitions"] = nlohmann::ordered_json::array();
    for (const CheckedVolume& cv : r.volumes) {
        nlohmann::ordered_json p;
        p["number"] = cv.partition.number;
        p["type"] = cv.partition.type;
        p["type_name"] = partition_type_name(cv.partition.type);
        p["start_sector"] = cv.partition.start;
        p["sectors"] = cv.partition.sectors;
        p["volume"] = cv.volume ? volume_json(*cv.volume) : cv.f2fs ? f2fs_json(*cv.f2fs) : nlohmann::ordered_json(nullptr);
        if (!cv.error.empty()) p["volume_error"] = cv.error;
        if (cv.fsinfo) {
            p["fsinfo"] = {{"signatures_ok", cv.fsinfo->signatures_ok},
                           {"free_count", cv.fsinfo->free_count},
                           {"next_free", cv.fsinfo->next_free}};
        }
        table["partitions"].push_back(p);
    }
    j["partition_table"] = table;
    j["findings"] = nlohmann::ordered_json::array();
    for (const Finding& f : r.findings) {
        nlohmann::ordered_json fj;
        fj["severity"] = std::string(to_string(f.severity));
        fj["what"] = to_string(f.what);
        fj["partition"] = f.partition ? nlohmann::ordered_json(*f.partition) : nlohmann::ordered_json(nullptr);
        fj["message"] = f.message;
        j["findings"].push_back(fj);
    }
    j["verdict"] = std::string(to_string(r.verdict));
    return j;
}

} // namespace mmc::format
