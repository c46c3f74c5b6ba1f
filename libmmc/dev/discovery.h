// Finding hosts and cards, and turning any name a user types into one card:
// /dev/mmcblk0, mmcblk0, mmcblk0p1, mmcblk0boot0, mmc0, mmc0:4567, or a
// sysfs path. On the live system libudev enumerates; with another sysfs root
// (tests' fixture trees) the same classes are listed from the directory.
#pragma once

#include "dev/card.h"

#include <stdexcept>
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

struct ResolveError : std::runtime_error {
    enum class Why { not_found, not_mmc, no_card };
    Why why;
    ResolveError(Why w, const std::string& message) : std::runtime_error(message), why(w) {}
};

struct Target {
    std::optional<Card> card; // the card (absent for a host with no card)
    Host host;
    std::string partition;    // "mmcblk0p1" when a partition was named
};

// Throws ResolveError: not_found (no such device), not_mmc (a block device on
// another bus; the message says which, e.g. a USB reader), no_card (a host
// with an empty slot).
Target resolve(std::string_view name, const SysRoots& roots);

// Why a non-MMC block device is not one, in words: "sda is on USB (a card
// reader?)". Empty when the device is MMC or unknown.
std::string explain_non_mmc(const fs::path& block_syspath);

} // namespace mmc::dev
