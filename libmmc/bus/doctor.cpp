// The bus-mode doctor. The kernel runs the best mode that both the card and
// the host offer, at the clock the host can make, on the width both wire. So
// the ceiling falls short of the best possible for one of four reasons: a side
// that offers no better mode (card, or host: its caps, or the board's device
// tree), a narrow bus, or a low clock. Each shortfall is weighed by how much
// the ceiling would rise if that one thing were fixed; the biggest names the
// limit, and every shortfall is reported with its evidence.
#include "bus/doctor.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <span>

namespace mmc::bus {

bool DeviceTree::has(std::string_view flag) const { return std::find(flags.begin(), flags.end(), flag) != flags.end(); }

namespace {

// A shortfall smaller than this is rounding (198 MHz for HS400's 200).
constexpr double negligible_gain = 1.02;

// Each family's modes, worst first; among modes of equal ceiling, in the order
// the kernel prefers them (it picks DDR50 over SDR50, UHS SDR25 over HS).
using ModeList = std::array<std::string_view, 7>;
constexpr ModeList sd_modes{"legacy", "SDR12", "HS", "SDR25", "SDR50", "DDR50", "SDR104"};
constexpr ModeList mmc_modes{"legacy", "HS26", "MMC-HS", "DDR52", "HS200", "HS400", "HS400ES"};

using ModeSet = uint32_t;
constexpr ModeSet any_mode = (1u << 7) - 1;

struct Family {
    CardKind kind;
    const ModeList& modes;

