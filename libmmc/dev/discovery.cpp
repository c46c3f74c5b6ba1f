#include "dev/discovery.h"

#include <algorithm>
#include <fmt/format.h>
#include <libudev.h>
#include <memory>
#include <stdexcept>

namespace mmc::dev {

namespace {

std::vector<fs::path> list_dir(const fs::path& dir)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) out.push_back(resolve_path(e.path()));
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<fs::path> udev_list(udev* u, const char* subsystem)
{
    std::vector<fs::path> out;
    std::unique_ptr<udev_enumerate, decltype(&udev_enumerate_unref)> en(udev_enumerate_new(u), udev_enumerate_unref);
    if (!en) return out;
    udev_enumerate_add_match_subsystem(en.get(), subsystem);
    udev_enumerate_scan_devices(en.get());
    for (auto* e = udev_enumerate_get_list_entry(en.get()); e; e = udev_list_entry_get_next(e))
        out.emplace_back(udev_list_entry_get_name(e));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

Inventory enumerate(const SysRoots& roots)
{
    Inventory inv;
    if (roots.is_live()) {
        std::unique_ptr<udev, decltype(&udev_unref)> u(udev_new(), udev_unref);
        if (u) {
            inv.hosts = udev_list(u.get(), "mmc_host");
            inv.cards = udev_list(u.get(), "mmc");
            return inv;
        }
    }
    // A root that is not there is a mistake in the path, not a machine without
    // cards: say so instead of "no cards".
    std::error_code ec;
    if (!fs::is_directory(roots.sysfs, ec))
        throw std::runtime_error(fmt::format("{}: {}", roots.sysfs.string(),
                                             fs::exists(roots.sysfs, ec) ? "not a directory (a sysfs tree is)"
                                                                         : "no such directory (a sysfs tree is expected there)"));
    inv.hosts = list_dir(roots.sysfs / "class" / "mmc_host");
    inv.cards = list_dir(roots.sysfs / "bus" / "mmc" / "devices");
    return inv;
}

std::vector<Host> list_hosts(const SysRoots& roots)
{
    std::vector<Host> out;
    for (const auto& h : enumerate(roots).hosts) out.push_back(read_host(h, roots));
    return out;
}

std::vector<Card> list_cards(const SysRoots& roots)
{
    std::vector<Card> out;
    for (const auto& c : enumerate(roots).cards) out.push_back(read_card(c, roots));
    return out;
}

std::string explain_non_mmc(const fs::path& block_syspath)
{
    const std::string p = block_syspath.string();
    const std::string name = block_syspath.filename().string();
    if (p.find("/usb") != std::string::npos)
        return fmt::format("{} is on USB (a card reader? USB mass storage cannot reach the card's registers)", name);
    if (p.find("/nvme") != std::string::npos) return fmt::format("{} is an NVMe drive", name);
    if (p.find("/virtual/block/loop") != std::string::npos) return fmt::format("{} is a loop device", name);
    if (p.find("/virtual/block/nullb") != std::string::npos) return fmt::format("{} is a null_blk test device", name);
    if (p.find("/virtual/") != std::string::npos) return fmt::format("{} is a virtual block device", name);
    if (p.find("/virtio") != std::string::npos) return fmt::format("{} is a virtio disk", name);
    if (p.find("/ata") != std::string::npos) return fmt::format("{} is a SATA/ATA disk", name);
    if (p.find("/host") != std::string::npos) return fmt::format("{} is a SCSI disk", name);
    return fmt::format("{} is not on an MMC host", name);
}

} // namespace mmc::dev
