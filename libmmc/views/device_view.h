// Views of live cards: the lsblk-like list of every card, and one card's
// identity (device, host, RCA, controller, partitions) with its registers.
#pragma once

#include "dev/card.h"
#include "dev/identify.h"
#include "dev/register_sources.h"
#include "views/card_view.h"

#include <nlohmann/json.hpp>

namespace mmc::out {

std::string card_list_text(const std::vector<dev::Card>& cards, const dev::SysRoots& roots);
nlohmann::ordered_json card_list_json(const std::vector<dev::Card>& cards, const dev::SysRoots& roots);

// The bus mode in a few words from the host's ios: "sd high-speed, 4 bits, 26 MHz".
std::string bus_mode_text(const dev::Host& host);

std::string device_text(const dev::Card& card, const dev::SysRoots& roots, const dev::RegisterGathering& gathered,
                        const regs::CardRegisters& regs, const TextStyle& style);
// {"card": identity, "ios", "host_controller", "partitions", "notes"}
// followed by card_json (family, summary, registers, warnings).
nlohmann::ordered_json device_json(const dev::Identified& id);

} // namespace mmc::out
