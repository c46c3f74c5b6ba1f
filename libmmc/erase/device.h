// The device an erase is aimed at: the named block device (a disk or a
// partition, resolved to its disk and bounds by dev/resolver), the MMC/SD
// card behind it with the registers erase decisions need (as dev::identify
// gave them: erase reads no register itself), and the block queue's limits.
#pragma once

#include "cli/errors.h"
#include "dev/identify.h"
#include "dev/resolver.h"
#include "dev/sysfs.h"
#include "erase/methods.h"
#include "regs/card_registers.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmc::erase {

struct Target {
    std::string path;       // the device as opened: "/dev/mmcblk0p1"
    std::string name;       // "mmcblk0p1"
    std::string disk;       // "mmcblk0"
    std::string disk_path;  // "/dev/mmcblk0"
    bool is_partition = false;
    uint64_t start = 0;     // the device's first byte on its disk
    uint64_t size = 0;      // bytes
    uint64_t disk_size = 0; // bytes
    std::optional<dev::Identity> card; // who the card is, for the confirmation and the report
    uint16_t rca = 0;
    std::vector<std::string> siblings; // the disk and its partitions but this one: they share the blocks
    std::string not_mmc;    // "loop0 is a loop device" when not on an MMC host
    Capabilities caps;
    std::vector<std::string> notes; // where registers came from, what failed
};

// A failure (cli::ErrorKind::failure); the remedy, if any, by meaning. The
// resolver's refusal in erase's terms (erase::prepare throws it): the
// message is the resolver's without the device name before it, which the
// caller puts there as it does for every erase error.
struct TargetError : cli::Error {
    using Why = dev::DeviceError::Why;
    Why why;
    TargetError(Why w, const std::string& message, cli::Remedy r = cli::Remedy::none)
        : cli::Error(cli::ErrorKind::failure, message, r), why(w) {}
};

// The erase target a device resolved for Purpose::erase is: its bounds, the
// queue's limits and, on a card, what erase decisions need from the card's
// identified record (card: dev::identify(device); nullptr when the device
// has no card; raw methods only where its gathering could send commands).
// Pure, like apply_registers: the caller resolved and identified once.
Target erase_target(const dev::Device& device, const dev::Identified* card);

// Fill the register-derived fields of caps from a card's decoded registers
// (pure; used by erase_target and the tests).
void apply_registers(Capabilities& caps, const regs::CardRegisters& regs, uint64_t capacity_bytes);

} // namespace mmc::erase
