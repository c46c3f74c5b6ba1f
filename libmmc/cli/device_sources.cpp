#include "cli/device_sources.h"

namespace mmc::cli {

namespace {

// The group's option names, once: the getopt table and a child's arguments.
constexpr const char* no_ioctl_name = "no-ioctl";
constexpr const char* sysfs_root_name = "sysfs-root";
constexpr const char* debugfs_root_name = "debugfs-root";

} // namespace

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
    if (which.no_ioctl) table.push_back({no_ioctl_name, no_argument, nullptr, opt_no_ioctl});
    if (which.sysfs_root) table.push_back({sysfs_root_name, required_argument, nullptr, opt_sysfs_root});
    if (which.debugfs_root) table.push_back({debugfs_root_name, required_argument, nullptr, opt_debugfs_root});
    table.push_back({nullptr, 0, nullptr, 0});
    return table;
}

std::vector<std::string> DeviceSources::arguments(DeviceSourceSet which) const
{
    std::vector<std::string> args;
    const auto flag = [](const char* name) { return std::string("--") + name; };
    if (which.no_ioctl && !use_ioctl) args.push_back(flag(no_ioctl_name));
    if (which.sysfs_root && sysfs_root) args.insert(args.end(), {flag(sysfs_root_name), sysfs_root->string()});
    if (which.debugfs_root && debugfs_root) args.insert(args.end(), {flag(debugfs_root_name), debugfs_root->string()});
    return args;
}

} // namespace mmc::cli
