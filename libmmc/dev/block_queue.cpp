#include "dev/block_queue.h"

#include <fmt/format.h>

namespace mmc::dev {

BlockQueue read_block_queue(std::string_view disk, const SysRoots& roots)
{
    return read_block_queue(roots.sysfs / "block" / disk);
}

BlockQueue read_block_queue(const fs::path& disk_dir)
{
    const fs::path q = disk_dir / "queue";
    BlockQueue b;
    b.logical_block_size = read_number(q / "logical_block_size");
    b.discard_granularity = read_number(q / "discard_granularity");
    b.discard_max_bytes = read_number(q / "discard_max_bytes");
    b.discard_max_hw_bytes = read_number(q / "discard_max_hw_bytes");
    b.write_zeroes_max_bytes = read_number(q / "write_zeroes_max_bytes");
    b.write_cache_attr = q / "write_cache";
    b.write_cache = read_attr(b.write_cache_attr);
    return b;
}

std::string scsi_provisioning_mode(const fs::path& disk_syspath)
{
    const fs::path scsi = disk_syspath.parent_path().parent_path();
    return read_attr(scsi / "scsi_disk" / scsi.filename() / "provisioning_mode").value_or("");
}

AttrReading loop_direct_io(std::string_view loop, const SysRoots& roots)
{
    AttrReading r{roots.sysfs / "block" / loop / "loop" / "dio", std::nullopt};
    r.value = read_attr(r.path);
    return r;
}

std::optional<std::string> cpu_governor(int cpu, const SysRoots& roots)
{
    auto g = read_attr(roots.sysfs / "devices" / "system" / "cpu" / fmt::format("cpu{}", cpu) / "cpufreq" /
                       "scaling_governor");
    if (!g || g->empty()) return std::nullopt;
    return g;
}

} // namespace mmc::dev
