// The bus-mode doctor. The kernel runs the best mode that both the card and
// the host offer, at the clock the host can make, on the width both wire. So
// the ceiling falls short of the best possible for one of four reasons: a side
// that offers no better mode (card, or host: its caps, or the board's device
// tree), a narrow bus, or a low clock. Each shortfall is weighed by how much
// the ceiling would rise if that one thing were fixed; the biggest names the
// limit, and every shortfall is reported with its evidence.
#include "bus/doctor.h"

#include "bus/soc_limits.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <span>

namespace mmc::bus {

namespace {

// A shortfall smaller than this is rounding.
constexpr double negligible_gain = 1.02;
// A clock at or above this share of the mode's rate is the mode at full
// speed: the controller makes its clock by dividing a source clock by an
// integer, so the nearest clock at or below the rate can fall short by a
// step (198 MHz for SDR104's 208, 187.5 for HS200's 200, 49.152 for 52).
constexpr double divider_granularity = 0.9;

// Each family's modes, worst first; among modes of equal ceiling, in the order
// the kernel prefers them (it picks DDR50 over SDR50, UHS SDR25 over HS).
using ModeList = std::array<Mode, 7>;
constexpr ModeList sd_modes{Mode::legacy, Mode::sdr12, Mode::hs, Mode::sdr25, Mode::sdr50, Mode::ddr50, Mode::sdr104};
constexpr ModeList mmc_modes{Mode::legacy, Mode::hs26, Mode::mmc_hs, Mode::ddr52, Mode::hs200, Mode::hs400, Mode::hs400es};

using ModeSet = uint32_t;
constexpr ModeSet any_mode = (1u << 7) - 1;

// The modes of one card family, slowest first.
struct FamilyModes {
    regs::CardFamily family;
    const ModeList& modes;

