// Where a tool reads a card's facts from: the option group every tool that
// reads a card shares (--no-ioctl, --sysfs-root, --debugfs-root) and the one
// rule for debugfs. Tools take the options a run needs
// (mmc-tune reads sysfs only; three tools take --debugfs-root), never declare
// them themselves.
#pragma once

#include <getopt.h>

#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace mmc::cli {

// getopt_long's values for the group: far above the tools' own (from 256).
enum DeviceSourceOption : int { opt_no_ioctl = 0x2000, opt_sysfs_root, opt_debugfs_root };

// Which of the group a tool takes.
struct DeviceSourceSet {
    bool no_ioctl = true;
    bool sysfs_root = true;
    bool debugfs_root = false;
};

struct DeviceSources {
    bool use_ioctl = true;                             // false with --no-ioctl
    std::optional<std::filesystem::path> sysfs_root;   // --sysfs-root DIR
    std::optional<std::filesystem::path> debugfs_root; // --debugfs-root DIR

    // Takes one of the group's options (getopt_long's c and optarg); false
    // when c is not one of them, for the tool's own error.
    bool take(int c, const char* arg);

    // The roots to read from, the one rule: an explicit --debugfs-root wins;
    // otherwise a fixture tree (--sysfs-root other than the live /sys) keeps
    // its debugfs inside, at ROOT/kernel/debug; otherwise the live defaults.
    // Roots is dev::SysRoots (sysfs, debugfs, is_live()): a template so that
    // cli/ stays below dev/ (cli/ includes only cli/).
    template <class Roots> Roots roots(Roots r = {}) const
    {
        if (sysfs_root) r.sysfs = *sysfs_root;
        if (debugfs_root)
            r.debugfs = *debugfs_root;
        else if (!r.is_live())
            r.debugfs = r.sysfs / "kernel" / "debug";
        return r;
    }

    // The sources given back as a child tool's arguments (mmc-qualify runs
    // mmc-health, mmc-tune): --no-ioctl, --sysfs-root DIR, --debugfs-root
    // DIR, each when set and the child takes it (`which`).
    std::vector<std::string> arguments(DeviceSourceSet which = {}) const;

    // What was given, read back from the roots a run reads (the inverse of
    // roots()): --sysfs-root when not the live sysfs, --debugfs-root when
    // the one rule would not place debugfs there by itself.
    template <class Roots> static DeviceSources of(bool use_ioctl, const Roots& r)
    {
        DeviceSources s;
        s.use_ioctl = use_ioctl;
        if (r.sysfs != Roots{}.sysfs) s.sysfs_root = r.sysfs;
        if (s.roots<Roots>().debugfs != r.debugfs) s.debugfs_root = r.debugfs;
        return s;
    }
};

// getopt_long's table: the tool's own options, the group's it takes, then
// the terminating zero entry.
std::vector<option> with_device_sources(std::initializer_list<option> own, DeviceSourceSet which = {});

} // namespace mmc::cli
