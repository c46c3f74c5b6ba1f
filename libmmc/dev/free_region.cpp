#include "dev/free_region.h"

#include "dev/block_safety.h"
#include "dev/sysfs.h"

#include <fmt/format.h>
#include <set>
#include <sys/statvfs.h>

namespace mmc::dev {

namespace fs = std::filesystem;

namespace {

// The disk's and its partitions' sysfs directories.
std::vector<fs::path> block_dirs(const Device& d)
{
    std::vector<fs::path> dirs{d.disk_syspath};
    for (const auto& s : d.siblings)
        if (s != d.disk) dirs.push_back(d.disk_syspath / s);
    if (d.is_partition) dirs.push_back(d.syspath);
    return dirs;
}

} // namespace

MountedDirectory writable_mount(const Device& d, const SafetyRoots& roots)
{
    std::set<std::string> devnos, names;
    for (const auto& dir : block_dirs(d)) {
        names.insert(dir.filename().string());
        if (auto n = read_attr(dir / "dev")) devnos.insert(*n);
    }
    MountedDirectory found;
    for (const auto& m : read_mounts(roots)) {
        const bool ours = m.devno.empty() ? names.count(fs::path(m.source).filename().string()) > 0 : devnos.count(m.devno) > 0;
        if (!ours) continue;
        struct statvfs sv {};
        if (::statvfs(m.mountpoint.c_str(), &sv) != 0) continue;
        if (sv.f_flag & ST_RDONLY) {
            if (found.read_only_mount.empty()) found.read_only_mount = m.mountpoint;
            continue;
        }
        found.dir = m.mountpoint;
        return found;
    }
    return found;
}

std::string free_region_problem(const Device& d, uint64_t offset, uint64_t size, uint32_t logical_block,
                                const SafetyRoots& roots)
{
    if (d.is_partition) return fmt::format("{} is a partition: name the disk ({}) and a region outside its partitions", d.name, d.disk_path);
    if (size == 0) return "the region is empty";
    if (offset % logical_block || size % logical_block)
        return fmt::format("the region is not whole logical blocks of {} bytes", logical_block);
    if (offset >= d.disk_size || size > d.disk_size - offset)
        return fmt::format("the region ends past the disk's end ({} bytes)", d.disk_size);
    for (const auto& p : check_safety(d.name, roots))
        if (p.device == d.name) return p.what; // the whole disk is a file system, swap or held
    for (const auto& s : d.siblings) {
        const fs::path dir = d.disk_syspath / s;
        const uint64_t start = read_number(dir / "start") * 512, bytes = read_number(dir / "size") * 512;
        if (offset < start + bytes && start < offset + size)
            return fmt::format("overlaps {} (bytes {} to {})", s, start, start + bytes);
    }
    return {};
}

} // namespace mmc::dev
