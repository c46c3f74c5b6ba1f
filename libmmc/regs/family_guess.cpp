#include "regs/family_guess.h"

#include <fmt/format.h>

namespace mmc::regs {

namespace {

FamilyGuess says(CardFamily family, std::string why) { return {family, std::move(why)}; }

std::optional<FamilyGuess> family_of_csd(const std::vector<uint8_t>& b)
{
    if (b.empty()) return std::nullopt;
    const unsigned structure = b[0] >> 6; // [127:126]
    const unsigned spec_bits = b[0] & 0x3f; // [125:120]: MMC SPEC_VERS and reserved; reserved zero on SD
    if (structure == 3) return says(CardFamily::mmc, "CSD_STRUCTURE 3 is MMC-only (reserved on SD)");
    if (spec_bits)
        return says(CardFamily::mmc, fmt::format("CSD bits [125:120] are {:#04x}: MMC's SPEC_VERS, reserved zero on SD", spec_bits));
    if (structure == 1) return says(CardFamily::sd, "CSD_STRUCTURE 1 with bits [125:120] zero: SD's CSD 2.0 (SDHC/SDXC)");
    if (structure == 2) return says(CardFamily::sd, "CSD_STRUCTURE 2 with bits [125:120] zero: SD's CSD 3.0 (SDUC)");
    return std::nullopt; // SD's CSD 1.0 and MMC's 1.0 look alike
}

std::optional<FamilyGuess> family_of_cid(const std::vector<uint8_t>& b)
{
    if (b.size() < 2) return std::nullopt;
    // SD: bytes 1-2 are the OID, two ASCII characters. MMC: byte 1 is six
    // reserved zero bits and CBX (0 card, 1 BGA, 2 POP).
    if (b[1] < 0x20) return says(CardFamily::mmc, fmt::format("CID byte 1 is {:#04x}: MMC's CBX, where SD has an OID letter", b[1]));
    return says(CardFamily::sd, fmt::format("CID byte 1 is '{}': an SD OID letter, where MMC has a reserved zero and CBX",
                                            static_cast<char>(b[1])));
}

} // namespace

std::optional<FamilyGuess> family_of_register(const RawRegister& reg)
{
    switch (reg.kind) {
    case RegKind::ext_csd: return says(CardFamily::mmc, "an EXT_CSD is MMC-only");
    case RegKind::scr: return says(CardFamily::sd, "an SCR is SD-only");
    case RegKind::ssr: return says(CardFamily::sd, "an SSR is SD-only");
    case RegKind::switch_status: return says(CardFamily::sd, "a switch status is SD-only");
    case RegKind::csd: return family_of_csd(reg.bytes);
    case RegKind::cid: return family_of_cid(reg.bytes);
    case RegKind::ocr:
    case RegKind::status: return std::nullopt;
    }
    return std::nullopt;
}

FamilyGuess guess_family(const std::vector<RawRegister>& inputs)
{
    std::optional<FamilyGuess> sd, mmc;
    for (const auto& r : inputs) {
        const auto g = family_of_register(r);
        if (!g) continue;
        auto& slot = *g->family == CardFamily::sd ? sd : mmc;
        if (!slot) slot = g;
    }
    if (sd && mmc) return {std::nullopt, fmt::format("the registers disagree: {}, but {}", sd->why, mmc->why)};
    if (sd) return *sd;
    if (mmc) return *mmc;
    return {std::nullopt, "the registers given do not say"};
}

} // namespace mmc::regs
