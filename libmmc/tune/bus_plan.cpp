// mmc-tune bus's plan. The doctor has said what card and host offer and why
// the bus runs where it does; this lists the modes to try, fastest first,
// and what each trial sets. Modes below the one in use are the step-down,
// tried when the faster ones fail.
#include "tune/bus_plan.h"

#include "cli/size.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::tune {

namespace {

using bus::Mode;

bool has(const std::vector<Mode>& modes, Mode m) { return std::find(modes.begin(), modes.end(), m) != modes.end(); }

// The doctor's first limit finding, with its owner: the words for "why the
// bus does not run faster".
std::string doctor_limit(const bus::Diagnosis& d)
{
    for (const auto& f : d.findings)
        if (f.severity == bus::Severity::limit) return fmt::format("{}: {}", bus::to_string(d.limit), f.text);
    return std::string(bus::to_string(d.limit));
}

std::string limited_by(const bus::Diagnosis& d, Mode m, Mode now)
{
    if (m == now) return "in use now";
    const auto& family = bus::family_modes(d.card.value_or(regs::CardFamily::sd));
    const auto rank = [&](Mode x) { return std::find(family.begin(), family.end(), x) - family.begin(); };
    if (rank(m) < rank(now)) return fmt::format("slower than {} in use: a step-down, tried when the faster modes fail", bus::to_string(now));
    if (d.card_modes.empty()) return "card: not known whether the card offers it (its registers were not read)";
    if (!d.host_modes.empty() && !has(d.host_modes, m))
        return d.limit == bus::Limit::host || d.limit == bus::Limit::board ? doctor_limit(d)
                                                                           : "host: its caps or device tree do not offer it";
    return doctor_limit(d);
}

// The command-line change that would give the host `m` back, if one holds it.
const bus::CmdlineChange* held_by_cmdline(const bus::Diagnosis& d, Mode m)
{
    for (const auto& c : d.cmdline_changes)
        if (has(c.frees, m)) return &c;
    return nullptr;
}

std::string caps_text(const bus::CapsPair& c) { return fmt::format("caps 0x{:08x} caps2 0x{:08x}", c.caps, c.caps2); }

std::string live_reason(const BusPlanInput& in, const BusPlan& p)
{
    const auto& kernel = in.evidence.kernel_version;
    if (!kernel.empty() && bus::kernel_before(kernel, caps_writable_major, caps_writable_minor))
        return fmt::format("this kernel ({}) cannot trial modes live; {}.{} or later can", kernel, caps_writable_major,
                           caps_writable_minor);
    if (!in.live) return "a pasted dump: trials need the live host (mmc-tune bus DEVICE --apply)";
    if (!p.start_caps)
        return fmt::format("{}'s debugfs caps could not be read (debugfs not mounted, or not root)", p.host.empty() ? "the host" : p.host);
    if (!in.caps_not_writable.empty()) return in.caps_not_writable;
    if (!p.start_mode || *p.start_mode == Mode::off) return "no mode in use to start from: the card is powered off or absent";
    return {};
}

} // namespace

