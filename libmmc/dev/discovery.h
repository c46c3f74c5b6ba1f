// Finding hosts and cards, and the card any name a user types leads to
// (/dev/mmcblk0, mmcblk0p1, mmc0, mmc0:4567, a sysfs path; dev/resolver.h).
// On the live system libudev enumerates; with another sysfs root
// (tests' fixture trees) the same classes are listed from the directory.
#pragma once

#include "dev/card.h"
#include "dev/resolver.h"

#include <string_view>

namespace mmc::dev {

// Sysfs paths of every MMC host and card.
struct Inventory {
    std::vector<fs::path> hosts;
    std::vector<fs::path> cards;
};
Inventory enumerate(const SysRoots& roots);

std::vector<Host> list_hosts(const SysRoots& roots);
std::vector<Card> list_cards(const SysRoots& roots);

// A name that names no card: the resolver's error (dev/resolver.h), whose
// Why says which (not_found, not_block, not_mmc, no_card).
using ResolveError = DeviceError;

struct Target {
    std::optional<Card> card; // the card (absent for a host with no card)
    Host host;
    std::string partition;    // "mmcblk0p1" when a partition was named
};

// The card a name leads to, for tools that want the card and not a block
// device (mmc-info, mmc-bus): an SDIO card too. Resolved by the one resolver
// (dev/resolver.cpp), so it words its failures the same: throws
// ResolveError not_found, not_block, not_mmc (a block device on another bus;
// the message says which, e.g. a USB reader) or no_card (an empty slot).
Target resolve(std::string_view name, const SysRoots& roots);

// Why a non-MMC block device is not one, in words: "sda is on USB (a card
// reader?)". Empty when the device is MMC or unknown.
std::string explain_non_mmc(const fs::path& block_syspath);

} // namespace mmc::dev
