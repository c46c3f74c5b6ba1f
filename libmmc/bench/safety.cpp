#include "bench/safety.h"

#include "dev/block_safety.h"
#include "dev/discovery.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace mmc::bench {

namespace fs = std::filesystem;

void check_destructive(const std::string& device_path, const dev::SysRoots& roots, bool any_device)
{
    struct stat st{};
    if (::stat(device_path.c_str(), &st) != 0 || !S_ISBLK(st.st_mode))
        throw WriteRefused(fmt::format("{}: not a block device", device_path));
    // The block device's own name, from its device number: what sysfs and the
    // safety checks know it by ("mmcblk0p1", "loop0").
    std::error_code ec;
    const fs::path sys = fs::canonical(
        roots.sysfs / "dev" / "block" / fmt::format("{}:{}", major(st.st_rdev), minor(st.st_rdev)), ec);
    if (ec) throw WriteRefused(fmt::format("{}: not in sysfs ({})", device_path, ec.message()));
    const std::string name = sys.filename().string();
    try {
        dev::resolve(name, roots);
    } catch (const dev::ResolveError& e) {
        if (e.why != dev::ResolveError::Why::not_mmc) throw WriteRefused(e.what());
        if (!any_device)
            throw WriteRefused(fmt::format("{}: not an MMC/SD device ({})", device_path, dev::explain_non_mmc(sys)),
                               cli::Remedy::any_device_write);
    }
    dev::SafetyRoots sr;
    sr.sysfs = roots.sysfs;
    const auto problems = dev::check_safety(name, sr);
    if (!problems.empty()) {
        std::string list;
        for (const auto& p : problems) list += (list.empty() ? "" : "; ") + p.what;
        throw WriteRefused(fmt::format("{}: in use: {}", device_path, list), cli::Remedy::release_device);
    }
}

} // namespace mmc::bench
