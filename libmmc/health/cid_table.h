// Which health layout a card speaks, chosen from its CID: manufacturer ID and
// OEM ID, one row per attested pairing, each with its source. The layout
// follows the card's controller, not its brand, so a row is a promise only
// as good as its source: the block's signature confirms it, and a card not in
// the table is never probed (a wrong CMD56 has made cards vanish from the
// bus: sdmon issue 43). --layout tries one on purpose.
#pragma once

#include "regs/register.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mmc::health {

enum class Channel { cmd56, ssr };

struct CidRow {
    regs::CardFamily family;
    uint8_t mid;
    std::optional<uint16_t> oid; // SD: two ASCII characters as one number; nullopt: any
    Channel channel;
    std::string_view layout;     // a cmd56_layouts() name, or "swissbit" for the SSR
    std::string_view source;
};

std::span<const CidRow> cid_table();

// The rows that match a card, in table order (a Swissbit SD card has two:
// its CMD56 block and its SD status).
std::vector<const CidRow*> rows_for(regs::CardFamily family, uint8_t mid, uint16_t oid);

// "no health data known for this card (MID 0x.., OID ..)".
std::string unknown_card_text(regs::CardFamily family, uint8_t mid, uint16_t oid);

} // namespace mmc::health
