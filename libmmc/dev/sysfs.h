// Where the kernel's views live, and reading them. Every root is a path so
// tests can point the whole library at a fixture tree (tests/data/sysfs/...).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace mmc::dev {

namespace fs = std::filesystem;

struct SysRoots {
    fs::path sysfs = "/sys";
    fs::path debugfs = "/sys/kernel/debug";
    fs::path dev = "/dev";
    // udev's database (E:KEY=VALUE files named b MAJ:MIN). Empty: /run/udev/data
    // on the live system, and <sysfs>/../run/udev/data in a fixture tree.
    fs::path udev_data;

    bool is_live() const { return sysfs == "/sys"; }
    fs::path udev_data_dir() const
    {
        if (!udev_data.empty()) return udev_data;
        return is_live() ? fs::path("/run/udev/data") : sysfs / ".." / "run" / "udev" / "data";
    }
    // The whole running device tree (/proc/device-tree is a link to it);
    // absent on PCI and ACPI machines.
    fs::path device_tree_dir() const { return sysfs / "firmware" / "devicetree" / "base"; }
};

// An attribute's contents without the trailing newline; nullopt when it is
// missing or unreadable (sysfs and debugfs attributes often are).
std::optional<std::string> read_attr(const fs::path& path);

// An attribute's decimal number: its leading digits; 0 when it is missing,
// unreadable or does not start with a digit. The one parse of a sysfs number
// (sizes, queue limits, preferred_erase_size).
uint64_t read_number(const fs::path& path);

// Where a symlink leads, as a name: "sdhci-pci" for .../drivers/sdhci-pci.
std::optional<std::string> link_name(const fs::path& path);

// A sysfs path with every symlink resolved, relative paths made absolute.
fs::path resolve_path(const fs::path& path);

} // namespace mmc::dev
