#include "dev/card.h"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>

namespace mmc::dev {

namespace {

uint64_t attr_number(const fs::path& path) { return read_number(path); }

// "0x1b36" -> "1b36"
std::string strip_0x(std::string s)
{
    if (s.rfind("0x", 0) == 0) s.erase(0, 2);
    return s;
}

Controller read_controller(const fs::path& host_dir)
{
    Controller c;
    // Hosts live at <controller>/mmc_host/mmcN.
    c.syspath = resolve_path(host_dir / "device");
    if (c.syspath == host_dir / "device") c.syspath = host_dir.parent_path().parent_path();
    c.device = c.syspath.filename().string();
    c.driver = link_name(c.syspath / "driver").value_or("");
    const auto vendor = read_attr(c.syspath / "vendor");
    const auto device = read_attr(c.syspath / "device");
    if (vendor && device) c.pci_id = strip_0x(*vendor) + ":" + strip_0x(*device);
    if (auto compat = read_attr(c.syspath / "of_node" / "compatible")) {
        // A NUL-separated list; the first entry is the most specific.
        c.compatible = compat->substr(0, compat->find('\0'));
    }
    return c;
}

Partition read_partition(const fs::path& dir, bool boot)
{
    Partition p;
    p.name = dir.filename().string();
    p.start_sector = attr_number(dir / "start");
    p.bytes = attr_number(dir / "size") * 512;
    p.boot_area = boot;
    p.read_only = attr_number(dir / "ro") != 0;
    return p;
}

} // namespace

std::string_view to_string(CardType type)
{
    switch (type) {
    case CardType::sd: return "SD";
    case CardType::mmc: return "MMC";
    case CardType::sdio: return "SDIO";
    case CardType::sd_combo: return "SDcombo";
    case CardType::unknown: break;
    }
    return "unknown";
}

std::optional<regs::CardFamily> family_of(CardType type)
{
    switch (type) {
    case CardType::sd:
    case CardType::sd_combo: return regs::CardFamily::sd;
    case CardType::mmc: return regs::CardFamily::mmc;
    case CardType::sdio:
    case CardType::unknown: break;
    }
    return std::nullopt;
}

std::string Controller::describe() const
{
    std::string where;
    if (!pci_id.empty())
        where = fmt::format("PCI {} at {}", pci_id, device);
    else if (!compatible.empty())
        where = fmt::format("{} at {}", compatible, device);
    else
        where = device;
    return driver.empty() ? where : fmt::format("{} ({})", driver, where);
}

std::string Card::device_path(const SysRoots& roots) const { return block.empty() ? "" : (roots.dev / block).string(); }

std::optional<std::string> card_attr(const Card& card, std::string_view name) { return read_attr(card.syspath / name); }

fs::path host_debugfs(const Host& host, const SysRoots& roots) { return roots.debugfs / host.name; }
fs::path card_debugfs(const Card& card, const SysRoots& roots) { return host_debugfs(card.host, roots) / card.name; }

Host read_host(const fs::path& host_dir, const SysRoots& roots)
{
    Host h;
    h.syspath = resolve_path(host_dir);
    h.name = h.syspath.filename().string();
    h.controller = read_controller(h.syspath);
    if (auto text = read_attr(roots.debugfs / h.name / "ios")) {
        auto parsed = bus::parse_ios(*text);
        if (!parsed.empty()) h.ios = parsed.front();
    }
    return h;
}

Card read_card(const fs::path& card_dir, const SysRoots& roots)
{
    Card c;
    c.syspath = resolve_path(card_dir);
    c.name = c.syspath.filename().string();
    c.host = read_host(c.syspath.parent_path(), roots);

    // The RCA is the hex after the colon in the card's name ("mmc0:4567");
    // sysfs "rca" (SD cards) confirms it.
    const auto colon = c.name.find(':');
    if (colon != std::string::npos) {
        unsigned v = 0;
        std::from_chars(c.name.data() + colon + 1, c.name.data() + c.name.size(), v, 16);
        c.rca = static_cast<uint16_t>(v);
    }
    if (auto rca = read_attr(c.syspath / "rca")) {
        unsigned v = 0;
        const std::string s = strip_0x(*rca);
        if (std::from_chars(s.data(), s.data() + s.size(), v, 16).ec == std::errc()) c.rca = static_cast<uint16_t>(v);
    }

    const std::string type = read_attr(c.syspath / "type").value_or("");
    c.type = type == "SD" ? CardType::sd : type == "MMC" ? CardType::mmc : type == "SDIO" ? CardType::sdio
           : type == "SDcombo" ? CardType::sd_combo : CardType::unknown;
    c.product = read_attr(c.syspath / "name").value_or("");
    c.preferred_erase_size = read_number(c.syspath / "preferred_erase_size");

    // Block devices: the main disk (mmcblkN) sits under <card>/block; its
    // partitions (mmcblkNpM) and the eMMC boot areas (mmcblkNbootM, separate
    // disks whose parent is the main disk) sit under the main disk. Older
    // layouts put the boot areas beside it, so both places are looked at.
    std::error_code ec;
    std::vector<fs::path> blocks;
    for (const auto& e : fs::directory_iterator(c.syspath / "block", ec)) blocks.push_back(e.path());
    std::sort(blocks.begin(), blocks.end());
    const auto by_number = [](const fs::path& a, const fs::path& b) {
        return a.string().size() != b.string().size() ? a.string().size() < b.string().size() : a < b;
    };
    std::vector<fs::path> boot_areas;
    for (const auto& b : blocks) {
        const std::string name = b.filename().string();
        if (name.find("boot") != std::string::npos) {
            boot_areas.push_back(b);
            continue;
        }
        c.block = name;
        c.capacity_bytes = attr_number(b / "size") * 512;
        std::vector<fs::path> parts;
        for (const auto& p : fs::directory_iterator(b, ec)) {
            const std::string child = p.path().filename().string();
            if (child.rfind(name + "p", 0) == 0) parts.push_back(p.path());
            if (child.rfind(name + "boot", 0) == 0) boot_areas.push_back(p.path());
        }
        std::sort(parts.begin(), parts.end(), by_number);
        for (const auto& p : parts) c.partitions.push_back(read_partition(p, false));
    }
    std::sort(boot_areas.begin(), boot_areas.end(), by_number);
    for (const auto& b : boot_areas) c.partitions.push_back(read_partition(b, true));
    return c;
}

} // namespace mmc::dev