    int index(Mode mode) const
    {
        const auto it = std::find(modes.begin(), modes.end(), mode);
        return it == modes.end() ? -1 : static_cast<int>(it - modes.begin());
    }
    ModeSet bit(Mode mode) const { return index(mode) < 0 ? 0 : 1u << index(mode); }
    // The SoC table's best mode for this family; nullopt if it names none.
    std::optional<Mode> soc_best(const SocLimit& soc) const
    {
        return family == regs::CardFamily::mmc ? soc.best_mode.mmc : soc.best_mode.sd;
    }
    // The fastest mode in the set; legacy, which every card and host does,
    // when the set is empty.
    Mode best(ModeSet set) const
    {
        for (int i = static_cast<int>(modes.size()) - 1; i >= 0; --i)
            if (set >> i & 1) return modes[static_cast<std::size_t>(i)];
        return modes.front();
    }
    Mode top() const { return modes.back(); }
    double ceiling(Mode mode) const { return mode_ceiling_mb_s(mode, family).value_or(0); }
    // Modes that need 1.8 V (or 1.2 V) I/O: every UHS-I mode, HS200 and up.
    ModeSet low_voltage() const
    {
        return family == regs::CardFamily::mmc ? bit(Mode::hs200) | bit(Mode::hs400) | bit(Mode::hs400es)
                                               : bit(Mode::sdr12) | bit(Mode::sdr25) | bit(Mode::sdr50) | bit(Mode::ddr50) |
                                                     bit(Mode::sdr104);
    }
};

const FamilyModes sd_family{regs::CardFamily::sd, sd_modes};
const FamilyModes mmc_family{regs::CardFamily::mmc, mmc_modes};

// What one side (card or host) offers, and in whose name it stops.
struct Side {
    ModeSet modes = any_mode; // unknown: could be anything
    bool known = false;
    Limit owner = Limit::unknown; // card, host, board or unknown (host or board)
    std::string why;          // the evidence for its best mode, in words
    std::vector<std::string> tries;
    std::vector<std::string> evidence; // what decided the owner
    std::string would_decide;          // when the owner is "unknown"
    bool hard_limit = false;           // the SoC table says no setting raises its best mode
};

// A reason the ceiling is below the best possible.
struct Shortfall {
    Limit owner = Limit::unknown;
    double gain = 1; // ceiling x gain if this alone were fixed
    std::string text;
    std::vector<std::string> tries;
    Mechanism mechanism = Mechanism::none;
    std::vector<std::string> evidence; // what decided the owner
    std::string would_decide;          // when the owner is "unknown"
    bool hard_limit = false;           // no setting raises it: the SoC's own limit
};

std::string trimmed_number(double v, int decimals)
{
    std::string s = fmt::format("{:.{}f}", v, decimals);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

std::string hz_text(double hz)
{
    if (hz >= 1e6) return trimmed_number(hz / 1e6, 3) + " MHz";
    if (hz >= 1e3) return trimmed_number(hz / 1e3, 3) + " kHz";
    return trimmed_number(hz, 0) + " Hz";
}

std::string mb_text(double mb_s) { return trimmed_number(mb_s, 2) + " MB/s"; }

std::string join(const std::vector<std::string>& items, std::string_view sep)
{
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : std::string(sep)) + i;
    return out;
}

bool contains(const std::vector<std::string>& names, std::string_view name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::string modes_text(const std::vector<Mode>& modes)
{
    std::string out;
    for (const Mode m : modes) out += (out.empty() ? "" : ", ") + std::string(to_string(m));
    return out;
}

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

// ---- the card ---------------------------------------------------------

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

// ---- the host ---------------------------------------------------------

enum class HostSource { none, caps, device_tree };

struct Host {
    Side side;
    HostSource source = HostSource::none;
    bool no_1_8_v = false;        // the device tree says no-1-8-v
    bool regulator_3v3 = false;   // the vqmmc-supply regulator cannot reach 1.8 V
};

// caps and caps2 hold what the controller can do plus what the device tree
// asked for. Without them, the device-tree flags are the evidence
// (mmc_of_parse turns them into caps; a driver may add more itself, which the
// running mode then proves).
Host host_modes(const Evidence& e, const FamilyModes& f, const std::vector<std::string>& caps)
{
    struct Flag {
        std::string_view cap, dt_flag;
        Mode mode;
    };
    static constexpr std::array<Flag, 6> sd_flags{{
        {"SD_HIGHSPEED", "cap-sd-highspeed", Mode::hs},
        {"UHS_SDR12", "sd-uhs-sdr12", Mode::sdr12},
        {"UHS_SDR25", "sd-uhs-sdr25", Mode::sdr25},
        {"UHS_SDR50", "sd-uhs-sdr50", Mode::sdr50},
        {"UHS_SDR104", "sd-uhs-sdr104", Mode::sdr104},
        {"UHS_DDR50", "sd-uhs-ddr50", Mode::ddr50},
    }};
    // mmc-hs400-* also sets the HS200 cap of its voltage.
    static constexpr std::array<Flag, 12> mmc_flags{{
        {"MMC_HIGHSPEED", "cap-mmc-highspeed", Mode::hs26},
        {"MMC_HIGHSPEED", "cap-mmc-highspeed", Mode::mmc_hs},
        {"3_3V_DDR", "mmc-ddr-3_3v", Mode::ddr52},
        {"1_8V_DDR", "mmc-ddr-1_8v", Mode::ddr52},
        {"1_2V_DDR", "mmc-ddr-1_2v", Mode::ddr52},
        {"HS200_1_8V_SDR", "mmc-hs200-1_8v", Mode::hs200},
        {"HS200_1_2V_SDR", "mmc-hs200-1_2v", Mode::hs200},
        {"", "mmc-hs400-1_8v", Mode::hs200},
        {"", "mmc-hs400-1_2v", Mode::hs200},
        {"HS400_1_8V", "mmc-hs400-1_8v", Mode::hs400},
        {"HS400_1_2V", "mmc-hs400-1_2v", Mode::hs400},
        {"HS400_ES", "mmc-hs400-enhanced-strobe", Mode::hs400es},
    }};
    const bool is_mmc = f.family == regs::CardFamily::mmc;
    const auto& dt = e.dt;
    const bool use_caps = e.caps || e.caps2;
    Host h;
    if (!use_caps && !dt) return h;
    h.source = use_caps ? HostSource::caps : HostSource::device_tree;
    h.side.known = true;
    h.side.owner = use_caps ? Limit::host : Limit::board;
    h.side.modes = f.bit(Mode::legacy);
    for (const auto& flag : is_mmc ? std::span<const Flag>(mmc_flags) : std::span<const Flag>(sd_flags)) {
        const auto& name = use_caps ? flag.cap : flag.dt_flag;
        if (!name.empty() && (use_caps ? contains(caps, name) : dt->has(name))) h.side.modes |= f.bit(flag.mode);
    }
    // A controller whose driver takes its modes from the hardware (the Pi 4's
    // EMMC2 names no sd-uhs-* in its device tree and runs DDR50) offers what
    // the SoC table says, whatever the device tree lists.
    const SocLimit* hw = !use_caps ? soc_limit(*dt) : nullptr;
    if (const std::optional<Mode> hw_best = hw ? f.soc_best(*hw) : std::nullopt; hw && hw->modes_from_hardware && hw_best) {
        for (int i = 0; i <= f.index(*hw_best); ++i) h.side.modes |= 1u << i;
        if (!(f.bit(*hw_best) & f.low_voltage())) h.side.modes &= ~f.low_voltage();
        h.side.owner = Limit::host;
    }
    if (is_mmc) {
        // HS400 runs on 8 bits only (mmc_select_hs400), enhanced strobe only with HS400.
        const bool eight = use_caps ? contains(caps, "8_BIT_DATA") : !dt->bus_width || *dt->bus_width == 8;
        if (!eight) h.side.modes &= ~f.bit(Mode::hs400);
        if (!(h.side.modes & f.bit(Mode::hs400))) h.side.modes &= ~f.bit(Mode::hs400es);
    }
    // sdhci strips every 1.8 V mode when the board says it has no 1.8 V I/O;
    // eMMC DDR52 then needs DDR at 3.3 V.
    if (dt && dt->has("no-1-8-v")) {
        h.no_1_8_v = true;
        h.side.owner = Limit::board;
        h.side.modes &= ~f.low_voltage();
        if (is_mmc && !contains(caps, "3_3V_DDR") && !dt->has("mmc-ddr-3_3v")) h.side.modes &= ~f.bit(Mode::ddr52);
    } else if (dt && dt->vqmmc && dt->vqmmc->min_microvolt && !dt->vqmmc->reaches_1v8()) {
        // The I/O regulator cannot make 1.8 V: sdhci masks the 1.8 V modes
        // (sdhci_setup_host), and no controller signals 1.8 V without it.
        h.regulator_3v3 = true;
        h.side.owner = Limit::board;
        h.side.modes &= ~f.low_voltage();
    }
    return h;
}

std::string microvolts(uint32_t uv) { return trimmed_number(uv / 1e6, 3) + " V"; }

std::string regulator_text(const Regulator& r)
{
    const std::string name = r.name.empty() ? r.node : fmt::format("{} (\"{}\")", r.node, r.name);
    if (r.min_microvolt && r.max_microvolt && *r.min_microvolt == *r.max_microvolt)
        return fmt::format("vqmmc-supply {} is fixed at {}", name, microvolts(*r.min_microvolt));
    return fmt::format("vqmmc-supply {} ranges {} to {}", name, r.min_microvolt ? microvolts(*r.min_microvolt) : "?",
                       r.max_microvolt ? microvolts(*r.max_microvolt) : "?");
}

// The device-tree properties that would offer the modes above `best`.
std::string dt_properties_above(const FamilyModes& f, Mode best)
{
    if (f.family != regs::CardFamily::mmc)
        return f.index(best) < f.index(Mode::sdr50) ? "sd-uhs-sdr104 (and sd-uhs-sdr50, sd-uhs-ddr50)" : "sd-uhs-sdr104";
    if (f.index(best) < f.index(Mode::hs200)) return "mmc-hs200-1_8v (and mmc-hs400-1_8v on an 8-bit bus)";
    return best == Mode::hs200 ? "mmc-hs400-1_8v (on an 8-bit bus)" : "mmc-hs400-enhanced-strobe";
}

// The device-tree properties that offer a mode above `best`, which the node has.
std::vector<std::string> dt_properties_present_above(const DeviceTree& dt, const FamilyModes& f, Mode best)
{
    struct P {
        std::string_view prop;
        Mode mode;
    };
    static constexpr std::array<P, 10> props{{
        {"sd-uhs-sdr50", Mode::sdr50},       {"sd-uhs-ddr50", Mode::ddr50},       {"sd-uhs-sdr104", Mode::sdr104},
        {"mmc-ddr-1_8v", Mode::ddr52},       {"mmc-ddr-3_3v", Mode::ddr52},       {"mmc-hs200-1_8v", Mode::hs200},
        {"mmc-hs200-1_2v", Mode::hs200},     {"mmc-hs400-1_8v", Mode::hs400},     {"mmc-hs400-1_2v", Mode::hs400},
        {"mmc-hs400-enhanced-strobe", Mode::hs400es},
    }};
    std::vector<std::string> out;
    for (const auto& p : props)
        if (f.index(p.mode) > f.index(best) && dt.has(p.prop)) out.emplace_back(p.prop);
    return out;
}

// Who stops the host at `best` when its caps or its device tree offer no
// more: the controller (host), the board's device tree, or - where the
// evidence cannot tell them apart - unknown, with what would decide.
void own_host_stop(Host& h, const Evidence& e, const FamilyModes& f, Mode best)
{
    Side& s = h.side;
    const auto& dt = e.dt;
    if (h.source == HostSource::caps && e.dt_absent) {
        s.owner = Limit::host;
        s.evidence.push_back("caps of a host without a device-tree node (PCI or ACPI): they are the controller's own");
        return;
    }
    if (!dt) {
        s.owner = Limit::unknown;
        s.evidence.push_back("caps hold the controller's abilities and the device tree's properties together");
        s.would_decide = fmt::format("the host's device-tree node (from a file, or read live): without {} there the board's device "
                                     "tree stops it; with it, the controller or its driver does",
                                     dt_properties_above(f, best));
        return;
    }
    if (const auto asked = dt_properties_present_above(*dt, f, best); !asked.empty() && h.source == HostSource::caps) {
        s.owner = Limit::host;
        s.evidence.push_back(fmt::format("the device tree asks for {} but caps lack it: the driver dropped it", join(asked, ", ")));
        return;
    }
    const SocLimit* soc = soc_limit(*dt);
    const std::string node = dt->node.empty() ? std::string("the node") : dt->node;
    const std::optional<Mode> soc_best = soc ? f.soc_best(*soc) : std::nullopt;
    if (soc_best && f.index(*soc_best) > f.index(best)) {
        s.owner = Limit::board;
        s.evidence.push_back(fmt::format("{} supports up to {} ({})", soc->controller, to_string(*soc_best), soc->source));
        s.evidence.push_back(fmt::format("device tree {}: no {}", node, dt_properties_above(f, best)));
    } else if (soc_best) {
        s.owner = Limit::host;
        s.evidence.push_back(fmt::format("{} supports up to {} ({})", soc->controller, to_string(*soc_best), soc->source));
    } else {
        s.owner = Limit::unknown;
        s.evidence.push_back(fmt::format("device tree {}: no {}", node, dt_properties_above(f, best)));
        s.would_decide = fmt::format("whether the controller ({}) supports more than {}: its binding or its SoC's .dtsi; a row in "
                                     "the SoC table (libmmc/bus/soc_limits.cpp) records it",
                                     dt->compatible.empty() ? std::string("compatible unknown") : dt->compatible.front(),
                                     to_string(best));
    }
}

// Why the host stops at its best mode, in words, and what to try.
void describe_host(Host& h, const Evidence& e, const FamilyModes& f, const std::vector<std::string>& caps)
{
    Side& s = h.side;
    const auto best = f.best(s.modes);
    if (!s.known || best == f.top()) return;
    const bool is_mmc = f.family == regs::CardFamily::mmc;
    if (h.no_1_8_v || h.regulator_3v3) {
        const bool at_3v3 = e.ios.signal_voltage_v && *e.ios.signal_voltage_v > 3;
        const std::string why = h.no_1_8_v ? std::string("no-1-8-v") : regulator_text(*e.dt->vqmmc);
        s.why = fmt::format("the board has no 1.8 V I/O ({}{}), so {} impossible", why, at_3v3 ? ", signal voltage 3.30 V" : "",
                            is_mmc ? "HS200 and HS400 are" : "UHS modes are");
        s.owner = Limit::board;
        s.evidence.push_back(h.no_1_8_v ? "device tree: no-1-8-v" : "device tree: " + why);
        s.tries = {h.no_1_8_v ? "the faster modes need the I/O lines switched to 1.8 V: only on a board with a switchable vqmmc "
                                "regulator, drop no-1-8-v (or the sdhci.debug_quirks2=4 boot option, which does the same)"
                              : "the faster modes need a vqmmc-supply that reaches 1.8 V: point it at a switchable (1.8-3.3 V) "
                                "regulator if the board has one; a fixed 3.3 V rail cannot do it"};
        return;
    }
    own_host_stop(h, e, f, best);
    const bool dt = e.dt.has_value();
    const bool board = s.owner == Limit::board;
    // A controller the SoC table explains in a board user's words (the
    // Raspberry Pi hosts): that explanation, and what to do instead.
    if (const SocLimit* soc = dt ? soc_limit(*e.dt) : nullptr;
        soc && s.owner == Limit::host && f.soc_best(*soc) == best && !soc->why.empty()) {
        s.why = fmt::format("{} limits the bus to {}: {}", soc->controller, to_string(best), soc->why);
        s.hard_limit = soc->best_mode_is_limit;
        if (!soc->instead.empty()) s.tries.push_back(std::string(soc->instead));
        return;
    }
    if (h.source == HostSource::caps && !is_mmc) {
        if (best == Mode::legacy)
            s.why = "the host offers neither SD high speed nor UHS (caps has no SD_HIGHSPEED or UHS_* bits)";
        else if (f.index(best) <= f.index(Mode::hs))
            s.why = "the host offers no UHS mode (caps has no UHS_* bits)";
        else
            s.why = fmt::format("the host offers UHS only up to {} (caps has no UHS_SDR104)", to_string(best));
    } else if (h.source == HostSource::caps) {
        if (f.index(best) <= f.index(Mode::mmc_hs))
            s.why = "the host offers no DDR52, HS200 or HS400 (caps has no *_DDR bit, caps2 no HS200_*/HS400_* bits)";
        else if (best == Mode::ddr52)
            s.why = "the host offers no HS200 or HS400 (caps2 has no HS200_*/HS400_* bits)";
        else if (best == Mode::hs200)
            s.why = contains(caps, "HS400_1_8V") || contains(caps, "HS400_1_2V")
                        ? "the host offers HS400 only on an 8-bit bus, and caps has no 8_BIT_DATA"
                        : "the host offers no HS400 (caps2 has no HS400_* bits)";
        else
            s.why = "the host offers no HS400 enhanced strobe (caps2 has no HS400_ES)";
    } else if (!is_mmc) {
        s.why = f.index(best) <= f.index(Mode::hs)
                    ? std::string("the device tree names no UHS mode (no sd-uhs-* property)")
                    : fmt::format("the device tree names UHS only up to {} (no sd-uhs-sdr104)", to_string(best));
    } else {
        if (f.index(best) <= f.index(Mode::mmc_hs))
            s.why = "the device tree names no DDR52, HS200 or HS400 mode (no mmc-ddr-*, mmc-hs200-*, mmc-hs400-* property)";
        else if (best == Mode::ddr52)
            s.why = "the device tree names no HS200 or HS400 mode (no mmc-hs200-*/mmc-hs400-* property)";
        else if (best == Mode::hs200)
            s.why = "the device tree names no HS400 mode (no mmc-hs400-* property)";
        else
            s.why = "the device tree names no enhanced strobe (no mmc-hs400-enhanced-strobe)";
    }
    // What to try follows the owner: an overlay for the board, another
    // host for the host, the evidence that decides for unknown.
    if (board) {
        s.tries.push_back(fmt::format(
            "a device-tree overlay adding {} to {}{}; the board may have left it out on purpose (I/O voltage, trace length): "
            "afterwards watch the kernel log for CRC errors and tuning failures under load",
            dt_properties_above(f, best), e.dt->overlay_target(),
            is_mmc ? " (only if the eMMC's I/O is powered at 1.8 V)" : " (with a vqmmc-supply that reaches 1.8 V)"));
    } else if (s.owner == Limit::host) {
        if (!is_mmc)
            s.tries.push_back(f.index(best) < f.index(Mode::sdr50) ? "a UHS-I capable host or reader is needed for a faster mode"
                                                               : "a host with UHS_SDR104 would run faster");
        else if (f.index(best) < f.index(Mode::hs200))
            s.tries.push_back("a host with HS200/HS400 (caps2 HS200_*, HS400_*) and an 8-bit bus would run faster");
        else
            s.tries.push_back(best == Mode::hs200 ? "a host with HS400 (caps2 HS400_*) on an 8-bit bus would run faster"
                                              : "a host with HS400 enhanced strobe (caps2 HS400_ES) would run faster");
    } else if (!s.would_decide.empty()) {
        s.tries.push_back(dt ? "look up what the controller supports (its binding, its SoC's .dtsi) before adding a mode to the "
                               "device tree"
                             : "give the host's device tree to tell the controller from the board");
    }
}

// ---- the clock --------------------------------------------------------

// The clock the bus really runs: the actual clock where the driver reports a
// plausible one. Dividers give 1/2 or 5/6 of a request, never 1/16 or twice.
std::optional<double> bus_clock(const Ios& ios, std::vector<Finding>& findings)
{
    const auto requested = ios.clock_hz;
    const auto actual = ios.actual_clock_hz;
    if (actual && requested && *requested > 0 && (*actual * 16 < *requested || *actual > *requested * 2)) {
        findings.push_back({Severity::warning, fmt::format("actual clock {} is impossible for a {} request (a driver reporting bug); "
                                                   "the requested clock is used",
                                                   hz_text(static_cast<double>(*actual)), hz_text(static_cast<double>(*requested)))});
        return static_cast<double>(*requested);
    }
    if (actual && *actual > 0) return static_cast<double>(*actual);
    if (requested && *requested > 0) {
        findings.push_back({Severity::info, "the driver reports no actual clock; the requested clock is used"});
        return static_cast<double>(*requested);
    }
    if (requested)
        findings.push_back({Severity::warning, "clock 0 Hz with the card powered: the clock is gated between requests; "
                                       "read ios while the card is busy, e.g. during dd"});
    return std::nullopt;
}

// The first log event of these kinds, if the log was read and has one.
const LogEvent* first_event(const Evidence& e, std::initializer_list<LogEventKind> kinds)
{
    if (!e.log) return nullptr;
    for (const auto& ev : e.log->events)
        for (auto k : kinds)
            if (ev.kind == k) return &ev;
    return nullptr;
}

std::string log_line(const LogEvent& ev) { return fmt::format("kernel log line {}: {}", ev.line, ev.text); }

// Who set a device-tree clock cap below the mode's rate: the SoC (its .dtsi
// value, from the table), the board (lower than what the controller does),
// or unknown when the table does not know the controller.
void own_clock_cap(Shortfall& s, const Evidence& e, std::string_view property, uint32_t cap, const ModeSpec& spec, double hz)
{
    const DeviceTree& dt = *e.dt;
    const SocLimit* soc = soc_limit(dt);
    const std::string prop = fmt::format("{} = <{}>", property, cap);
    s.evidence.push_back(fmt::format("device tree {}: {}", dt.node.empty() ? std::string("node") : dt.node, prop));
    s.text = fmt::format("{} ({}) caps the clock at {}; {} runs up to {}", property, hz_text(cap), hz_text(hz), to_string(spec.mode),
                         hz_text(spec.clock_hz));
    if (soc && soc->clock_hz > 0 && cap < soc->clock_hz / negligible_gain) {
        s.owner = Limit::board;
        s.evidence.push_back(fmt::format("{} runs {} {} ({})", soc->controller, soc->clock_is_limit ? "up to" : "at least",
                                         hz_text(soc->clock_hz), soc->source));
        s.text += fmt::format(": the board's device tree sets it below the {} {} runs", hz_text(soc->clock_hz), soc->controller);
        s.tries.push_back(fmt::format("a device-tree overlay raising it ({} {{ {} = <{}>; }};) - the board may have lowered it for "
                                      "signal integrity: afterwards watch the kernel log for CRC errors and tuning failures, "
                                      "and go back if they appear",
                                      dt.overlay_target(), property,
                                      static_cast<uint64_t>(std::min(soc->clock_hz, spec.clock_hz))));
    } else if (soc && soc->clock_hz > 0 && soc->clock_is_limit) {
        s.owner = Limit::host;
        s.evidence.push_back(fmt::format("{} is limited to {} by its SoC ({})", soc->controller, hz_text(soc->clock_hz), soc->source));
        s.text += fmt::format(": the SoC's own limit for {}", soc->controller);
        s.tries.push_back("the SoC limits this controller: no card or board setting raises it; a reader on another bus (a USB 3 "
                          "UHS-I reader) can");
    } else {
        s.owner = Limit::unknown;
        s.would_decide = fmt::format("the max-frequency the SoC's .dtsi gives this controller ({}): the same value means the SoC "
                                     "limits it, a higher one means the board lowered it (a row in libmmc/bus/soc_limits.cpp "
                                     "records it)",
                                     dt.compatible.empty() ? std::string("compatible unknown") : dt.compatible.front());
        s.tries.push_back("find out whether the SoC or the board set it: " + s.would_decide);
    }
}

// Width and clock below what the mode is rated for.
void delivery_shortfalls(const Evidence& e, const ModeSpec& spec, double hz, const std::vector<std::string>& caps,
                         std::vector<Shortfall>& out, std::vector<Finding>& notes)
{
    const auto& ios = e.ios;
    const auto& dt = e.dt;
    if (ios.bus_width_bits && *ios.bus_width_bits < spec.width_bits) {
        const int width = *ios.bus_width_bits;
        const std::string need = spec.width_bits == 8 ? "8_BIT_DATA" : "4_BIT_DATA";
        Shortfall s{Limit::unknown, static_cast<double>(spec.width_bits) / width,
                    fmt::format("the bus runs {} bit{} wide; {} is rated for {}", width, width == 1 ? "" : "s", to_string(spec.mode),
                                spec.width_bits),
                    {}, Mechanism::bus_width, {}, {}};
        const SocLimit* soc = dt ? soc_limit(*dt) : nullptr;
        if (soc && soc->max_bus_width && soc->max_bus_width <= width) {
            s.owner = Limit::host;
            s.text += fmt::format(" ({} has {} data lines)", soc->controller, soc->max_bus_width);
            s.evidence.push_back(fmt::format("{}: {} data lines ({})", soc->controller, soc->max_bus_width, soc->source));
        } else if (dt && dt->bus_width && static_cast<int>(*dt->bus_width) < spec.width_bits) {
            s.owner = Limit::board;
            s.text += fmt::format(" (device tree bus-width = <{}>)", *dt->bus_width);
            s.evidence.push_back(fmt::format("device tree: bus-width = <{}>", *dt->bus_width));
            s.tries.push_back(fmt::format("set bus-width = <{}> in the device-tree node if all the data lines are wired", spec.width_bits));
        } else if (e.caps) {
            if (!contains(caps, need)) {
                s.owner = e.dt_absent || dt ? Limit::host : Limit::unknown;
                s.text += fmt::format(" (the host has no {}-bit bus: caps has no {})", spec.width_bits, need);
                s.evidence.push_back(fmt::format("caps: no {}", need));
                if (s.owner == Limit::unknown)
                    s.would_decide = "the host's device tree: a bus-width there below the mode's means the board";
                s.tries.push_back(fmt::format("a host with {} {}-bit bus would raise the ceiling {}x", spec.width_bits == 8 ? "an" : "a",
                                              spec.width_bits, spec.width_bits / width));
            } else {
                s.owner = Limit::board;
                s.text += fmt::format(" although caps has {}: the wiring or the bus test kept it narrower", need);
                s.evidence.push_back(fmt::format("caps: {}, bus width {} in ios", need, width));
            }
        } else {
            s.would_decide = "the host's caps (debugfs) or its device tree's bus-width";
        }
        out.push_back(s);
    }
    if (hz >= spec.clock_hz * divider_granularity) {
        if (hz < spec.clock_hz / negligible_gain)
            notes.push_back({Severity::info, fmt::format("clock {} for {}'s {}: full speed within the divider's granularity, not a limit",
                                                 hz_text(hz), to_string(spec.mode), hz_text(spec.clock_hz))});
        return;
    }
    Shortfall s{Limit::unknown, spec.clock_hz / hz, {}, {}, Mechanism::clock, {}, {}};
    const double requested = ios.clock_hz ? static_cast<double>(*ios.clock_hz) : hz;
    // The cap the device tree puts on this mode's clock: max-frequency, or
    // max-sd-hs-hz for SD high speed.
    std::optional<std::pair<std::string_view, uint32_t>> cap;
    if (dt && spec.mode == Mode::hs && dt->max_sd_hs_hz) cap = {{"max-sd-hs-hz", *dt->max_sd_hs_hz}};
    if (dt && dt->max_frequency && (!cap || *dt->max_frequency < cap->second)) cap = {{"max-frequency", *dt->max_frequency}};
    const auto* step_down = first_event(e, {LogEventKind::step_down});
    if (cap && cap->second < spec.clock_hz * divider_granularity && requested <= cap->second * negligible_gain) {
        own_clock_cap(s, e, cap->first, cap->second, spec, hz);
    } else if (spec.mode == Mode::mmc_hs && e.device_type && !(*e.device_type & 0x02) && requested <= 26e6) {
        s.owner = Limit::card;
        s.text = fmt::format("the card does high-speed timing only at 26 MHz (DEVICE_TYPE 0x{:02x}), so the clock is {}",
                             *e.device_type, hz_text(hz));
        s.evidence.push_back(fmt::format("EXT_CSD DEVICE_TYPE 0x{:02x}", *e.device_type));
    } else if (step_down) {
        s.owner = Limit::tuning;
        s.text = fmt::format("clock {}, below {}'s {}: the driver lowered it after errors", hz_text(hz), to_string(spec.mode), hz_text(spec.clock_hz));
        s.evidence.push_back(log_line(*step_down));
        s.tries.push_back("read the kernel log around the errors; try another card - if several cards do it, the board's signal "
                          "integrity is marginal at this clock");
    } else if (hz < requested / negligible_gain) {
        s.owner = Limit::host;
        s.text = fmt::format("clock {} actual for {} requested, below {}'s {}: the controller's divider cannot make the rate",
                             hz_text(hz), hz_text(requested), to_string(spec.mode), hz_text(spec.clock_hz));
        s.evidence.push_back(fmt::format("ios: actual clock {} for {} requested", hz_text(hz), hz_text(requested)));
        s.tries.push_back(dt ? "the clock comes from the controller's source clock and divider; a different source clock rate "
                               "(assigned-clock-rates in the device tree) may divide closer to the mode's clock"
                             : "the clock is the controller's own: neither the card nor the mode changes it; another host "
                               "controller or reader may clock closer to the mode's rate");
    } else if (dt || e.dt_absent) {
        s.owner = Limit::host;
        s.text = fmt::format("clock {}, below {}'s {}: the controller's maximum clock (f_max){}", hz_text(hz), to_string(spec.mode),
                             hz_text(spec.clock_hz), dt ? ", with no max-frequency as low in its device tree" : "");
        s.evidence.push_back(fmt::format("ios: clock {} requested", hz_text(requested)));
        s.evidence.push_back(dt ? fmt::format("device tree: no max-frequency at or below {}", hz_text(requested))
                                : "no device-tree node (PCI or ACPI host)");
        s.tries.push_back("the controller's clock limits it: another host controller or reader may clock closer to the mode's rate");
    } else {
        s.text = fmt::format("clock {}, below {}'s {} (the host's maximum clock f_max, which a device-tree max-frequency also sets)",
                             hz_text(hz), to_string(spec.mode), hz_text(spec.clock_hz));
        s.would_decide = "the host's device tree (from a file, or read live): a max-frequency there is the board's or the SoC's setting; "
                         "none means the controller's own maximum";
        s.tries.push_back("give the host's device tree to tell whether the controller or a device-tree setting caps "
                          "the clock");
    }
    out.push_back(s);
}

// ---- the mode ---------------------------------------------------------

// The bus runs below what both sides offer: a fallback. The kernel log says
// why; without it, the cause is unknown.
Shortfall fallback(const Evidence& e, const FamilyModes& f, Mode mode, Mode shared, const Host& host)
{
    Shortfall s{Limit::unknown, f.ceiling(shared) / f.ceiling(mode), {}, {}, Mechanism::mode, {}, {}};
    const bool at_3v3 = e.ios.signal_voltage_v && *e.ios.signal_voltage_v > 3;
    const bool needs_1v8 = (f.bit(shared) & f.low_voltage()) != 0;
    if (const auto* ev = first_event(e, {LogEventKind::card_unsupported})) {
        s.owner = Limit::card;
        s.text += ": the card refused a function it needs";
        s.evidence.push_back(log_line(*ev));
        s.tries.push_back("a different card (the kernel log shows this one refusing a function)");
    } else if (const auto* ev = first_event(e, {LogEventKind::voltage_switch_failed}); ev && needs_1v8) {
        s.evidence.push_back(log_line(*ev));
        if (e.dt && e.dt->vqmmc && e.dt->vqmmc->min_microvolt && !e.dt->vqmmc->reaches_1v8()) {
            s.owner = Limit::board;
            s.text += ": the switch to 1.8 V failed, and the I/O regulator cannot make 1.8 V";
            s.evidence.push_back("device tree: " + regulator_text(*e.dt->vqmmc));
        } else {
            s.text += ": the switch to 1.8 V signalling failed";
            s.would_decide = "the same card in another UHS host (if it switches there, this board's regulator or wiring is the "
                             "cause), and the vqmmc-supply regulator's range in the device tree";
        }
        s.tries.push_back("check the slot's vqmmc-supply regulator (it must reach 1.8 V) and try another card");
    } else if (const auto* ev = first_event(e, {LogEventKind::tuning_failed, LogEventKind::mode_switch_failed,
                                                LogEventKind::step_down, LogEventKind::crc_error})) {
        s.owner = Limit::tuning;
        s.text += fmt::format(": the kernel fell back after {}", log_event_name(ev->kind));
        s.evidence.push_back(log_line(*ev));
        s.tries.push_back("read the kernel log around that line; try another card - if several cards fall back the same way, "
                          "the board's signal integrity is marginal at the faster mode (a lower mode or max-frequency in the "
                          "device tree makes it stable)");
    } else if (at_3v3 && needs_1v8 && (host.no_1_8_v || host.regulator_3v3)) {
        s.owner = Limit::board;
        s.text += " at 3.30 V: the board has no 1.8 V I/O";
        s.evidence.insert(s.evidence.end(), host.side.evidence.begin(), host.side.evidence.end());
    } else {
        s.text += at_3v3 && needs_1v8 ? " at 3.30 V: the switch to 1.8 V signalling did not happen"
                                       : ": the kernel fell back to a lower mode";
        // What is known to hold this board's host below its best (a Raspberry
        // Pi's kernel command line, for one).
        if (const SocLimit* soc = e.dt ? soc_limit(*e.dt) : nullptr; soc && !soc->below_best_hint.empty())
            s.tries.push_back(std::string(soc->below_best_hint));
        s.would_decide = e.log ? "the kernel log names no tuning, switch or CRC failure for this host; the log from the card's "
                                 "insertion (dmesg after a re-plug) would"
                               : "the kernel log (from a file, or read live as root): a tuning, voltage-switch or CRC failure there "
                                 "names the cause";
        if (at_3v3 && needs_1v8)
            s.tries.push_back("check the slot's vqmmc-supply regulator (it must reach 1.8 V) and the kernel log for "
                              "voltage-switch errors");
        else
            s.tries.push_back("read the kernel log (dmesg | grep mmc) for tuning or CRC errors");
    }
    return s;
}

void mode_shortfalls(const Evidence& e, const FamilyModes& f, Mode mode, const Side& card, const Host& host_info,
                     std::vector<Shortfall>& out, std::vector<Finding>& info)
{
    const Side& host = host_info.side;
    const auto card_best = f.best(card.modes);
    const auto host_best = f.best(host.modes);
    const auto shared = f.best(card.modes & host.modes);
    const double here = f.ceiling(mode);

    if (f.index(mode) < f.index(shared)) {
        // Both sides (as far as known) offer more than runs.
        Shortfall s = fallback(e, f, mode, shared, host_info);
        const std::string prefix =
            card.known && host.known ? fmt::format("the host offers {} and the card {}, but the bus runs {}", to_string(host_best),
                                                   to_string(card_best), to_string(mode))
            : host.known ? fmt::format("the host offers up to {} but the bus runs {}", to_string(host_best), to_string(mode))
            : card.known ? fmt::format("the card supports up to {} but the bus runs {}", to_string(card_best), to_string(mode))
                         : std::string();
        if (!prefix.empty() && (s.owner != Limit::unknown || (card.known && host.known))) {
            s.text = prefix + s.text;
            out.push_back(s);
            return;
        }
        if (s.owner != Limit::unknown) {
            s.text = fmt::format("the bus runs {}{}", to_string(mode), s.text);
            out.push_back(s);
            return;
        }
        // One side unknown and no log evidence: that side or a fallback.
        if (host.known) {
            s.text = fmt::format("{}; the card's capabilities were not read, so the card or a fallback is the reason", prefix);
            s.would_decide = "the card's registers (mmc-info): if it supports more, a fallback (the kernel log says which)";
            s.tries.insert(s.tries.begin(), "read the card's registers (mmc-info) to see what it supports");
        } else if (card.known) {
            s.text = fmt::format("{}; the host's caps were not read, so the host or a fallback is the reason", prefix);
            s.would_decide = "the host's caps (debugfs) or device tree, and the kernel log";
            s.tries.insert(s.tries.begin(), fmt::format("read the host's caps (/sys/kernel/debug/{}/caps, as root)",
                                                        e.host.empty() ? "mmcN" : e.host));
        } else {
            s.text = fmt::format("either the host or the card stops at {} (the kernel runs the best mode both offer); the "
                                 "host's caps and the card's registers would tell which",
                                 to_string(mode));
            s.would_decide = "the host's caps or device tree and the card's registers (mmc-info)";
            s.tries = {fmt::format("read the host's caps (/sys/kernel/debug/{}/caps, as root) and the card's registers "
                                   "(mmc-info) to tell which side limits",
                                   e.host.empty() ? "mmcN" : e.host)};
        }
        out.push_back(s);
        return;
    }
    // The running mode is the best both share: whoever stops there limits.
    // Fixing one side alone raises the ceiling to what the other side offers.
    if (mode == f.top()) return;
    const auto evidence_of = [](const Side& side) { return side.evidence.empty() ? std::vector<std::string>{side.why} : side.evidence; };
    if (host_best == mode)
        out.push_back({host.owner, std::max(1.0, f.ceiling(card_best) / here), host.why, host.tries,
                       host_info.no_1_8_v || host_info.regulator_3v3 ? Mechanism::signal_voltage : Mechanism::mode, evidence_of(host),
                       host.would_decide, host.hard_limit});
    else if (host.known && !host.why.empty())
        info.push_back({Severity::info, host.why});
    if (card_best == mode)
        out.push_back({card.owner, std::max(1.0, f.ceiling(host_best) / here), card.why, card.tries, Mechanism::mode, evidence_of(card), {}});
    else if (!card.why.empty())
        info.push_back({Severity::info, card.why});
}

int owner_rank(Limit owner)
{
    constexpr std::array<Limit, 5> order{Limit::board, Limit::host, Limit::card, Limit::tuning, Limit::unknown};
    return static_cast<int>(std::find(order.begin(), order.end(), owner) - order.begin());
}

void add_unique(std::vector<std::string>& list, const std::vector<std::string>& items)
{
    for (const auto& i : items)
        if (!contains(list, i)) list.push_back(i);
}

} // namespace

std::string_view to_string(Limit l)
{
    switch (l) {
    case Limit::host: return "host";
    case Limit::board: return "board";
    case Limit::card: return "card";
    case Limit::tuning: return "tuning";
    case Limit::none: return "none";
    case Limit::unknown: return "unknown";
    case Limit::not_storage: return "not storage";
    case Limit::powered_off: return "powered off";
    }
    return "unknown";
}

std::string_view to_string(Mechanism m)
{
    switch (m) {
    case Mechanism::none: return "";
    case Mechanism::mode: return "mode";
    case Mechanism::clock: return "clock";
    case Mechanism::bus_width: return "bus width";
    case Mechanism::signal_voltage: return "signal voltage";
    }
    return "";
}

std::string_view to_string(Severity s)
{
    switch (s) {
    case Severity::limit: return "limit";
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    }
    return "info";
}

Diagnosis diagnose(const Evidence& e)
{
    Diagnosis d;
    d.host = e.host.empty() ? e.ios.host : e.host;
    d.ios = e.ios;
    identify_card(e, d);
    if (e.caps) d.caps_names = decode_caps(*e.caps, e.kernel_version);
    if (e.caps2) add_unique(d.caps_names, decode_caps2(*e.caps2, e.kernel_version));
    std::vector<std::string> caps = d.caps_names;
    // Mainline numbered HS400 into caps2 only from v3.15; older (vendor) trees
    // used those bits for other things, so they prove nothing.
    if (e.caps2 && kernel_before(e.kernel_version, 3, 15)) {
        std::erase_if(caps, [](const std::string& n) { return n.rfind("HS400", 0) == 0; });
        d.findings.push_back({Severity::warning, fmt::format("kernel {} predates mainline HS400 (v3.15), when caps2 bits from 7 up "
                                                     "meant other things; its HS400 bits are ignored",
                                                     e.kernel_version)});
    }

    d.mode = mode_name(e.ios);
    if (d.mode == Mode::off) {
        d.limit = Limit::powered_off;
        d.findings.push_back({Severity::limit, "card powered off (runtime PM): nothing can be said; read ios while the card is busy, "
                                       "e.g. during dd"});
        d.suggestions.push_back(fmt::format("read /sys/kernel/debug/{}/ios while reading the card, e.g. during "
                                            "dd if=/dev/mmcblkN of=/dev/null bs=1M count=256",
                                            d.host.empty() ? "mmcN" : d.host));
        return d;
    }

    std::vector<Finding> notes; // info and warnings, after the limits
    const auto spec = d.mode ? mode_spec(*d.mode, d.card) : std::nullopt;
    std::optional<double> hz;
    if (spec) {
        d.mode_ceiling_mb_s = mode_ceiling_mb_s(spec->mode, d.card);
        hz = bus_clock(e.ios, notes);
        if (hz && e.ios.bus_width_bits)
            d.clock_ceiling_mb_s = *hz * *e.ios.bus_width_bits * (spec->ddr ? 2 : 1) / 8 / 1e6;
        d.ceiling_mb_s = d.clock_ceiling_mb_s ? std::min(*d.mode_ceiling_mb_s, *d.clock_ceiling_mb_s) : d.mode_ceiling_mb_s;
    }

    if (d.sdio) {
        // Wi-Fi and other SDIO functions: the bus is not a disk's bus.
        d.ceiling_mb_s.reset();
        d.limit = Limit::not_storage;
        const std::string who = d.host.empty()                 ? "this host"
                                : d.host.rfind("sdio", 0) == 0 ? fmt::format("the host whose debugfs directory is named {}", d.host)
                                                               : d.host;
        d.findings.push_back({Severity::limit, who + " is an SDIO function (such as Wi-Fi), not storage"});
        if (spec && hz) {
            std::vector<Shortfall> clock;
            delivery_shortfalls(e, *spec, *hz, caps, clock, notes);
            for (const auto& s : clock) notes.push_back({Severity::info, s.text});
        }
        d.findings.insert(d.findings.end(), notes.begin(), notes.end());
        d.suggestions.push_back("for SDIO throughput look at the function's driver and any cable or riser, not the storage bus");
        return d;
    }
    if (!spec) {
        d.limit = Limit::unknown;
        d.findings.push_back({Severity::warning, e.ios.timing.empty()
                                             ? std::string("no timing line: the mode is unknown")
                                             : fmt::format("the kernel printed timing \"{}\"{}: this debugfs has no name for the mode "
                                                           "(SD Express and UHS-II have none)",
                                                           e.ios.timing, e.ios.timing_code ? fmt::format(" ({})", *e.ios.timing_code) : "")});
        return d;
    }

    std::vector<Shortfall> shortfalls;
    const FamilyModes* family = !d.card ? nullptr : *d.card == regs::CardFamily::mmc ? &mmc_family : &sd_family;
    if (family && family->index(spec->mode) < 0) {
        notes.push_back({Severity::warning, fmt::format("{} is no {} mode: the card type and the timing disagree", to_string(spec->mode),
                                                d.card == regs::CardFamily::mmc ? "MMC" : "SD")});
        family = nullptr;
    }
    if (family) {
        const FamilyModes& f = *family;
        // The running mode proves both sides can do it (high-speed timing at
        // 26 MHz or less proves only HS26).
        ModeSet proven = f.bit(spec->mode);
        if (spec->mode == Mode::mmc_hs && e.ios.clock_hz && *e.ios.clock_hz <= 26000000) proven = f.bit(Mode::hs26);
        Host host = host_modes(e, f, caps);
        if (host.side.known) host.side.modes |= proven;
        describe_host(host, e, f, caps);
        const Side card = d.card == regs::CardFamily::mmc
                              ? mmc_card(e, proven)
                              : sd_card(e, proven, !host.side.known || (host.side.modes & f.low_voltage()) != 0);
        if (host.side.known) d.host_best_mode = f.best(host.side.modes);
        if (card.known) d.card_best_mode = f.best(card.modes);
        if (!card.known && !card.why.empty()) notes.push_back({Severity::info, card.why});
        mode_shortfalls(e, f, f.best(proven), card, host, shortfalls, notes);
    } else if (!d.card) {
        notes.push_back({Severity::info, "the card type is unknown, so neither side's best mode can be judged"});
    }
    if (hz) delivery_shortfalls(e, *spec, *hz, caps, shortfalls, notes);

    // The limit is the shortfall whose fix alone raises the ceiling most. When
    // card and host stop at the same mode neither alone helps; the card names
    // it then, because a host's caps can be changed in its device tree and a
    // card's registers cannot.
    std::stable_sort(shortfalls.begin(), shortfalls.end(), [](const Shortfall& a, const Shortfall& b) {
        if (a.gain != b.gain) return a.gain > b.gain;
        // A SoC's own limit (the Pi 3's sdhost) is as fixed as a card's
        // registers, and it holds for every card: it names the tie.
        if (a.gain < negligible_gain && a.hard_limit != b.hard_limit) return a.hard_limit;
        const bool a_card = a.owner == Limit::card, b_card = b.owner == Limit::card;
        return a_card != b_card && a.gain < negligible_gain ? a_card : owner_rank(a.owner) < owner_rank(b.owner);
    });
    if (!shortfalls.empty()) {
        const Shortfall& top = shortfalls.front();
        d.limit = top.owner;
        d.mechanism = top.mechanism;
        d.decided_by = top.evidence;
        d.would_decide = top.would_decide;
        if (d.limit == Limit::unknown && d.would_decide.empty())
            d.would_decide = "the host's caps or device tree, the card's registers (mmc-info) and the kernel log";
    } else {
        d.limit = family ? Limit::none : Limit::unknown;
        if (family)
            d.decided_by.push_back(fmt::format("ios: {}{}", to_string(spec->mode), hz ? fmt::format(" at {}", hz_text(*hz)) : std::string()));
        else
            d.would_decide = "the card type (SD or MMC)";
    }

    for (const auto& s : shortfalls) {
        d.findings.push_back({Severity::limit, s.text});
        add_unique(d.suggestions, s.tries);
    }
    if (d.limit == Limit::none)
        d.findings.push_back({Severity::info, fmt::format("the bus runs {} {}: the bus is not what limits throughput; look at the "
                                                  "card or the I/O path (queueing, filesystem)",
                                                  to_string(spec->mode),
                                                  d.clock_ceiling_mb_s ? fmt::format("at its full clock ({})", mb_text(*d.ceiling_mb_s))
                                                  : hz                 ? fmt::format("at its full clock ({})", hz_text(*hz))
                                                                       : std::string("(no clock line to check)"))});
    d.findings.insert(d.findings.end(), notes.begin(), notes.end());
    return d;
}

} // namespace mmc::bus
