#include "dev/contents.h"

#include <blkid/blkid.h>
#include <fmt/format.h>

#include <algorithm>

namespace mmc::dev {

namespace {

struct Probe {
    blkid_probe pr = nullptr;
    explicit Probe(const std::string& path) : pr(blkid_new_probe_from_filename(path.c_str())) {}
    ~Probe()
    {
        if (pr) blkid_free_probe(pr);
    }
    Probe(const Probe&) = delete;
    Probe& operator=(const Probe&) = delete;

    std::string value(const char* name) const
    {
        const char* v = nullptr;
        std::size_t len = 0;
        if (blkid_probe_lookup_value(pr, name, &v, &len) != 0 || !v) return {};
        return std::string(v, len && v[len - 1] == '\0' ? len - 1 : len);
    }
};

// The superblock (filesystem, swap, RAID, LUKS) at the start of `path`; and,
// with `table`, the partition table type.
void probe(const std::string& path, bool table, Volume volume, std::vector<Volume>& out)
{
    Probe p(path);
    if (!p.pr) return;
    blkid_probe_enable_superblocks(p.pr, 1);
    blkid_probe_set_superblocks_flags(p.pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_LABEL | BLKID_SUBLKS_USAGE);
    blkid_probe_enable_partitions(p.pr, table ? 1 : 0);
    if (table) blkid_probe_set_partitions_flags(p.pr, BLKID_PARTS_ENTRY_DETAILS);
    const int rc = blkid_do_safeprobe(p.pr);
    if (rc < 0) return; // unreadable, or ambivalent signatures: say nothing rather than guess
    if (table) {
        if (std::string pt = p.value("PTTYPE"); !pt.empty()) {
            Volume t = volume;
            t.usage = "partition table";
            t.type = pt;
            out.push_back(t);
        }
    }
    volume.type = p.value("TYPE");
    volume.label = p.value("LABEL");
    volume.usage = volume.type.empty() ? "" : p.value("USAGE");
    if (!volume.type.empty() || !table) out.push_back(volume);
}

// A sysfs count of 512-byte sectors, in bytes; 0 when unreadable.
uint64_t sectors_attr(const fs::path& path)
{
    const auto text = read_attr(path);
    if (!text) return 0;
    try {
        return std::stoull(*text) * 512;
    } catch (const std::exception&) {
        return 0;
    }
}

bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) { return a < b + blen && b < a + alen; }

} // namespace

std::vector<Volume> volumes_in_range(const std::string& disk, uint64_t offset, uint64_t length, const SysRoots& roots)
{
    std::vector<Volume> found;
    const fs::path disk_dir = roots.sysfs / "class" / "block" / disk;
    const uint64_t disk_size = sectors_attr(disk_dir / "size");

    std::vector<Volume> partitions;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(disk_dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(disk, 0) != 0 || !fs::exists(entry.path() / "partition", ec)) continue;
        Volume v;
        v.device = name;
        v.start = sectors_attr(entry.path() / "start");
        v.size = sectors_attr(entry.path() / "size");
        partitions.push_back(v);
    }
    std::sort(partitions.begin(), partitions.end(), [](const Volume& a, const Volume& b) { return a.start < b.start; });

    // The disk itself: its partition table (when the range covers its first
    // sectors) and a filesystem made on the whole disk.
    Volume whole{disk, 0, disk_size, "", "", ""};
    if (overlaps(0, 64 * 1024, offset, length) || partitions.empty())
        probe((roots.dev / disk).string(), true, whole, found);
    for (const auto& part : partitions)
        if (overlaps(part.start, part.size, offset, length)) probe((roots.dev / part.device).string(), false, part, found);
    return found;
}

std::string partition_table_id(const std::string& path)
{
    Probe p(path);
    if (!p.pr) return {};
    blkid_probe_enable_superblocks(p.pr, 0);
    blkid_probe_enable_partitions(p.pr, 1);
    if (blkid_do_safeprobe(p.pr) != 0) return {}; // nothing found, unreadable, or ambivalent
    return p.value("PTUUID");
}

std::string volumes_text(const std::vector<Volume>& volumes)
{
    std::string out;
    for (const auto& v : volumes) {
        if (!out.empty()) out += "; ";
        if (v.usage == "partition table") {
            out += fmt::format("{} partition table", v.type);
            continue;
        }
        out += v.device + ": ";
        if (v.type.empty()) {
            out += "no filesystem signature";
            continue;
        }
        out += v.type;
        if (!v.label.empty()) out += fmt::format(" \"{}\"", v.label);
    }
    return out.empty() ? "no partition table or filesystem signature found" : out;
}

} // namespace mmc::dev