BusPlan plan_bus(const BusPlanInput& in)
{
    const auto& e = in.evidence;
    const auto& d = in.diagnosis;
    BusPlan p;
    p.host = d.host;
    p.kernel = e.kernel_version;
    p.family = d.card;
    p.start_mode = d.mode;
    p.start_clock_hz = e.ios.clock_hz;
    if (e.caps) p.start_caps = bus::CapsPair{*e.caps, e.caps2.value_or(0)};
    p.live_trials_reason = live_reason(in, p);
    p.live_trials = p.live_trials_reason.empty();
    if (e.log)
        for (const auto& ev : e.log->events)
            if (ev.kind == bus::LogEventKind::crc_error || ev.kind == bus::LogEventKind::tuning_failed ||
                ev.kind == bus::LogEventKind::step_down || ev.kind == bus::LogEventKind::timeout)
                p.signal_errors.push_back(ev.text);

    if (!d.card || d.sdio) {
        p.notes.push_back(d.sdio ? "an SDIO function, not storage: no modes to plan" : "the card type is unknown: give --family sd or mmc");
        return p;
    }
    if (!d.mode || *d.mode == Mode::off) {
        p.notes.push_back("no mode in use: the card is powered off (runtime PM) or the timing has no name; read it while the card is busy");
        return p;
    }
    const Mode now = *d.mode;
    const auto& family = bus::family_modes(*d.card);
    const auto rank = [&](Mode m) { return std::find(family.begin(), family.end(), m) - family.begin(); };

    for (auto it = family.rbegin(); it != family.rend(); ++it) {
        const Mode m = *it;
        // SDR12 is slower than high speed, which every UHS card does; HS26
        // is MMC-HS's caps at a lower clock.
        if (m != now && (m == Mode::sdr12 || m == Mode::hs26)) continue;
        // The doctor's answer: a mode it rules out is listed with its reason
        // and never trialled; --force may trial one only the SoC table's row
        // rules out (a row can be wrong for one board), and never keeps it.
        const bus::RuledOut* ruled = bus::ruled_out(d, m);
        const bool past_table = ruled && in.force && ruled->table_only();
        if (ruled && !past_table) {
            p.ruled_out.push_back(*ruled);
            continue;
        }
        const bool above = rank(m) > rank(now);
        std::vector<std::optional<uint64_t>> clocks{std::nullopt};
        if (!p.signal_errors.empty() && rank(m) >= rank(now))
            if (const auto spec = bus::mode_spec(m, d.card))
                for (const double f : clock_step_fractions) clocks.push_back(static_cast<uint64_t>(spec->clock_hz * f));
        for (const auto& clock : clocks) {
            BusStep s;
            s.mode = m;
            s.clock_hz = clock;
            s.in_use = m == now && !clock;
            s.above_in_use = above;
            s.past_table = past_table;
            s.limited_by = past_table ? "ruled out by the SoC table only: " + ruled->reason : limited_by(d, m, now);
            if (clock) s.limited_by = fmt::format("{}; a lower clock, since the kernel log shows signal errors", s.limited_by);
            if (p.start_caps) s.caps = bus::caps_for_mode(m, *p.start_caps, *d.card);
            const std::string clock_text = clock ? fmt::format(", write clock {}", cli::format_hz(static_cast<double>(*clock))) : "";
            if (const auto* held = held_by_cmdline(d, m); held && above)
                s.trial = fmt::format("not trialled: the kernel command line's {} keeps the host from it until it is {} and the "
                                      "machine rebooted",
                                      held->written, held->value ? "changed" : "removed");
            else if (!p.start_caps)
                s.trial = "not trialled: the host's caps are not known";
            else if (!s.caps)
                s.trial = fmt::format("not trialled: debugfs cannot ask for {}", bus::to_string(m));
            else if (above && !in.card_in_use.empty() && !in.force)
                s.trial = fmt::format("not trialled: {}; only modes at or below the one in use are trialled on a card in use "
                                      "(--force trials it)",
                                      in.card_in_use);
            else if (!in.only.empty() && !has(in.only, m))
                s.trial = "not trialled: not named by --mode";
            else {
                s.trialled = true;
                const auto change = bus::caps_change(*p.start_caps, *s.caps);
                std::string changed;
                for (const auto& c : change) changed += (changed.empty() ? "" : " ") + c;
                s.trial = fmt::format("{}set {}{}, re-initialise the card{}, check ios shows {}, read the card twice and compare",
                                      past_table ? "under --force, past the SoC table's row (never kept): " : "", caps_text(*s.caps),
                                      changed.empty() ? "" : " (" + changed + ")", clock_text, bus::to_string(m));
            }
            if (!p.live_trials && s.trialled) s.trial = "would " + s.trial;
            p.steps.push_back(std::move(s));
        }
    }
    if (!in.card_in_use.empty() && in.force)
        p.notes.push_back(fmt::format("{}: --force trials faster modes on it too; a failed switch can fail its I/O", in.card_in_use));
    return p;
}

} // namespace mmc::tune
