// What the card's registers say about its erase unit, held against the AU
// the ladder measured: SSR AU_SIZE (SD), sysfs preferred_erase_size (the
// kernel's pick), CSD SECTOR_SIZE (SD) or ERASE_GRP_SIZE (MMC), and EXT_CSD
// HC_ERASE_GRP_SIZE (eMMC). None for a device that is no MMC/SD card.
#pragma once

#include "dev/identify.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::probe {

struct RegisterClaim {
    std::string key;   // "ssr_au_size", "preferred_erase_size", "csd_sector_size", "ext_csd_erase_group"
    std::string label; // "SSR AU_SIZE"
    std::optional<uint64_t> bytes; // nullopt: the card does not say
};

struct RegisterClaims {
    bool card = false; // false: not an MMC/SD card; every claim unknown
    std::vector<RegisterClaim> claims;
};

// The four claims, in the order above, from an identified card.
RegisterClaims claims_of(const dev::Identified& card, std::optional<uint64_t> preferred_erase_bytes);
RegisterClaims no_card_claims();

// {"ssr_au_size": {"bytes": N|null, "agrees": true|false|null}, ...}, the
// same shape without a card (every bytes null). agrees: the claim equals the
// measured AU (null when either is missing).
nlohmann::ordered_json cross_check_json(const RegisterClaims&, std::optional<uint64_t> measured_au);

// "SSR AU_SIZE 4 MiB (agrees); CSD SECTOR_SIZE 64 KiB (differs); ..."
std::string cross_check_text(const RegisterClaims&, std::optional<uint64_t> measured_au);

} // namespace mmc::probe
