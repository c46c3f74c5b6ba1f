// The card's side: which family is in the slot and the best mode its
// registers offer.
#include "bus/doctor_parts.h"

#include <fmt/format.h>

namespace mmc::bus::doctor_parts {

// The card in the slot, from the most direct evidence available: its family,
// or an SDIO function (d.sdio), or neither when nothing says.
void identify_card(const Evidence& e, Diagnosis& d)
{
    using regs::CardFamily;
    d.card = e.card;
    d.sdio = e.sdio;
    if (e.card || e.sdio) return;
    // A vendor kernel named the debugfs directory of its SDIO Wi-Fi host "sdio".
    const auto& m = e.kernel_message;
    if (d.host.rfind("sdio", 0) == 0 || m.find(" SDIO card") != std::string::npos) {
        d.sdio = true;
        return;
    }
    d.card = [&]() -> std::optional<CardFamily> {
        if (m.find(" MMC card") != std::string::npos) return CardFamily::mmc;
        for (const char* sd : {" SD card", " SDHC card", " SDXC card", " SDUC card", "-combo card"})
            if (m.find(sd) != std::string::npos) return CardFamily::sd;
        if (e.device_type) return CardFamily::mmc;
        if (e.s18a || e.uhs_speed_grade || !e.sd_bus_speeds_supported.empty()) return CardFamily::sd;
        if (e.ios.timing.rfind("mmc ", 0) == 0) return CardFamily::mmc;
        if (e.ios.timing.rfind("sd ", 0) == 0) return CardFamily::sd;
        return std::nullopt;
    }();
}

// Why the card is a standard-capacity (SDSC) card, or "" when nothing says
// so. Linux switches a card to 1.8 V only when it answers ACMD41 with CCS=1
// and S18A=1 (core/sd.c mmc_sd_get_cid: S18A is read only with CCS; SD
// Physical Layer Simplified Specification 4.2.3.1: S18R/S18A apply to
// SDHC/SDXC), and mmc_add_card names a card without block addressing
// "SD" (not SDHC/SDXC). A card of 2 GB or less is standard capacity: SDHC
// starts above 2 GB (spec 5.3: CSD version 1.0 addresses up to 2 GB).
std::string standard_capacity(const Evidence& e)
{
    const auto& m = e.kernel_message;
    if (m.find(" SD card") != std::string::npos && m.find(": new ") != std::string::npos)
        return "the kernel calls it \"SD card\" (not SDHC or SDXC): " + m.substr(m.find(": new ") + 2);
    if (e.capacity_bytes && *e.capacity_bytes > 0 && *e.capacity_bytes <= (uint64_t{1} << 31))
        return fmt::format("its capacity is {}, 2 GB or less", cli::format_bytes(*e.capacity_bytes));
    return {};
}

// SD: CMD6 function group 1 says exactly; OCR S18A and the SSR UHS grade only
// say whether the card is UHS-I at all. A card answers S18A=1 only when the
// host asked for 1.8 V, so S18A=0 from a host without UHS proves little.
Side sd_card(const Evidence& e, ModeSet proven, bool host_asks_1_8v)
{
    const FamilyModes& f = sd_family;
    const auto& listed = e.sd_bus_speeds_supported;
    const auto lists = [&](Mode m) { return std::find(listed.begin(), listed.end(), m) != listed.end(); };
    const bool listed_uhs = lists(Mode::sdr50) || lists(Mode::sdr104) || lists(Mode::ddr50);

    Side s;
    s.owner = Limit::card;
    std::vector<std::string> evidence;
    if (e.s18a) evidence.push_back(fmt::format("OCR S18A={}", *e.s18a ? 1 : 0));
    if (!listed.empty()) evidence.push_back("CMD6 lists " + modes_text(listed));
    if (listed_uhs) {
        s.known = true;
        s.modes = f.bit(Mode::legacy) | f.bit(Mode::sdr12) | f.bit(Mode::sdr25) | (lists(Mode::sdr25) ? f.bit(Mode::hs) : 0);
        for (const Mode m : {Mode::sdr50, Mode::sdr104, Mode::ddr50})
            if (lists(m)) s.modes |= f.bit(m);
        s.modes |= proven;
        s.why = fmt::format("the card supports UHS-I up to {} ({})", to_string(f.best(s.modes)), join(evidence, ", "));
        s.tries.push_back("a UHS-I card rated for SDR104 would run faster in this host");
    } else if (const std::string sdsc = standard_capacity(e); !sdsc.empty()) {
        // A standard-capacity card never runs UHS-I: SD high speed is its best.
        s.known = true;
        s.modes = f.bit(Mode::legacy) | f.bit(Mode::hs) | proven;
        s.why = fmt::format("a standard-capacity SD card ({}) cannot run UHS-I: Linux switches to 1.8 V only for a card that "
                            "answers CCS=1 and S18A=1, so SD high speed is its best",
                            sdsc);
        s.evidence.push_back("standard-capacity card: " + sdsc);
        s.tries.push_back("an SDHC or SDXC UHS-I card (marked U1/U3 or with the I logo) runs the UHS modes this host offers");
    } else if (e.s18a == true || e.uhs_speed_grade.value_or(0) > 0) {
        // UHS-I, fastest mode unknown: the card is no proven limit.
        if (e.uhs_speed_grade.value_or(0) > 0) evidence.push_back(fmt::format("SSR UHS speed grade U{}", *e.uhs_speed_grade));
        s.why = fmt::format("the card is UHS-I ({}); its fastest mode needs CMD6 to tell", join(evidence, ", "));
    } else if (!listed.empty() || e.s18a == false) {
        s.known = true;
        s.modes = f.bit(Mode::legacy) | (listed.empty() || lists(Mode::sdr25) ? f.bit(Mode::hs) : 0) | proven;
        if (!listed.empty()) evidence.back() = "CMD6 lists only " + modes_text(listed);
        s.why = fmt::format("the card reports no UHS support ({})", join(evidence, ", "));
        if (e.s18a == false && !host_asks_1_8v)
            s.why += "; a card answers S18A=1 only when the host asks for 1.8 V, which this host does not";
        s.tries.push_back("a UHS-I card (marked U1/U3 or with the I logo) in a UHS-capable slot");
    }
    return s;
}

// eMMC: EXT_CSD DEVICE_TYPE bits 0 HS26, 1 HS52, 2/3 DDR52 (1.8-3 V / 1.2 V),
// 4/5 HS200, 6/7 HS400; STROBE_SUPPORT adds enhanced strobe to HS400.
Side mmc_card(const Evidence& e, ModeSet proven)
{
    const FamilyModes& f = mmc_family;
    Side s;
    s.owner = Limit::card;
    if (!e.device_type) return s;
    const unsigned t = *e.device_type;
    s.known = true;
    s.modes = f.bit(Mode::legacy);
    if (t & 0x01) s.modes |= f.bit(Mode::hs26);
    if (t & 0x02) s.modes |= f.bit(Mode::hs26) | f.bit(Mode::mmc_hs);
    if (t & 0x0c) s.modes |= f.bit(Mode::ddr52);
    if (t & 0x30) s.modes |= f.bit(Mode::hs200);
    if (t & 0xc0) s.modes |= f.bit(Mode::hs400);
    if ((t & 0xc0) && e.strobe_support == true) s.modes |= f.bit(Mode::hs400es);
    s.modes |= proven;
    const auto best = f.best(s.modes);
    const std::string_view words = best == Mode::mmc_hs ? "HS52" : to_string(best);
    if (best == f.top())
        s.why = fmt::format("the card supports HS400ES (DEVICE_TYPE 0x{:02x}, STROBE_SUPPORT 1)", t);
    else
        s.why = fmt::format("the card is limited to {} by its DEVICE_TYPE 0x{:02x}{}", words, t,
                            best == Mode::hs400 ? fmt::format(" (STROBE_SUPPORT {})", e.strobe_support == true ? 1 : 0) : "");
    s.tries.push_back("the eMMC itself stops here: only a different eMMC part runs a faster mode");
    return s;
}

} // namespace mmc::bus::doctor_parts
