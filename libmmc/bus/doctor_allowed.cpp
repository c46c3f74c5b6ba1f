// The modes this host, board and card cannot run, and why: the one answer
// mmc-bus's advice and mmc-tune bus's plan share. A mode is ruled out by
// - the card: its registers do not offer it;
// - the SoC table: the controller's row stops below it (soc_limits.cpp);
// - the signal voltage: it needs 1.8 V I/O and the board cannot make it -
//   no-1-8-v (sdhci and mmc_of_parse drop every 1.8 V mode), a vqmmc
//   regulator whose range stops above 1.8 V, or an SD slot with no
//   vqmmc-supply (an SD card starts at 3.3 V, so without a regulator to
//   switch nothing takes it to 1.8 V; an eMMC may sit on a fixed 1.8 V rail
//   and list no supply at all, so it is not ruled out for that);
// - the bus width: HS400 runs on 8 data lines only (mmc_select_hs400).
// What the bus has run (the mode in use, a mode the kernel log shows both
// sides reached, 1.8 V signalling in ios) outweighs every inference here.
#include "bus/doctor_parts.h"

#include <fmt/format.h>

namespace mmc::bus {

std::string_view to_string(RuledOutBy b)
{
    switch (b) {
    case RuledOutBy::card: return "card";
    case RuledOutBy::soc_table: return "SoC table";
    case RuledOutBy::signal_voltage: return "signal voltage";
    case RuledOutBy::bus_width: return "bus width";
    }
    return "card";
}

std::string_view to_string(DtProperty p)
{
    switch (p) {
    case DtProperty::max_frequency: return "max-frequency";
    case DtProperty::max_sd_hs_hz: return "max-sd-hs-hz";
    case DtProperty::sdhci_caps_mask: return "sdhci-caps-mask";
    }
    return "max-frequency";
}

const RuledOut* ruled_out(const Diagnosis& d, Mode mode)
{
    const auto it = std::find_if(d.ruled_out.begin(), d.ruled_out.end(), [&](const RuledOut& r) { return r.mode == mode; });
    return it == d.ruled_out.end() ? nullptr : &*it;
}

namespace doctor_parts {

Mode table_ceiling(const Evidence& e, const FamilyModes& f)
{
    const SocLimit* soc = e.dt ? soc_limit(*e.dt) : nullptr;
    const std::optional<Mode> best = soc ? f.soc_best(*soc) : std::nullopt;
    return best.value_or(f.top());
}

namespace {

// Why the board cannot signal at 1.8 V, or "" when nothing shows it.
std::string no_1v8_io(const Evidence& e, const FamilyModes& f, const Host& host)
{
    if (!e.dt) return {};
    if (host.no_1_8_v) return "the device tree says no-1-8-v: the board has no 1.8 V I/O";
    if (host.regulator_3v3) return regulator_text(*e.dt->vqmmc) + ": it cannot make 1.8 V";
    if (f.family == regs::CardFamily::sd && !e.dt->has_vqmmc_supply)
        return fmt::format("the SD slot's node ({}) names no vqmmc-supply: no regulator switches its I/O from 3.3 V to 1.8 V",
                           e.dt->node.empty() ? std::string("the host") : e.dt->node);
    return {};
}

} // namespace

std::vector<RuledOut> rule_out_modes(const Evidence& e, const FamilyModes& f, const Side& card, const Host& host, ModeSet reached)
{
    const SocLimit* soc = e.dt ? soc_limit(*e.dt) : nullptr;
    const Mode table_best = table_ceiling(e, f);
    // A row the bus has already beaten is wrong for this board.
    const bool table_holds = !(reached & ~((f.bit(table_best) << 1) - 1));
    const bool signals_1v8 = (e.ios.signal_voltage_v && *e.ios.signal_voltage_v < 2) || (reached & f.low_voltage());
    const std::string voltage = signals_1v8 ? std::string() : no_1v8_io(e, f, host);
    const bool eight_bits = !(e.dt && e.dt->bus_width && *e.dt->bus_width < 8) && !(soc && soc->max_bus_width && soc->max_bus_width < 8);

    std::vector<RuledOut> out;
    for (int i = static_cast<int>(f.modes.size()) - 1; i >= 0; --i) {
        const Mode m = f.modes[static_cast<std::size_t>(i)];
        if (reached & f.bit(m)) continue;
        RuledOut r{m, {}, {}};
        std::vector<std::string> why;
        if (soc && table_holds && f.index(m) > f.index(table_best)) {
            r.by.push_back(RuledOutBy::soc_table);
            why.push_back(fmt::format("{} runs up to {} ({})", soc->controller, to_string(table_best), soc->source));
        }
        if (!voltage.empty() && (f.bit(m) & f.low_voltage())) {
            r.by.push_back(RuledOutBy::signal_voltage);
            why.push_back(fmt::format("{} needs 1.8 V I/O and {}", to_string(m), voltage));
        }
        if (!eight_bits && (m == Mode::hs400 || m == Mode::hs400es)) {
            r.by.push_back(RuledOutBy::bus_width);
            why.push_back(e.dt && e.dt->bus_width && *e.dt->bus_width < 8
                              ? fmt::format("the device tree's bus-width = <{}>: HS400 needs 8 data lines", *e.dt->bus_width)
                              : fmt::format("{} has {} data lines: HS400 needs 8", soc->controller, soc->max_bus_width));
        }
        // The card last: the host and board hold for every card.
        if (card.known && !(card.modes & f.bit(m))) {
            r.by.push_back(RuledOutBy::card);
            why.push_back(card.why.empty() ? "the card does not offer it" : card.why);
        }
        if (r.by.empty()) continue;
        r.reason = join(why, "; ");
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace doctor_parts

} // namespace mmc::bus
