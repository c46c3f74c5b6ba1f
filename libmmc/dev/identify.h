// The one identification every tool starts from: the card behind a name, its
// registers gathered by one rule per source (dev/register_sources), decoded
// once, and the typed facts the other modules need. mmc-info, mmc-bus,
// mmc-erase and mmc-bench all call identify(), so they cannot disagree about
// one card.
#pragma once

#include "dev/card.h"
#include "dev/register_sources.h"
#include "dev/resolver.h"
#include "regs/card_registers.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mmc::dev {

// Who the card is, as every tool's JSON names it (identity_json below).
struct Identity {
    std::string name;          // "mmc0:4567"
    std::string type;          // "SD", "MMC", "SDIO"
    std::string product;       // CID PNM, else sysfs "name"
    std::string manufacturer;  // "SanDisk (MID 0x03)" style, from the CID
    std::string serial;        // "0xdeadbeef", from the CID
    std::string date;          // "2023-05", from the CID
    uint64_t capacity_bytes = 0;
    std::string host;          // "mmc0"
    std::string controller;    // "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)"
    std::string device;        // "/dev/mmcblk0"; empty for SDIO
    uint16_t rca = 0;
};

// What the erase planner, the benchmark and the probe need, typed, from the
// decoded registers; unknown stays empty rather than guessed.
struct CardFacts {
    std::optional<regs::CardFamily> family;   // nullopt: SDIO or unknown
    std::optional<uint64_t> au_bytes;         // SD: SSR AU_SIZE
    std::optional<uint64_t> erase_group_bytes; // MMC: the group in use (regs::erase_group_in_use)
    std::optional<uint8_t> erased_byte;       // SD SCR DATA_STAT_AFTER_ERASE / EXT_CSD ERASED_MEM_CONT
    std::string ssr_source;                   // "ioctl", "sysfs", "" when none usable
};

struct Identified {
    Card card;
    RegisterGathering gathered;
    regs::CardRegisters registers;
    Identity identity;
    CardFacts facts;
};

// Gather, decode and sum up one card. Never throws for a card whose
// registers cannot be read: what is missing is in gathered.notes.
Identified identify(const Card& card, const SysRoots& roots, const SourceOptions& options);
// The card of a resolved device, identified: what a run hands on to erase
// and format (resolve once, identify once); nothing when the device is not
// on an MMC host (a USB reader's slot, a loop device).
std::optional<Identified> identify(const Device& device, const SysRoots& roots, const SourceOptions& options);

// The identity alone, from a card and whatever registers were decoded
// (pure; identify() uses it, tests call it on fixtures).
Identity identity_of(const Card& card, const regs::CardRegisters* registers, const SysRoots& roots);
CardFacts facts_of(const Card& card, const RegisterGathering& gathered, const regs::CardRegisters& registers);

// The card identity object, the same in every tool's JSON ("card": {...}) and
// documented once, in mmc-info(1) under CARD IDENTITY:
// {"name": "mmc0:4567", "type": "SD", "product", "manufacturer", "serial",
//  "date", "capacity_bytes", "host", "controller", "device", "rca": "0x4567"};
// a value the card did not give is null, never "".
nlohmann::ordered_json identity_json(const Identity& id);

} // namespace mmc::dev
