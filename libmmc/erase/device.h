// The device an erase is aimed at: the named block device (a disk or a
// partition, resolved to its disk and bounds), the MMC/SD card behind it
// with the registers erase decisions need, and the block queue's limits.
// Sysfs is a root so tests can use fixture trees.
#pragma once

#include "cli/errors.h"
#include "dev/identify.h"
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

// A failure (cli::ErrorKind::failure); the remedy, if any, by meaning.
struct TargetError : cli::Error {
    enum class Why { not_found, not_mmc, no_block };
    Why why;
    TargetError(Why w, const std::string& message, cli::Remedy r = cli::Remedy::none)
        : cli::Error(cli::ErrorKind::failure, message, r), why(w) {}
};

struct TargetOptions {
    dev::SysRoots roots;
    bool any_device = false; // accept a block device that is not on an MMC host
    bool use_ioctl = true;   // read SSR/EXT_CSD with card commands, allow raw methods
};

// Resolve any name mmc-info accepts (/dev/mmcblk0, mmcblk0p1, mmc0,
// mmc0:4567, a sysfs path) or, with any_device, any block device. Throws
// TargetError; a non-MMC device without any_device is Why::not_mmc.
Target find_target(const std::string& device, const TargetOptions& options);

// Fill the register-derived fields of caps from a card's decoded registers
// (pure; used by find_target and the tests).
void apply_registers(Capabilities& caps, const regs::CardRegisters& regs, uint64_t capacity_bytes);

} // namespace mmc::erase
