// What the kernel knows about MMC hosts and cards, read from sysfs (and
// debugfs for the bus state): the identity every tool starts from.
#pragma once

#include "bus/ios.h"
#include "dev/sysfs.h"
#include "regs/register.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::dev {

// The kernel's card type (sysfs "type"); the text is the kernel's word.
enum class CardType { sd, mmc, sdio, sd_combo, unknown };
std::string_view to_string(CardType type);
// The one mapping from the kernel's card type to the register family every
// module uses: an SD combo card is SD; SDIO and unknown cards have none.
std::optional<regs::CardFamily> family_of(CardType type);

// The controller behind a host: a PCI function or a device-tree node.
struct Controller {
    std::string device;     // "0000:00:04.0", "fe340000.mmc"
    std::string driver;     // "sdhci-pci", "sdhci-iproc"
    std::string pci_id;     // "1b36:0007" for PCI controllers
    std::string compatible; // first device-tree compatible string
    fs::path syspath;

    std::string describe() const; // "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)"
};

struct Host {
    std::string name; // "mmc0"
    fs::path syspath; // resolved, under roots.sysfs
    Controller controller;
    std::optional<bus::Ios> ios; // from debugfs, when readable
};

struct Partition {
    std::string name; // "mmcblk0p1", "mmcblk0boot0"
    uint64_t start_sector = 0;
    uint64_t bytes = 0;
    bool boot_area = false; // eMMC boot0/boot1
    bool read_only = false;
};

struct Card {
    std::string name; // "mmc0:4567"
    Host host;
    uint16_t rca = 0; // from the card's name or sysfs "rca", never assumed
    CardType type = CardType::unknown;
    fs::path syspath;
    std::string product;       // sysfs "name"
    std::string block;         // "mmcblk0"; empty for SDIO
    uint64_t capacity_bytes = 0;
    // sysfs preferred_erase_size: the kernel's erase unit for discard (SD:
    // the AU; eMMC: the high-capacity erase group); 0 when it gives none.
    uint64_t preferred_erase_size = 0;
    std::vector<Partition> partitions;

    std::string device_path(const SysRoots& roots) const; // "/dev/mmcblk0"
    bool is_storage() const { return !block.empty(); }
};

// Card or host attributes by name ("cid", "csd", "scr", "ocr", "ssr", ...).
std::optional<std::string> card_attr(const Card& card, std::string_view name);

// Read a host and its cards from their sysfs directories.
Host read_host(const fs::path& host_dir, const SysRoots& roots);
Card read_card(const fs::path& card_dir, const SysRoots& roots);

// The debugfs directory of a host ("<debugfs>/mmc0") and of a card in it.
fs::path host_debugfs(const Host& host, const SysRoots& roots);
fs::path card_debugfs(const Card& card, const SysRoots& roots);

} // namespace mmc::dev
