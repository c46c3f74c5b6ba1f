#include "dev/discovery.h"

#include <algorithm>
#include <fmt/format.h>
#include <libudev.h>
#include <memory>
#include <regex>
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

// The card directory a sysfs path lies in: the component named mmcN:RRRR.
std::optional<fs::path> card_ancestor(const fs::path& p)
{
    static const std::regex card_re(R"(mmc\d+:[0-9a-fA-F]{4})");
    fs::path acc;
    std::optional<fs::path> found;
    for (const auto& part : p) {
        acc /= part;
        if (std::regex_match(part.string(), card_re)) found = acc;
    }
    return found;
}

std::optional<fs::path> host_ancestor(const fs::path& p)
{
    static const std::regex host_re(R"(mmc\d+)");
    fs::path acc, prev;
    std::optional<fs::path> found;
    for (const auto& part : p) {
        acc /= part;
        if (std::regex_match(part.string(), host_re) && prev.filename() == "mmc_host") found = acc;
        prev = acc;
    }
    return found;
}

Target target_for_card(const fs::path& card_dir, const SysRoots& roots, std::string partition = {})
{
    Card c = read_card(card_dir, roots);
    Host h = c.host;
    return {std::move(c), std::move(h), std::move(partition)};
}

Target target_for_host(const fs::path& host_dir, const SysRoots& roots)
{
    Host h = read_host(host_dir, roots);
    for (const auto& card : list_dir(h.syspath)) {
        if (card_ancestor(card) && card.parent_path() == h.syspath) return target_for_card(card, roots);
    }
    throw ResolveError(ResolveError::Why::no_card, fmt::format("{}: host has no card (empty slot?)", h.name));
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

Target resolve(std::string_view name_in, const SysRoots& roots)
{
    std::string name(name_in);
    if (name.empty()) throw ResolveError(ResolveError::Why::not_found, "empty device name");

    // A sysfs path: find the card or host it lies in.
    const bool sysfs_path = name.rfind(roots.sysfs.string() + "/", 0) == 0 || name.rfind("/sys/", 0) == 0;
    if (sysfs_path) {
        std::error_code ec;
        if (!fs::exists(name, ec)) throw ResolveError(ResolveError::Why::not_found, fmt::format("{}: no such sysfs path", name));
        const fs::path real = resolve_path(name);
        if (auto card = card_ancestor(real)) return target_for_card(*card, roots);
        if (auto host = host_ancestor(real)) return target_for_host(*host, roots);
        throw ResolveError(ResolveError::Why::not_mmc, fmt::format("{}: not an MMC host or card", name));
    }

    // /dev/NAME -> NAME
    const std::string dev_prefix = roots.dev.string() + "/";
    if (name.rfind(dev_prefix, 0) == 0) name = name.substr(dev_prefix.size());
    else if (name.rfind("/dev/", 0) == 0) name = name.substr(5);

    static const std::regex host_re(R"(mmc\d+)");
    static const std::regex card_re(R"(mmc\d+:[0-9a-fA-F]{4})");
    if (std::regex_match(name, card_re)) {
        const fs::path dir = roots.sysfs / "bus" / "mmc" / "devices" / name;
        std::error_code ec;
        if (!fs::exists(dir, ec)) throw ResolveError(ResolveError::Why::not_found, fmt::format("{}: no such card", name));
        return target_for_card(dir, roots);
    }
    if (std::regex_match(name, host_re)) {
        const fs::path dir = roots.sysfs / "class" / "mmc_host" / name;
        std::error_code ec;
        if (!fs::exists(dir, ec)) throw ResolveError(ResolveError::Why::not_found, fmt::format("{}: no such MMC host", name));
        return target_for_host(dir, roots);
    }

    // A block device or partition.
    const fs::path block = roots.sysfs / "class" / "block" / name;
    std::error_code ec;
    if (!fs::exists(block, ec)) {
        const bool in_dev = fs::exists(roots.dev / name, ec);
        throw ResolveError(ResolveError::Why::not_found,
                           in_dev ? fmt::format("{}: not a block device", name) : fmt::format("{}: no such device", name));
    }
    const fs::path real = resolve_path(block);
    if (auto card = card_ancestor(real)) {
        // A partition's directory sits inside its disk's: mmcblk0/mmcblk0p1.
        const bool is_partition = fs::exists(real / "partition", ec);
        return target_for_card(*card, roots, is_partition ? name : std::string());
    }
    throw ResolveError(ResolveError::Why::not_mmc, fmt::format("{}: not an MMC/SD device: {}", name, explain_non_mmc(real)));
}

} // namespace mmc::dev
