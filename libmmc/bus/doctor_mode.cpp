// The mode: a fallback below what both sides offer, or the side that
// stops at the running mode.
#include "bus/doctor_parts.h"

#include <fmt/format.h>

namespace mmc::bus::doctor_parts {

// The bus runs below what both sides offer: a fallback. The kernel log says
// why; without it, the cause is unknown.
Shortfall fallback(const Evidence& e, const FamilyModes& f, Mode mode, Mode shared, const Host& host)
{
    Shortfall s{Limit::unknown, f.ceiling(shared) / f.ceiling(mode), {}, {}, Mechanism::mode, {}, {}, false, {}};
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
        // The kernel log proves both sides reached a faster mode once: a
        // fallback, whatever is known of either side.
        std::vector<std::string> reached_by;
        const ModeSet reached = modes_reached(e, f, reached_by);
        const bool fell = reached && f.index(f.best(reached)) > f.index(mode);
        const std::string prefix =
            card.known && host.known ? fmt::format("the host offers {} and the card {}, but the bus runs {}", to_string(host_best),
                                                   to_string(card_best), to_string(mode))
            : host.known ? fmt::format("the host offers up to {} but the bus runs {}", to_string(host_best), to_string(mode))
            : card.known ? fmt::format("the card supports up to {} but the bus runs {}", to_string(card_best), to_string(mode))
            : fell       ? fmt::format("both sides reached {} once (the kernel log) but the bus runs {}", to_string(f.best(reached)),
                                       to_string(mode))
                         : std::string();
        if (!prefix.empty() && (s.owner != Limit::unknown || (card.known && host.known) || fell)) {
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
        } else if (card.known && e.dt_absent) {
            // A PCI (or ACPI) host has no device-tree node: what it offers is
            // the controller's and its driver's own (sdhci-pci-core,
            // rtsx_pci_sdmmc set the caps), so where the card can do more,
            // the host stops it.
            s.owner = Limit::host;
            s.text = fmt::format("{}: the host has no device-tree node (a PCI or ACPI controller), so its modes are the "
                                 "controller's and its driver's own",
                                 prefix);
            s.evidence.push_back(card.why);
            s.evidence.push_back("no device-tree node (PCI or ACPI host): no board setting stops it");
            s.tries.insert(s.tries.begin(), "another reader (a USB 3 UHS-I reader) or host controller runs the card's faster modes");
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
                       host.would_decide, host.hard_limit, host.dt_changes});
    else if (host.known && !host.why.empty())
        info.push_back({Severity::info, host.why});
    if (card_best == mode)
        out.push_back({card.owner, std::max(1.0, f.ceiling(host_best) / here), card.why, card.tries, Mechanism::mode, evidence_of(card), {}, false, {}});
    else if (!card.why.empty())
        info.push_back({Severity::info, card.why});
}

// The modes the kernel log proves both sides reached for this host.
// - Its "new ... card" line names the mode the card was set up in
//   (core/bus.c mmc_add_card: "ultra high speed SDR104", "HS200", "high
//   speed DDR").
// - A tuning attempt (failed or not) happens only in a tuned mode: SDR50 or
//   SDR104 for SD (core/sd.c mmc_sd_init_uhs_card), HS200 for eMMC (core/mmc.c
//   mmc_hs200_tuning; HS400 is tuned in HS200). SDHCI-style controllers read
//   their modes from capability registers (sdhci_setup_host), so this holds
//   whatever the device tree lists.
ModeSet modes_reached(const Evidence& e, const FamilyModes& f, std::vector<std::string>& evidence)
{
    ModeSet reached = 0;
    const std::string& m = e.kernel_message;
    if (const auto at = m.find(": new "); at != std::string::npos) {
        struct Named {
            std::string_view words;
            Mode mode;
        };
        static constexpr std::array<Named, 9> named{{
            {"ultra high speed SDR104 ", Mode::sdr104}, {"ultra high speed SDR50 ", Mode::sdr50},
            {"ultra high speed DDR50 ", Mode::ddr50},   {"ultra high speed SDR25 ", Mode::sdr25},
            {"HS400 Enhanced strobe ", Mode::hs400es},  {"HS400 ", Mode::hs400},
            {"HS200 ", Mode::hs200},                    {"high speed DDR ", Mode::ddr52},
            {"ultra high speed SDR12 ", Mode::sdr12},
        }};
        for (const auto& n : named)
            if (m.find(n.words, at) != std::string::npos && f.bit(n.mode)) {
                reached |= f.bit(n.mode);
                evidence.push_back("kernel log: " + m.substr(at + 2));
                break;
            }
    }
    if (const auto* ev = first_event(e, {LogEventKind::tuning_failed})) {
        reached |= f.bit(f.family == regs::CardFamily::mmc ? Mode::hs200 : Mode::sdr50);
        evidence.push_back(fmt::format("{} (tuning happens only in {})", log_line(*ev),
                                       f.family == regs::CardFamily::mmc ? "HS200" : "SDR50 or SDR104"));
    }
    return reached;
}

} // namespace mmc::bus::doctor_parts
