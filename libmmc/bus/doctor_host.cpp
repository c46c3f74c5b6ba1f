// The host's side: the modes its caps or device tree offer, and who stops
// it there - the controller, the board, or (undecided) one of the two.
#include "bus/doctor_parts.h"
#include "bus/mode_caps.h"

#include <fmt/format.h>

namespace mmc::bus::doctor_parts {

// caps and caps2 hold what the controller can do plus what the device tree
// asked for. Without them, the device-tree flags are the evidence
// (mmc_of_parse turns them into caps; a driver may add more itself, which the
// running mode then proves).
Host host_modes(const Evidence& e, const FamilyModes& f, const std::vector<std::string>& caps)
{
    const bool is_mmc = f.family == regs::CardFamily::mmc;
    const auto& dt = e.dt;
    const bool use_caps = e.caps || e.caps2;
    Host h;
    if (!use_caps && !dt) return h;
    h.source = use_caps ? HostSource::caps : HostSource::device_tree;
    h.side.known = true;
    h.side.owner = use_caps ? Limit::host : Limit::board;
    h.side.modes = f.bit(Mode::legacy);
    for (const auto& flag : mode_flags(f.family)) {
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
    // A command-line quirk takes from an SDHCI host what sdhci_setup_host
    // drops for it; what it takes is the board's (the boot configuration's)
    // doing, not the controller's.
    if (const SdhciQuirkOption* q = quirks2_in_force(e); q && sdhci_driven(e) == true) {
        ModeSet held = 0;
        if (*q->value & quirk2_no_1_8_v) held |= f.low_voltage();
        if (*q->value & quirk2_broken_hs200) held |= f.bit(Mode::hs200) | f.bit(Mode::hs400);
        if (*q->value & quirk2_broken_ddr50) held |= f.bit(Mode::ddr50);
        // Live caps already lack what the quirk took (sdhci_setup_host
        // drops it before mmc_host reports caps): what the host would offer
        // without it is the device tree's flags and the SoC table's
        // hardware modes, within what the board's I/O voltage allows.
        ModeSet without = h.side.modes;
        if (use_caps && dt) {
            for (const auto& flag : mode_flags(f.family))
                if (!flag.dt_flag.empty() && dt->has(flag.dt_flag)) without |= f.bit(flag.mode);
            const SocLimit* soc = soc_limit(*dt);
            if (const std::optional<Mode> soc_best = soc ? f.soc_best(*soc) : std::nullopt; soc && soc->modes_from_hardware && soc_best)
                for (int i = 0; i <= f.index(*soc_best); ++i) without |= 1u << i;
            if (h.no_1_8_v || h.regulator_3v3) without &= ~f.low_voltage();
        }
        h.quirk_held = without & held;
        h.side.modes &= ~held;
    }
    return h;
}

std::optional<bool> sdhci_driven(const Evidence& e)
{
    if (e.dt && !e.dt->compatible.empty()) return e.dt->sdhci_binding();
    if (e.controller.find("sdhci") != std::string::npos) return true;
    return std::nullopt;
}

const SdhciQuirkOption* quirks2_in_force(const Evidence& e)
{
    if (!e.cmdline || !e.cmdline->quirks2 || !e.cmdline->quirks2->value || *e.cmdline->quirks2->value == 0) return nullptr;
    return &*e.cmdline->quirks2;
}

std::string regulator_text(const Regulator& r)
{
    const std::string name = r.name.empty() ? r.node : fmt::format("{} (\"{}\")", r.node, r.name);
    if (r.min_microvolt && r.max_microvolt && *r.min_microvolt == *r.max_microvolt)
        return fmt::format("vqmmc-supply {} is fixed at {}", name, microvolts(*r.min_microvolt));
    return fmt::format("vqmmc-supply {} ranges {} to {}", name, r.min_microvolt ? microvolts(*r.min_microvolt) : "?",
                       r.max_microvolt ? microvolts(*r.max_microvolt) : "?");
}

// The device-tree properties that would offer the modes above `best`, up
// to `ceiling` (the SoC table's row: no property above it is advised).
std::string dt_properties_above(const FamilyModes& f, Mode best, Mode ceiling)
{
    if (ceiling == f.top()) {
        if (f.family != regs::CardFamily::mmc)
            return f.index(best) < f.index(Mode::sdr50) ? "sd-uhs-sdr104 (and sd-uhs-sdr50, sd-uhs-ddr50)" : "sd-uhs-sdr104";
        if (f.index(best) < f.index(Mode::hs200)) return "mmc-hs200-1_8v (and mmc-hs400-1_8v on an 8-bit bus)";
        return best == Mode::hs200 ? "mmc-hs400-1_8v (on an 8-bit bus)" : "mmc-hs400-enhanced-strobe";
    }
    std::vector<std::string> props; // fastest first
    for (int i = f.index(ceiling); i > f.index(best); --i)
        for (const auto& row : mode_flags(f.family))
            if (row.mode == f.modes[static_cast<std::size_t>(i)] && !row.cap.empty() && row.dt_flag.find("1_2v") == std::string_view::npos &&
                row.dt_flag.find("3_3v") == std::string_view::npos && !contains(props, row.dt_flag))
                props.emplace_back(row.dt_flag);
    if (props.empty()) return "no property (the controller stops here)";
    const std::string first = props.front();
    props.erase(props.begin());
    return props.empty() ? first : fmt::format("{} (and {})", first, join(props, ", "));
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
                                     dt_properties_above(f, best, f.top()));
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
        s.evidence.push_back(fmt::format("device tree {}: no {}", node, dt_properties_above(f, best, *soc_best)));
    } else if (soc_best) {
        s.owner = Limit::host;
        s.evidence.push_back(fmt::format("{} supports up to {} ({})", soc->controller, to_string(*soc_best), soc->source));
    } else {
        s.owner = Limit::unknown;
        s.evidence.push_back(fmt::format("device tree {}: no {}", node, dt_properties_above(f, best, f.top())));
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
    if (h.quirk_held && f.index(f.best(h.quirk_held)) > f.index(best)) {
        const SdhciQuirkOption& q = *quirks2_in_force(e);
        const std::string where = e.cmdline->source.empty() ? std::string("the kernel command line") : e.cmdline->source;
        s.why = fmt::format("the kernel command line's {} sets {}: sdhci takes {} from every SDHCI host (sdhci_setup_host), so "
                            "this one stops at {}",
                            q.written, sdhci_quirk2_names(*q.value & (quirk2_no_1_8_v | quirk2_broken_hs200 | quirk2_broken_ddr50)),
                            modes_text(f.list(h.quirk_held)), to_string(best));
        s.owner = Limit::board;
        s.evidence.push_back(fmt::format("{}: {} ({})", where, q.written, sdhci_quirk2_names(*q.value)));
        s.tries = {fmt::format("remove {} from the kernel command line if the card is stable without it (it is often set to "
                               "work around errors at the faster modes: trial them after the reboot)",
                               q.written)};
        return;
    }
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
        // sdhci_read_caps clears the controller's capability bits the mask
        // names (the upper word holds SDR50, SDR104 and DDR50): a board that
        // masks them hides UHS modes its controller has.
        const bool masked = e.dt->has("sdhci-caps-mask");
        if (masked) {
            s.evidence.push_back(fmt::format("device tree {}: sdhci-caps-mask, which clears capabilities the controller reports "
                                             "(it can hide the UHS modes)",
                                             e.dt->node.empty() ? std::string("node") : e.dt->node));
            s.dt_changes.push_back({DtProperty::sdhci_caps_mask, std::nullopt, "<0x0 0x0>",
                                    "sdhci-caps-mask clears capabilities the controller reports"});
        }
        s.tries.push_back(fmt::format(
            "a device-tree overlay adding {} to {}{}{}; the board may have left it out on purpose (I/O voltage, trace length): "
            "afterwards watch the kernel log for CRC errors and tuning failures under load",
            dt_properties_above(f, best, table_ceiling(e, f)), e.dt->overlay_target(),
            masked ? ", and sdhci-caps-mask deleted from it" : "",
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

} // namespace mmc::bus::doctor_parts
