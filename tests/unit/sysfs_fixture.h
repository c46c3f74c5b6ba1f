// The captured sysfs trees under tests/data/sysfs as SysRoots, with debugfs
// inside them, as the unit tests read them.
#pragma once

#include "dev/sysfs.h"

#include <string>

inline mmc::dev::SysRoots sysfs_fixture(const std::string& name)
{
    mmc::dev::SysRoots r;
    r.sysfs = "tests/data/sysfs/" + name + "/sys";
    r.debugfs = r.sysfs / "kernel" / "debug";
    return r;
}
