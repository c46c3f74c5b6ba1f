#include "health/cid_table.h"

#include <array>
#include <fmt/format.h>
#include <vector>

namespace mmc::health {

namespace {

using regs::CardFamily;

constexpr uint16_t oid(char a, char b) { return static_cast<uint16_t>((a << 8) | b); }

// MIDs and OIDs as regs/vendors.cpp attests them; the layout each answers
// from the reader whose users posted the card's output.
const std::array<CidRow, 6> rows{{
    {CardFamily::sd, 0x03, oid('S', 'D'), Channel::cmd56, "sandisk",
     "sdmon: SanDisk industrial cards (README); MID 0x03 OID \"SD\" is SanDisk's (Linux CID_MANFID_SANDISK_SD)"},
    {CardFamily::sd, 0x1d, oid('A', 'D'), Channel::cmd56, "adata",
     "sdmon PR 22: ADATA IUDD33K answers 0x09 0x41; MID 0x1D OID \"AD\" is ADATA's"},
    {CardFamily::sd, 0x74, std::nullopt, Channel::cmd56, "transcend",
     "Transcend's SMARTQuery reader (430T, 450I) and sdmon PR 20 (230I); MID 0x74 is Transcend's"},
    {CardFamily::sd, 0x5d, oid('S', 'B'), Channel::cmd56, "swissbit",
     "sdmon: Swissbit, CMD56 argument \"SB\" 0x0001; MID 0x5D OID 0x5342 as collectd matches it"},
    {CardFamily::sd, 0x5d, oid('S', 'B'), Channel::ssr, "swissbit",
     "collectd src/mmc.c mmc_read_ssr_swissbit: MID 0x5D, OID 0x5342"},
    {CardFamily::mmc, 0x13, std::nullopt, Channel::cmd56, "micron_emmc",
     "collectd src/mmc.c mmc_read_micron: MID 0x13 (Micron, Linux CID_MANFID_MICRON)"},
}};

std::string oid_text(CardFamily family, uint16_t oid)
{
    if (family == CardFamily::mmc) return fmt::format("0x{:02x}", oid);
    const char a = static_cast<char>(oid >> 8), b = static_cast<char>(oid & 0xff);
    auto printable = [](char c) { return c >= 0x20 && c < 0x7f; };
    if (printable(a) && printable(b)) return fmt::format("\"{}{}\"", a, b);
    return fmt::format("0x{:04x}", oid);
}

} // namespace

std::span<const CidRow> cid_table() { return rows; }

std::vector<const CidRow*> rows_for(CardFamily family, uint8_t mid, uint16_t card_oid)
{
    std::vector<const CidRow*> out;
    for (const auto& r : rows)
        if (r.family == family && r.mid == mid && (!r.oid || *r.oid == card_oid)) out.push_back(&r);
    return out;
}

std::string unknown_card_text(CardFamily family, uint8_t mid, uint16_t card_oid)
{
    return fmt::format("no health data known for this card (MID 0x{:02x}, OID {})", mid, oid_text(family, card_oid));
}

} // namespace mmc::health
