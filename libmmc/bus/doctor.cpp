// The bus-mode doctor. The kernel runs the best mode that both the card and
// the host offer, at the clock the host can make, on the width both wire. So
// the ceiling falls short of the best possible for one of four reasons: a side
// that offers no better mode (card, or host: its caps, or the board's device
// tree), a narrow bus, or a low clock. Each shortfall is weighed by how much
// the ceiling would rise if that one thing were fixed; the biggest names the
// limit, and every shortfall is reported with its evidence. The findings per
// side and their ranking are in doctor_*.cpp (doctor_parts.h).
#include "bus/doctor.h"

#include "bus/doctor_parts.h"
#include "bus/soc_limits.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::bus {

namespace doctor_parts {

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

void add_unique(std::vector<std::string>& list, const std::vector<std::string>& items)
{
    for (const auto& i : items)
        if (!contains(list, i)) list.push_back(i);
}

} // namespace doctor_parts

using namespace doctor_parts;

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

namespace {

// The command-line change that gives the host back the modes a quirk
// takes: the bits that took them cleared, the option removed when none
// is left (a non-zero value replaces each SDHCI driver's own quirks2, so
// removing it is also what gives the drivers theirs back).
CmdlineChange cmdline_change(const Evidence& e, const FamilyModes& f, const Host& host)
{
    const SdhciQuirkOption& q = *quirks2_in_force(e);
    uint32_t taking = 0;
    if (host.quirk_held & f.low_voltage()) taking |= quirk2_no_1_8_v;
    if (host.quirk_held & (f.bit(Mode::hs200) | f.bit(Mode::hs400))) taking |= quirk2_broken_hs200;
    if (host.quirk_held & f.bit(Mode::ddr50)) taking |= quirk2_broken_ddr50;
    CmdlineChange c;
    c.option = q.name;
    c.written = q.written;
    const uint32_t left = *q.value & ~taking;
    if (left) c.value = left;
    c.frees = f.list(host.quirk_held);
    c.why = host.side.why;
    return c;
}

} // namespace

Diagnosis diagnose(const Evidence& given)
{
    // A host the kernel log names as a PCI device ("SDHCI controller on PCI
    // [0000:00:1e.6]", sdhci-pci, rtsx_pci) has no device-tree node.
    Evidence e = given;
    const bool pci_in_log = !e.dt && e.log && e.log->pci_address.has_value();
    if (pci_in_log) e.dt_absent = true;
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
    if (const SdhciQuirkOption* q = quirks2_in_force(e); q && sdhci_driven(e) != true)
        notes.push_back({Severity::info, sdhci_driven(e) == false
                                             ? fmt::format("the kernel command line's {} acts on SDHCI hosts only; this host's driver "
                                                           "({}) is another",
                                                           q->written, e.dt->compatible.front())
                                             : fmt::format("the kernel command line's {} ({}) acts on this host if its driver is "
                                                           "sdhci: the evidence names no driver (give its device tree)",
                                                           q->written, sdhci_quirk2_names(*q->value))});
    if (pci_in_log || e.pci_id)
        notes.push_back({Severity::info, fmt::format("this host is a PCI controller{}, with no device tree: its caps are the "
                                                     "controller's and its driver's own",
                                                     e.pci_id && !e.pci_id->empty() ? fmt::format(" (PCI {})", *e.pci_id)
                                                     : pci_in_log && !e.log->pci_address->empty()
                                                         ? fmt::format(" (PCI [{}] in the kernel log)", *e.log->pci_address)
                                                         : std::string())});
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
        // The kernel log can prove more: a mode both sides reached before
        // the bus came down to this one.
        std::vector<std::string> reached_by;
        const ModeSet reached = proven | modes_reached(e, f, reached_by);
        for (const auto& line : reached_by)
            notes.push_back({Severity::info, fmt::format("both sides reached {} once: {}", to_string(f.best(reached)), line)});
        Host host = host_modes(e, f, caps);
        if (host.side.known) host.side.modes |= reached;
        describe_host(host, e, f, caps);
        const Side card = d.card == regs::CardFamily::mmc
                              ? mmc_card(e, reached)
                              : sd_card(e, reached, !host.side.known || (host.side.modes & f.low_voltage()) != 0);
        if (host.side.known) d.host_best_mode = f.best(host.side.modes);
        if (card.known) d.card_best_mode = f.best(card.modes);
        for (const Mode m : f.modes) {
            if (host.side.known && (host.side.modes & f.bit(m))) d.host_modes.push_back(m);
            if (card.known && (card.modes & f.bit(m))) d.card_modes.push_back(m);
        }
        if (!card.known && !card.why.empty()) notes.push_back({Severity::info, card.why});
        d.ruled_out = rule_out_modes(e, f, card, host, reached);
        if (host.quirk_held && host.side.owner == Limit::board) d.cmdline_changes.push_back(cmdline_change(e, f, host));
        mode_shortfalls(e, f, f.best(proven), card, host, shortfalls, notes);
    } else if (!d.card) {
        notes.push_back({Severity::info, "the card type is unknown, so neither side's best mode can be judged"});
    }
    if (hz) delivery_shortfalls(e, *spec, *hz, caps, shortfalls, notes);

    rank(shortfalls);
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
        if (s.owner == Limit::board)
            for (const auto& c : s.dt_changes)
                if (std::none_of(d.board_changes.begin(), d.board_changes.end(),
                                 [&](const DtChange& x) { return x.property == c.property; }))
                    d.board_changes.push_back(c);
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