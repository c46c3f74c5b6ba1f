#include "regs/card_registers.h"

#include "regs/decode.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

uint64_t raw_or(const DecodedRegister* r, std::string_view field, uint64_t fallback = 0)
{
    if (!r) return fallback;
    const Field* f = r->field(field);
    return f ? f->raw : fallback;
}

std::string level_text(int level) { return fmt::format("{}.{}", level / 100, level % 100 / 10); }

void check_sd(const CardRegisters& c, std::vector<std::string>& w)
{
    const auto* scr = c.get(RegKind::scr);
    const auto* ssr = c.get(RegKind::ssr);
    const auto* csd = c.get(RegKind::csd);
    const auto* ocr = c.get(RegKind::ocr);

    if (scr && ssr) {
        const int level = scr_spec_level(*scr);
        const uint64_t app = raw_or(ssr, "app_perf_class");
        // A1 arrived with physical layer 5.1, A2 with 6.0.
        if (app == 2 && level < 600)
            w.push_back(fmt::format("SSR claims A2 but the SCR says spec {}; A2 needs 6.0 or later", level_text(level)));
        if (app == 1 && level < 500)
            w.push_back(fmt::format("SSR claims A1 but the SCR says spec {}; A1 needs 5.1 or later", level_text(level)));
        if (raw_or(ssr, "video_speed_class") && level < 500)
            w.push_back(fmt::format("SSR claims a video speed class but the SCR says spec {}; video classes need 5.0 or later",
                                    level_text(level)));
        if (raw_or(ssr, "uhs_speed_grade") && level < 300)
            w.push_back(fmt::format("SSR claims a UHS speed grade but the SCR says spec {}; UHS needs 3.0 or later",
                                    level_text(level)));
    }
    if (csd && ocr && raw_or(ocr, "busy")) {
        // Only a raw R3 OCR (busy bit set) carries CCS; Linux's sysfs value does not.
        const bool high_capacity_csd = raw_or(csd, "csd_structure") >= 1;
        const bool ccs = raw_or(ocr, "ccs");
        if (high_capacity_csd != ccs)
            w.push_back(fmt::format("CSD structure {} says {} but OCR CCS is {}", raw_or(csd, "csd_structure"),
                                    high_capacity_csd ? "high capacity" : "standard capacity", ccs ? 1 : 0));
    }
    if (csd && scr && raw_or(csd, "csd_structure") == 1) {
        const bool sdxc = raw_or(csd, "c_size") >= 0xffff;
        const uint64_t security = raw_or(scr, "sd_security");
        if (sdxc && security == 3)
            w.push_back("CSD size is SDXC (over 32 GB) but SCR SD_SECURITY says SDHC (version 2.00)");
        if (!sdxc && security == 4)
            w.push_back("CSD size is SDHC (32 GB or less) but SCR SD_SECURITY says SDXC (version 3.xx)");
    }
    for (const auto& r : c.registers)
        if (r.reg.kind == RegKind::ext_csd) w.push_back("EXT_CSD given for an SD card; SD cards have no EXT_CSD");
}

void check_mmc(const CardRegisters& c, std::vector<std::string>& w)
{
    for (const auto& r : c.registers)
        if (r.reg.kind == RegKind::scr || r.reg.kind == RegKind::ssr || r.reg.kind == RegKind::switch_status)
            w.push_back(fmt::format("{} given for an MMC card; it exists only on SD cards (is the card an SD card?)",
                                    to_string(r.reg.kind)));
    const auto* csd = c.get(RegKind::csd);
    const auto* ext = c.get(RegKind::ext_csd);
    if (csd && ext && raw_or(csd, "csd_structure") == 3 && raw_or(ext, "csd_structure") > 2)
        w.push_back("CSD_STRUCTURE 3 defers to EXT_CSD, but EXT_CSD CSD_STRUCTURE is reserved too");
}

} // namespace

const DecodedRegister* CardRegisters::get(RegKind kind) const
{
    for (const auto& r : registers)
        if (r.reg.kind == kind) return &r.reg;
    return nullptr;
}

int scr_spec_level(const DecodedRegister& scr)
{
    const uint64_t spec = raw_or(&scr, "sd_spec");
    const uint64_t spec3 = raw_or(&scr, "sd_spec3");
    const uint64_t spec4 = raw_or(&scr, "sd_spec4");
    const uint64_t specx = raw_or(&scr, "sd_specx");
    if (spec == 0) return 100;
    if (spec == 1) return 110;
    if (spec != 2) return 0;
    if (!spec3) return 200;
    if (specx) return 400 + static_cast<int>(specx) * 100; // 1 = 5.xx ... 5 = 9.xx
    return spec4 ? 400 : 300;
}

CardRegisters decode_card(CardFamily card, const std::vector<RawRegister>& inputs)
{
    CardRegisters out{card, {}, {}};
    DecodeContext ctx;
    for (const auto& in : inputs)
        if (in.kind == RegKind::ext_csd && card == CardFamily::mmc && in.bytes.size() == register_size(in.kind))
            ctx.ext_csd_rev = in.bytes[192];
    for (const auto& in : inputs) out.registers.push_back({decode(in.kind, card, in.bytes, ctx), in.source});
    if (card == CardFamily::sd)
        check_sd(out, out.warnings);
    else
        check_mmc(out, out.warnings);
    return out;
}

} // namespace mmc::regs
