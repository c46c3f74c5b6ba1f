#include "probe/register_check.h"

#include "cli/size.h"
#include "regs/card_facts.h"
#include "regs/register_facts.h"

#include <variant>

namespace mmc::probe {

namespace {

// Whether the claim equals the measured AU; nothing when either is missing.
std::optional<bool> agrees(const RegisterClaim& c, std::optional<uint64_t> au)
{
    if (!c.bytes || !au) return std::nullopt;
    return *c.bytes == *au;
}

} // namespace

RegisterClaims no_card_claims()
{
    RegisterClaims r;
    r.claims = {{"ssr_au_size", "SSR AU_SIZE", {}},
                {"preferred_erase_size", "sysfs preferred_erase_size", {}},
                {"csd_sector_size", "CSD SECTOR_SIZE", {}},
                {"ext_csd_erase_group", "EXT_CSD HC_ERASE_GRP_SIZE", {}}};
    return r;
}

RegisterClaims claims_of(const dev::Identified& id, std::optional<uint64_t> preferred)
{
    RegisterClaims r = no_card_claims();
    r.card = true;
    const auto& regs = id.registers;
    const bool sd = id.facts.family && *id.facts.family == regs::CardFamily::sd;
    r.claims[0].bytes = id.facts.au_bytes && *id.facts.au_bytes ? id.facts.au_bytes : std::nullopt;
    if (preferred && *preferred) r.claims[1].bytes = preferred;
    if (sd) {
        if (const auto csd = regs::csd_facts(regs)) r.claims[2].bytes = csd->erase_sector_bytes;
    } else {
        r.claims[2].label = "CSD ERASE_GRP_SIZE";
        r.claims[2].bytes = regs::csd_erase_group_bytes(regs);
        r.claims[3].bytes = regs::hc_erase_group_bytes(regs);
    }
    return r;
}

nlohmann::ordered_json cross_check_json(const RegisterClaims& r, std::optional<uint64_t> au)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    // One shape with or without a card (mmc-probe(1)): without one, nothing
    // is claimed, so every bytes and agrees is null.
    for (const auto& c : r.claims) {
        nlohmann::ordered_json o;
        o["bytes"] = c.bytes ? nlohmann::ordered_json(*c.bytes) : nlohmann::ordered_json(nullptr);
        const auto a = agrees(c, au);
        o["agrees"] = a ? nlohmann::ordered_json(*a) : nlohmann::ordered_json(nullptr);
        j[c.key] = o;
    }
    return j;
}

std::string cross_check_text(const RegisterClaims& r, std::optional<uint64_t> au)
{
    if (!r.card) return "unknown (not an MMC/SD card)";
    std::string out;
    for (const auto& c : r.claims) {
        if (!c.bytes) continue;
        const auto a = agrees(c, au);
        out += (out.empty() ? "" : "; ") + c.label + " " + cli::format_bytes(*c.bytes) + (a ? (*a ? " (agrees)" : " (differs)") : "");
    }
    return out.empty() ? "none given by the card" : out;
}

} // namespace mmc::probe
