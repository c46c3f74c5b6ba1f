#include "cli/device_sources.h"

namespace mmc::cli {

bool DeviceSources::take(int c, const char* arg)
{
    switch (c) {
    case opt_no_ioctl: use_ioctl = false; return true;
    case opt_sysfs_root: sysfs_root = arg; return true;
    case opt_debugfs_root: debugfs_root = arg; return true;
    default: return false;
    }
}

std::vector<option> with_device_sources(std::initializer_list<option> own, DeviceSourceSet which)
{
    std::vector<option> table(own);
    if (which.no_ioctl) table.push_back({"no-ioctl", no_argument, nullptr, opt_no_ioctl});
    if (which.sysfs_root) table.push_back({"sysfs-root", required_argument, nullptr, opt_sysfs_root});
    if (which.debugfs_root) table.push_back({"debugfs-root", required_argument, nullptr, opt_debugfs_root});
    table.push_back({nullptr, 0, nullptr, 0});
    return table;
}

} // namespace mmc::cli