    int index(std::string_view mode) const
    {
        const auto it = std::find(modes.begin(), modes.end(), mode);
        return it == modes.end() ? -1 : static_cast<int>(it - modes.begin());
    }
    ModeSet bit(std::string_view mode) const { return index(mode) < 0 ? 0 : 1u << index(mode); }
    std::string_view best(ModeSet set) const
    {
        for (int i = static_cast<int>(modes.size()) - 1; i >= 0; --i)
            if (set >> i & 1) return modes[static_cast<std::size_t>(i)];
        return {};
    }
    std::string_view top() const { return modes.back(); }
    double ceiling(std::string_view mode) const { return mode_ceiling_mb_s(mode, kind).value_or(0); }
    // Modes that need 1.8 V (or 1.2 V) I/O: every UHS-I mode, HS200 and up.
    ModeSet low_voltage() const
    {
        return kind == CardKind::mmc ? bit("HS200") | bit("HS400") | bit("HS400ES")
                                     : bit("SDR12") | bit("SDR25") | bit("SDR50") | bit("DDR50") | bit("SDR104");
    }
};

const Family sd_family{CardKind::sd, sd_modes};
const Family mmc_family{CardKind::mmc, mmc_modes};

// What one side (card or host) offers, and in whose name it stops.
struct Side {
    ModeSet modes = any_mode; // unknown: could be anything
    bool known = false;
    std::string owner;        // "card", "host" or "board"
    std::string why;          // the evidence for its best mode, in words
    std::vector<std::string> tries;
};

// A reason the ceiling is below the best possible.
struct Shortfall {
    std::string owner;
    double gain = 1; // ceiling x gain if this alone were fixed
    std::string text;
    std::vector<std::string> tries;
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

// The card in the slot, from the most direct evidence available.
CardKind card_kind(const Evidence& e, const std::string& host)
{
    if (e.card != CardKind::unknown) return e.card;
    // A vendor kernel named the debugfs directory of its SDIO Wi-Fi host "sdio".
    if (host.rfind("sdio", 0) == 0) return CardKind::sdio;
    const auto& m = e.kernel_message;
    if (m.find(" SDIO card") != std::string::npos) return CardKind::sdio;
    if (m.find(" MMC card") != std::string::npos) return CardKind::mmc;
    for (const char* sd : {" SD card", " SDHC card", " SDXC card", " SDUC card", "-combo card"})
        if (m.find(sd) != std::string::npos) return CardKind::sd;
    if (e.device_type) return CardKind::mmc;
    if (e.s18a || e.uhs_speed_grade || !e.sd_bus_speeds_supported.empty()) return CardKind::sd;
    if (e.ios.timing.rfind("mmc ", 0) == 0) return CardKind::mmc;
    if (e.ios.timing.rfind("sd ", 0) == 0) return CardKind::sd;
    return CardKind::unknown;
}

// ---- the card ---------------------------------------------------------

// SD: CMD6 function group 1 says exactly; OCR S18A and the SSR UHS grade only
// say whether the card is UHS-I at all. A card answers S18A=1 only when the
// host asked for 1.8 V, so S18A=0 from a host without UHS proves little.
Side sd_card(const Evidence& e, ModeSet proven, bool host_asks_1_8v)
{
    const Family& f = sd_family;
    const auto& listed = e.sd_bus_speeds_supported;
    const auto lists = [&](std::string_view m) { return contains(listed, m); };
    const bool listed_uhs = lists("SDR50") || lists("SDR104") || lists("DDR50");

    Side s;
    s.owner = "card";
    std::vector<std::string> evidence;
    if (e.s18a) evidence.push_back(fmt::format("OCR S18A={}", *e.s18a ? 1 : 0));
    if (!listed.empty()) evidence.push_back("CMD6 lists " + join(listed, ", "));
    if (listed_uhs) {
        s.known = true;
        s.modes = f.bit("legacy") | f.bit("SDR12") | f.bit("SDR25") | (lists("SDR25") ? f.bit("HS") : 0);
        for (const char* m : {"SDR50", "SDR104", "DDR50"})
            if (lists(m)) s.modes |= f.bit(m);
        s.modes |= proven;
        s.why = fmt::format("the card supports UHS-I up to {} ({})", f.best(s.modes), join(evidence, ", "));
        s.tries.push_back("a UHS-I card rated for SDR104 would run faster in this host");
    } else if (e.s18a == true || e.uhs_speed_grade.value_or(0) > 0) {
        // UHS-I, fastest mode unknown: the card is no proven limit.
        if (e.uhs_speed_grade.value_or(0) > 0) evidence.push_back(fmt::format("SSR UHS speed grade U{}", *e.uhs_speed_grade));
        s.why = fmt::format("the card is UHS-I ({}); its fastest mode needs CMD6 to tell", join(evidence, ", "));
    } else if (!listed.empty() || e.s18a == false) {
        s.known = true;
        s.modes = f.bit("legacy") | (listed.empty() || lists("SDR25") ? f.bit("HS") : 0) | proven;
        if (!listed.empty()) evidence.back() = "CMD6 lists only " + join(listed, ", ");
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
    const Family& f = mmc_family;
    Side s;
    s.owner = "card";
    if (!e.device_type) return s;
    const unsigned t = *e.device_type;
    s.known = true;
    s.modes = f.bit("legacy");
    if (t & 0x01) s.modes |= f.bit("HS26");
    if (t & 0x02) s.modes |= f.bit("HS26") | f.bit("MMC-HS");
    if (t & 0x0c) s.modes |= f.bit("DDR52");
    if (t & 0x30) s.modes |= f.bit("HS200");
    if (t & 0xc0) s.modes |= f.bit("HS400");
    if ((t & 0xc0) && e.strobe_support == true) s.modes |= f.bit("HS400ES");
    s.modes |= proven;
    const auto best = f.best(s.modes);
    const std::string words = best == "MMC-HS" ? "HS52" : std::string(best);
    if (best == f.top())
        s.why = fmt::format("the card supports HS400ES (DEVICE_TYPE 0x{:02x}, STROBE_SUPPORT 1)", t);
    else
        s.why = fmt::format("the card is limited to {} by its DEVICE_TYPE 0x{:02x}{}", words, t,
                            best == "HS400" ? fmt::format(" (STROBE_SUPPORT {})", e.strobe_support == true ? 1 : 0) : "");
    s.tries.push_back("the eMMC itself stops here: only a different eMMC part runs a faster mode");
    return s;
}

// ---- the host ---------------------------------------------------------

enum class HostSource { none, caps, device_tree };

struct Host {
    Side side;
    HostSource source = HostSource::none;
    bool no_1_8_v = false;
};

// caps and caps2 hold what the controller can do plus what the device tree
// asked for. Without them, the device-tree flags are the evidence
// (mmc_of_parse turns them into caps; a driver may add more itself, which the
// running mode then proves).
Host host_modes(const Evidence& e, const Family& f, const std::vector<std::string>& caps)
{
    struct Flag {
        std::string_view cap, dt_flag, mode;
    };
    static constexpr std::array<Flag, 6> sd_flags{{
        {"SD_HIGHSPEED", "cap-sd-highspeed", "HS"},
        {"UHS_SDR12", "sd-uhs-sdr12", "SDR12"},
        {"UHS_SDR25", "sd-uhs-sdr25", "SDR25"},
        {"UHS_SDR50", "sd-uhs-sdr50", "SDR50"},
        {"UHS_SDR104", "sd-uhs-sdr104", "SDR104"},
        {"UHS_DDR50", "sd-uhs-ddr50", "DDR50"},
    }};
    // mmc-hs400-* also sets the HS200 cap of its voltage.
    static constexpr std::array<Flag, 12> mmc_flags{{
        {"MMC_HIGHSPEED", "cap-mmc-highspeed", "HS26"},
        {"MMC_HIGHSPEED", "cap-mmc-highspeed", "MMC-HS"},
        {"3_3V_DDR", "mmc-ddr-3_3v", "DDR52"},
        {"1_8V_DDR", "mmc-ddr-1_8v", "DDR52"},
        {"1_2V_DDR", "mmc-ddr-1_2v", "DDR52"},
        {"HS200_1_8V_SDR", "mmc-hs200-1_8v", "HS200"},
        {"HS200_1_2V_SDR", "mmc-hs200-1_2v", "HS200"},
        {"", "mmc-hs400-1_8v", "HS200"},
        {"", "mmc-hs400-1_2v", "HS200"},
        {"HS400_1_8V", "mmc-hs400-1_8v", "HS400"},
        {"HS400_1_2V", "mmc-hs400-1_2v", "HS400"},
        {"HS400_ES", "mmc-hs400-enhanced-strobe", "HS400ES"},
    }};
    const bool is_mmc = f.kind == CardKind::mmc;
    const auto& dt = e.dt;
    const bool use_caps = e.caps || e.caps2;
    Host h;
    if (!use_caps && !dt) return h;
    h.source = use_caps ? HostSource::caps : HostSource::device_tree;
    h.side.known = true;
    h.side.owner = use_caps ? "host" : "board";
    h.side.modes = f.bit("legacy");
    for (const auto& flag : is_mmc ? std::span<const Flag>(mmc_flags) : std::span<const Flag>(sd_flags)) {
        const auto& name = use_caps ? flag.cap : flag.dt_flag;
        if (!name.empty() && (use_caps ? contains(caps, name) : dt->has(name))) h.side.modes |= f.bit(flag.mode);
    }
    if (is_mmc) {
        // HS400 runs on 8 bits only (mmc_select_hs400), enhanced strobe only with HS400.
        const bool eight = use_caps ? contains(caps, "8_BIT_DATA") : !dt->bus_width || *dt->bus_width == 8;
        if (!eight) h.side.modes &= ~f.bit("HS400");
        if (!(h.side.modes & f.bit("HS400"))) h.side.modes &= ~f.bit("HS400ES");
    }
    // sdhci strips every 1.8 V mode when the board says it has no 1.8 V I/O;
    // eMMC DDR52 then needs DDR at 3.3 V.
    if (dt && dt->has("no-1-8-v")) {
        h.no_1_8_v = true;
        h.side.owner = "board";
        h.side.modes &= ~f.low_voltage();
        if (is_mmc && !contains(caps, "3_3V_DDR") && !dt->has("mmc-ddr-3_3v")) h.side.modes &= ~f.bit("DDR52");
    }
    return h;
}

// The device-tree properties that would offer the modes above `best`.
std::string dt_properties_above(const Family& f, std::string_view best)
{
    if (f.kind != CardKind::mmc)
        return f.index(best) < f.index("SDR50") ? "sd-uhs-sdr104 (and sd-uhs-sdr50, sd-uhs-ddr50)" : "sd-uhs-sdr104";
    if (f.index(best) < f.index("HS200")) return "mmc-hs200-1_8v (and mmc-hs400-1_8v on an 8-bit bus)";
    return best == "HS200" ? "mmc-hs400-1_8v (on an 8-bit bus)" : "mmc-hs400-enhanced-strobe";
}

// Why the host stops at its best mode, in words, and what to try.
void describe_host(Host& h, const Evidence& e, const Family& f, const std::vector<std::string>& caps)
{
    Side& s = h.side;
    const auto best = f.best(s.modes);
    if (!s.known || best == f.top()) return;
    const bool is_mmc = f.kind == CardKind::mmc;
    if (h.no_1_8_v) {
        const bool at_3v3 = e.ios.signal_voltage_v && *e.ios.signal_voltage_v > 3;
        s.why = fmt::format("the board has no 1.8 V I/O (no-1-8-v{}), so {} impossible", at_3v3 ? ", signal voltage 3.30 V" : "",
                            is_mmc ? "HS200 and HS400 are" : "UHS modes are");
        s.tries = {"the faster modes need the I/O lines switched to 1.8 V: only on a board with a switchable vqmmc "
                   "regulator, drop no-1-8-v (or the sdhci.debug_quirks2=4 boot option, which does the same)"};
        return;
    }
    const bool dt = e.dt.has_value();
    if (h.source == HostSource::caps && !is_mmc) {
        if (best == "legacy")
            s.why = "the host offers neither SD high speed nor UHS (caps has no SD_HIGHSPEED or UHS_* bits)";
        else if (f.index(best) <= f.index("HS"))
            s.why = "the host offers no UHS mode (caps has no UHS_* bits)";
        else
            s.why = fmt::format("the host offers UHS only up to {} (caps has no UHS_SDR104)", best);
        if (dt)
            s.tries.push_back(fmt::format("if the controller supports it, add {} to its device-tree node, with a 1.8 V-capable "
                                          "vqmmc-supply",
                                          dt_properties_above(f, best)));
        else
            s.tries.push_back(f.index(best) < f.index("SDR50") ? "a UHS-I capable host or reader is needed for a faster mode"
                                                               : "a host with UHS_SDR104 would run faster");
    } else if (h.source == HostSource::caps) {
        if (f.index(best) <= f.index("MMC-HS"))
            s.why = "the host offers no DDR52, HS200 or HS400 (caps has no *_DDR bit, caps2 no HS200_*/HS400_* bits)";
        else if (best == "DDR52")
            s.why = "the host offers no HS200 or HS400 (caps2 has no HS200_*/HS400_* bits)";
        else if (best == "HS200")
            s.why = contains(caps, "HS400_1_8V") || contains(caps, "HS400_1_2V")
                        ? "the host offers HS400 only on an 8-bit bus, and caps has no 8_BIT_DATA"
                        : "the host offers no HS400 (caps2 has no HS400_* bits)";
        else
            s.why = "the host offers no HS400 enhanced strobe (caps2 has no HS400_ES)";
        if (dt)
            s.tries.push_back(fmt::format("if the controller supports it and the eMMC I/O is powered at 1.8 V, add {} to its "
                                          "device-tree node; check for write errors under load afterwards",
                                          dt_properties_above(f, best)));
        else if (f.index(best) < f.index("HS200"))
            s.tries.push_back("a host with HS200/HS400 (caps2 HS200_*, HS400_*) and an 8-bit bus would run faster");
        else
            s.tries.push_back(best == "HS200" ? "a host with HS400 (caps2 HS400_*) on an 8-bit bus would run faster"
                                              : "a host with HS400 enhanced strobe (caps2 HS400_ES) would run faster");
    } else if (!is_mmc) {
        s.why = f.index(best) <= f.index("HS") ? std::string("the device tree names no UHS mode (no sd-uhs-* property)")
                                               : fmt::format("the device tree names UHS only up to {} (no sd-uhs-sdr104)", best);
        s.tries.push_back(fmt::format("add {} to the device-tree node, with a 1.8 V-capable vqmmc-supply, if the controller "
                                      "and board support it",
                                      dt_properties_above(f, best)));
    } else {
        if (f.index(best) <= f.index("MMC-HS"))
            s.why = "the device tree names no DDR52, HS200 or HS400 mode (no mmc-ddr-*, mmc-hs200-*, mmc-hs400-* property)";
        else if (best == "DDR52")
            s.why = "the device tree names no HS200 or HS400 mode (no mmc-hs200-*/mmc-hs400-* property)";
        else if (best == "HS200")
            s.why = "the device tree names no HS400 mode (no mmc-hs400-* property)";
        else
            s.why = "the device tree names no enhanced strobe (no mmc-hs400-enhanced-strobe)";
        s.tries.push_back(fmt::format("if the eMMC I/O is powered at 1.8 V, add {} to the device-tree node; check for write "
                                      "errors under load afterwards",
                                      dt_properties_above(f, best)));
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
        findings.push_back({"warning", fmt::format("actual clock {} is impossible for a {} request (a driver reporting bug); "
                                                   "the requested clock is used",
                                                   hz_text(static_cast<double>(*actual)), hz_text(static_cast<double>(*requested)))});
        return static_cast<double>(*requested);
    }
    if (actual && *actual > 0) return static_cast<double>(*actual);
    if (requested && *requested > 0) {
        findings.push_back({"info", "the driver reports no actual clock; the requested clock is used"});
        return static_cast<double>(*requested);
    }
    if (requested)
        findings.push_back({"warning", "clock 0 Hz with the card powered: the clock is gated between requests; "
                                       "read ios while the card is busy, e.g. during dd"});
    return std::nullopt;
}

// Width and clock below what the mode is rated for.
void delivery_shortfalls(const Evidence& e, const ModeSpec& spec, double hz, const std::vector<std::string>& caps,
                         std::vector<Shortfall>& out)
{
    const auto& ios = e.ios;
    const auto& dt = e.dt;
    if (ios.bus_width_bits && *ios.bus_width_bits < spec.width_bits) {
        const int width = *ios.bus_width_bits;
        const std::string need = spec.width_bits == 8 ? "8_BIT_DATA" : "4_BIT_DATA";
        Shortfall s{"unknown", static_cast<double>(spec.width_bits) / width,
                    fmt::format("the bus runs {} bit{} wide; {} is rated for {}", width, width == 1 ? "" : "s", spec.name,
                                spec.width_bits),
                    {}};
        if (dt && dt->bus_width && static_cast<int>(*dt->bus_width) < spec.width_bits) {
            s.owner = "board";
            s.text += fmt::format(" (device tree bus-width = <{}>)", *dt->bus_width);
            s.tries.push_back(fmt::format("set bus-width = <{}> in the device-tree node if all the data lines are wired", spec.width_bits));
        } else if (e.caps) {
            if (!contains(caps, need)) {
                s.owner = "host";
                s.text += fmt::format(" (the host has no {}-bit bus: caps has no {})", spec.width_bits, need);
                s.tries.push_back(fmt::format("a host with {} {}-bit bus would raise the ceiling {}x", spec.width_bits == 8 ? "an" : "a",
                                              spec.width_bits, spec.width_bits / width));
            } else {
                s.owner = "board";
                s.text += fmt::format(" although caps has {}: the wiring or the bus test kept it narrower", need);
            }
        }
        out.push_back(s);
    }
    if (hz < spec.clock_hz / negligible_gain) {
        Shortfall s{"clock", spec.clock_hz / hz, {}, {}};
        const double requested = ios.clock_hz ? static_cast<double>(*ios.clock_hz) : hz;
        if (dt && dt->max_frequency && *dt->max_frequency < spec.clock_hz / negligible_gain &&
            requested >= *dt->max_frequency / negligible_gain) {
            s.owner = "board";
            s.text = fmt::format("max-frequency {} caps the clock ({}; {} runs up to {})", *dt->max_frequency, hz_text(hz),
                                 spec.name, hz_text(spec.clock_hz));
            s.tries.push_back(fmt::format("raise or remove max-frequency ({}) in the device-tree node if the board's signal "
                                          "integrity allows",
                                          *dt->max_frequency));
        } else if (spec.name == "MMC-HS" && e.device_type && !(*e.device_type & 0x02) && requested <= 26e6) {
            s.owner = "card";
            s.text = fmt::format("the card does high-speed timing only at 26 MHz (DEVICE_TYPE 0x{:02x}), so the clock is {}",
                                 *e.device_type, hz_text(hz));
        } else if (hz < requested / negligible_gain) {
            s.text = fmt::format("clock {} actual for {} requested, below {}'s {} (the controller's divider)", hz_text(hz),
                                 hz_text(requested), spec.name, hz_text(spec.clock_hz));
        } else {
            s.text = fmt::format("clock {}, below {}'s {} (the host's maximum clock f_max, which a device-tree "
                                 "max-frequency also sets)",
                                 hz_text(hz), spec.name, hz_text(spec.clock_hz));
        }
        if (s.owner == "clock")
            s.tries.push_back(dt ? "the clock comes from the controller's base clock and divider; a different controller clock "
                                   "rate (assigned-clock-rates in the device tree) may divide closer to the mode's clock"
                                 : "the clock is the controller's own: neither the card nor the mode changes it; another "
                                   "host controller or reader may clock closer to the mode's rate");
        out.push_back(s);
    }
}

// ---- the mode ---------------------------------------------------------

void mode_shortfalls(const Evidence& e, const Family& f, std::string_view mode, const Side& card, const Side& host,
                     std::vector<Shortfall>& out, std::vector<Finding>& info)
{
    const auto card_best = f.best(card.modes);
    const auto host_best = f.best(host.modes);
    const auto shared = f.best(card.modes & host.modes);
    const double here = f.ceiling(mode);

    if (f.index(mode) < f.index(shared)) {
        // Both sides (as far as known) offer more than runs.
        Shortfall s{"unknown", f.ceiling(shared) / here, {}, {}};
        const bool at_3v3 = e.ios.signal_voltage_v && *e.ios.signal_voltage_v > 3;
        if (card.known && host.known) {
            s.text = fmt::format("the host offers {} and the card {}, but the bus runs {}", host_best, card_best, mode);
            if (at_3v3 && (f.bit(shared) & f.low_voltage())) {
                s.owner = "board";
                s.text += " at 3.30 V: the switch to 1.8 V signalling did not happen";
                s.tries.push_back("check the slot's vqmmc-supply regulator (it must reach 1.8 V) and the kernel log for "
                                  "voltage-switch errors");
            } else {
                s.text += ": the kernel fell back to a lower mode (a failed switch or tuning); the kernel log says which";
            }
        } else if (host.known) {
            s.text = fmt::format("the host offers up to {} but the bus runs {}; the card's capabilities were not read, so "
                                 "the card or a fallback is the reason",
                                 host_best, mode);
            s.tries.push_back("read the card's registers (mmc-info) to see what it supports");
        } else if (card.known) {
            s.text = fmt::format("the card supports up to {} but the bus runs {}; the host's caps were not read, so the host "
                                 "or a fallback is the reason",
                                 card_best, mode);
            s.tries.push_back(fmt::format("read the host's caps (/sys/kernel/debug/{}/caps, as root)", e.host.empty() ? "mmcN" : e.host));
        } else {
            s.text = fmt::format("either the host or the card stops at {} (the kernel runs the best mode both offer); the "
                                 "host's caps and the card's registers would tell which",
                                 mode);
            s.tries.push_back(fmt::format("read the host's caps (/sys/kernel/debug/{}/caps, as root) and the card's registers "
                                          "(mmc-info) to tell which side limits",
                                          e.host.empty() ? "mmcN" : e.host));
        }
        out.push_back(s);
        return;
    }
    // The running mode is the best both share: whoever stops there limits.
    // Fixing one side alone raises the ceiling to what the other side offers.
    if (mode == f.top()) return;
    if (host_best == mode) out.push_back({host.owner, std::max(1.0, f.ceiling(card_best) / here), host.why, host.tries});
    else if (host.known && !host.why.empty()) info.push_back({"info", host.why});
    if (card_best == mode) out.push_back({card.owner, std::max(1.0, f.ceiling(host_best) / here), card.why, card.tries});
    else if (!card.why.empty()) info.push_back({"info", card.why});
}

int owner_rank(const std::string& owner)
{
    constexpr std::array<std::string_view, 5> order{"board", "host", "card", "clock", "unknown"};
    return static_cast<int>(std::find(order.begin(), order.end(), owner) - order.begin());
}

void add_unique(std::vector<std::string>& list, const std::vector<std::string>& items)
{
    for (const auto& i : items)
        if (!contains(list, i)) list.push_back(i);
}

} // namespace

Diagnosis diagnose(const Evidence& e)
{
    Diagnosis d;
    d.host = e.host.empty() ? e.ios.host : e.host;
    d.ios = e.ios;
    d.card = card_kind(e, d.host);
    if (e.caps) d.caps_names = decode_caps(*e.caps, e.kernel_version);
    if (e.caps2) add_unique(d.caps_names, decode_caps2(*e.caps2, e.kernel_version));
    std::vector<std::string> caps = d.caps_names;
    // Mainline numbered HS400 into caps2 only from v3.15; older (vendor) trees
    // used those bits for other things, so they prove nothing.
    if (e.caps2 && kernel_before(e.kernel_version, 3, 15)) {
        std::erase_if(caps, [](const std::string& n) { return n.rfind("HS400", 0) == 0; });
        d.findings.push_back({"warning", fmt::format("kernel {} predates mainline HS400 (v3.15), when caps2 bits from 7 up "
                                                     "meant other things; its HS400 bits are ignored",
                                                     e.kernel_version)});
    }

    d.mode = mode_name(e.ios);
    if (d.mode == "off") {
        d.limit = "powered off";
        d.findings.push_back({"limit", "card powered off (runtime PM): nothing can be said; read ios while the card is busy, "
                                       "e.g. during dd"});
        d.suggestions.push_back(fmt::format("read /sys/kernel/debug/{}/ios while reading the card, e.g. during "
                                            "dd if=/dev/mmcblkN of=/dev/null bs=1M count=256",
                                            d.host.empty() ? "mmcN" : d.host));
        return d;
    }

    std::vector<Finding> notes; // info and warnings, after the limits
    const auto spec = mode_spec(d.mode, d.card);
    std::optional<double> hz;
    if (spec) {
        d.mode_ceiling_mb_s = mode_ceiling_mb_s(d.mode, d.card);
        hz = bus_clock(e.ios, notes);
        if (hz && e.ios.bus_width_bits)
            d.clock_ceiling_mb_s = *hz * *e.ios.bus_width_bits * (spec->ddr ? 2 : 1) / 8 / 1e6;
        d.ceiling_mb_s = d.clock_ceiling_mb_s ? std::min(*d.mode_ceiling_mb_s, *d.clock_ceiling_mb_s) : d.mode_ceiling_mb_s;
    }

    if (d.card == CardKind::sdio) {
        // Wi-Fi and other SDIO functions: the bus is not a disk's bus.
        d.ceiling_mb_s.reset();
        d.limit = "not storage";
        const std::string who = d.host.empty()                 ? "this host"
                                : d.host.rfind("sdio", 0) == 0 ? fmt::format("the host whose debugfs directory is named {}", d.host)
                                                               : d.host;
        d.findings.push_back({"limit", who + " is an SDIO function (such as Wi-Fi), not storage"});
        if (spec && hz) {
            std::vector<Shortfall> clock;
            delivery_shortfalls(e, *spec, *hz, caps, clock);
            for (const auto& s : clock) notes.push_back({"info", s.text});
        }
        d.findings.insert(d.findings.end(), notes.begin(), notes.end());
        d.suggestions.push_back("for SDIO throughput look at the function's driver and any cable or riser, not the storage bus");
        return d;
    }
    if (!spec) {
        d.limit = "unknown";
        d.findings.push_back({"warning", e.ios.timing.empty()
                                             ? std::string("no timing line: the mode is unknown")
                                             : fmt::format("the kernel printed timing \"{}\"{}: this debugfs has no name for the mode "
                                                           "(SD Express and UHS-II have none)",
                                                           e.ios.timing, e.ios.timing_code ? fmt::format(" ({})", *e.ios.timing_code) : "")});
        return d;
    }

    std::vector<Shortfall> shortfalls;
    const Family* family = d.card == CardKind::mmc ? &mmc_family : d.card == CardKind::sd ? &sd_family : nullptr;
    if (family && family->index(d.mode) < 0) {
        notes.push_back({"warning", fmt::format("{} is no {} mode: the card type and the timing disagree", d.mode,
                                                d.card == CardKind::mmc ? "MMC" : "SD")});
        family = nullptr;
    }
    if (family) {
        const Family& f = *family;
        // The running mode proves both sides can do it (high-speed timing at
        // 26 MHz or less proves only HS26).
        ModeSet proven = f.bit(d.mode);
        if (d.mode == "MMC-HS" && e.ios.clock_hz && *e.ios.clock_hz <= 26000000) proven = f.bit("HS26");
        Host host = host_modes(e, f, caps);
        if (host.side.known) host.side.modes |= proven;
        describe_host(host, e, f, caps);
        const Side card = d.card == CardKind::mmc
                              ? mmc_card(e, proven)
                              : sd_card(e, proven, !host.side.known || (host.side.modes & f.low_voltage()) != 0);
        if (host.side.known) d.host_best_mode = f.best(host.side.modes);
        if (card.known) d.card_best_mode = f.best(card.modes);
        if (!card.known && !card.why.empty()) notes.push_back({"info", card.why});
        mode_shortfalls(e, f, f.best(proven), card, host.side, shortfalls, notes);
    } else if (d.card == CardKind::unknown) {
        notes.push_back({"info", "the card type is unknown, so neither side's best mode can be judged"});
    }
    if (hz) delivery_shortfalls(e, *spec, *hz, caps, shortfalls);

    // The limit is the shortfall whose fix alone raises the ceiling most. When
    // card and host stop at the same mode neither alone helps; the card names
    // it then, because a host's caps can be changed in its device tree and a
    // card's registers cannot.
    std::stable_sort(shortfalls.begin(), shortfalls.end(), [](const Shortfall& a, const Shortfall& b) {
        if (a.gain != b.gain) return a.gain > b.gain;
        const bool a_card = a.owner == "card", b_card = b.owner == "card";
        return a_card != b_card && a.gain < negligible_gain ? a_card : owner_rank(a.owner) < owner_rank(b.owner);
    });
    if (!shortfalls.empty())
        d.limit = shortfalls.front().owner;
    else
        d.limit = family ? "none" : "unknown";

    for (const auto& s : shortfalls) {
        d.findings.push_back({"limit", s.text});
        add_unique(d.suggestions, s.tries);
    }
    if (d.limit == "none")
        d.findings.push_back({"info", fmt::format("the bus runs {} {}: the bus is not what limits throughput; look at the "
                                                  "card or the I/O path (queueing, filesystem)",
                                                  d.mode, d.clock_ceiling_mb_s ? fmt::format("at its full clock ({})", mb_text(*d.ceiling_mb_s))
                                                                               : std::string("(no clock line to check)"))});
    d.findings.insert(d.findings.end(), notes.begin(), notes.end());
    return d;
}

} // namespace mmc::bus
