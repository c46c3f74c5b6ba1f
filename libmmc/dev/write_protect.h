// What the host and the kernel say about writing to a card: sysfs ro and
// force_ro of its block device, and its controller's device-tree wp-gpios and
// disable-wp. Read here; health/writability judges them.
#pragma once

#include "dev/card.h"
#include "dev/mmc_ioctl.h"
#include "regs/write_protect_groups.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::dev {

// A run of the user area's write-protected groups, as the card answers
// CMD31/CMD30 (mmc-tune's listing reads it).
struct ProtectedGroupRun {
    uint64_t offset = 0;
    uint64_t bytes = 0;
    std::optional<regs::WpType> type; // nullopt when the card does not tell
};

struct HostWriteFacts {
    std::optional<bool> ro;         // /sys/block/mmcblkN/ro
    std::optional<bool> force_ro;   // /sys/block/mmcblkN/force_ro
    std::optional<bool> wp_gpios;   // the controller's device-tree node has wp-gpios
    std::optional<bool> disable_wp; // ... has disable-wp (the switch is ignored)
    std::optional<std::vector<ProtectedGroupRun>> user_wp_groups; // eMMC; nullopt: not read
};

HostWriteFacts read_host_write_facts(const Card& card, const SysRoots& roots);

// An eMMC boot partition (area 1 or 2) as the kernel shows it: its node
// (the disk's node with "boot0" or "boot1"), its size, and the sysfs
// force_ro that keeps the kernel from writing it.
struct BootAreaNode {
    std::string node;          // "/dev/mmcblk0boot0"
    fs::path force_ro;         // /sys/block/mmcblk0boot0/force_ro
    uint64_t bytes = 0;
};
// nullopt when the card has no such boot partition.
std::optional<BootAreaNode> boot_area_node(const Card& card, const std::string& disk_node, int area, const SysRoots& roots);
// force_ro's value; throws std::system_error when it cannot be read or written.
bool read_force_ro(const fs::path& path);
void write_force_ro(const fs::path& path, bool on);

// The user-area write protect commands through the MMC ioctl, each with its
// data address (a byte address on a byte-addressed device, a sector on a
// sector-addressed one). Several go in one MMC_IOC_MULTI_CMD transaction.
// CMD31 SEND_WRITE_PROT_TYPE: 8 bytes per address.
std::vector<std::array<uint8_t, 8>> send_write_prot_type(MmcChannel& channel, const std::vector<uint32_t>& addresses);
// CMD30 SEND_WRITE_PROT: 4 bytes per address.
std::vector<std::array<uint8_t, 4>> send_write_prot(MmcChannel& channel, const std::vector<uint32_t>& addresses);
// CMD28 SET_WRITE_PROT (set) or CMD29 CLR_WRITE_PROT, each followed by CMD13
// so an error is caught at the group that caused it; throws
// std::runtime_error naming the address and the card status bits.
void set_write_prot(MmcChannel& channel, uint16_t rca, const std::vector<uint32_t>& addresses, bool set);

} // namespace mmc::dev
