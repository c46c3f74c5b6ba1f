#include "health/nagios.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace mmc::health {

namespace {

// The status text may hold neither a newline (the first line is the
// status) nor '|' (it starts the performance data).
std::string plugin_text(std::string_view s)
{
    std::string out;
    for (char c : s) out += c == '|' ? '/' : (c == '\n' || c == '\r') ? ' ' : c;
    return out;
}

// A performance-data label: quoted unless it is letters, digits and '_'
// (the guidelines: a quote in a label is written twice).
std::string perf_label(const std::string& label)
{
    if (std::all_of(label.begin(), label.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
        return label;
    std::string quoted = "'";
    for (char c : label) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    return quoted + "'";
}

std::string verdict_phrase(Verdict v)
{
    switch (v) {
    case Verdict::healthy: return "healthy";
    case Verdict::worn: return "worn";
    case Verdict::end_of_life: return "end of life";
    case Verdict::read_only: return "read-only";
    case Verdict::unknown: return "unknown (no health data)";
    }
    return "?";
}

std::optional<double> spare_left_of(const HealthReport& report)
{
    std::optional<double> least;
    for (const auto& r : report.readings)
        if (r.wear.spare_blocks_percent && (!least || *r.wear.spare_blocks_percent < *least)) least = r.wear.spare_blocks_percent;
    return least;
}

std::string card_summary(const NagiosCard& card, NagiosState threshold_state, const NagiosThresholds& t)
{
    const auto& report = *card.report;
    std::string s = fmt::format("{} {}", card.name, verdict_phrase(report.judgement.verdict));
    if (report.judgement.figure == DecidingFigure::writable) {
        for (const auto& r : report.writability.reasons)
            if (r.scope == WpScope::card) {
                s += ": " + r.what;
                break;
            }
    }
    if (const auto used = life_used_of(report)) {
        s += fmt::format(", life used {:g}%", *used);
        if (threshold_state == NagiosState::critical) s += fmt::format(" (outside -c {})", t.critical->text);
        else if (threshold_state == NagiosState::warning) s += fmt::format(" (outside -w {})", t.warning->text);
    }
    if (report.judgement.figure == DecidingFigure::pre_eol) s += ", PRE_EOL " + std::string(report.judgement.verdict == Verdict::end_of_life ? "urgent" : "warning");
    if (const auto spare = spare_left_of(report)) s += fmt::format(", spare blocks left {:g}%", *spare);
    if (const auto& c = report.canary) {
        s += ", canary " + std::string(to_string(c->state));
        if (c->lost) s += fmt::format(" ({} of {} bytes)", c->lost, c->written);
    }
    return s;
}

} // namespace

std::string_view to_string(NagiosState s)
{
    switch (s) {
    case NagiosState::ok: return "OK";
    case NagiosState::warning: return "WARNING";
    case NagiosState::critical: return "CRITICAL";
    case NagiosState::unknown: return "UNKNOWN";
    }
    return "UNKNOWN";
}

NagiosState nagios_state_of(Verdict v)
{
    switch (v) {
    case Verdict::healthy: return NagiosState::ok;
    case Verdict::worn: return NagiosState::warning;
    case Verdict::end_of_life:
    case Verdict::read_only: return NagiosState::critical;
    case Verdict::unknown: return NagiosState::unknown;
    }
    return NagiosState::unknown;
}

int nagios_severity(NagiosState s)
{
    switch (s) {
    case NagiosState::ok: return 0;
    case NagiosState::unknown: return 1;
    case NagiosState::warning: return 2;
    case NagiosState::critical: return 3;
    }
    return 1;
}

std::optional<double> life_used_of(const HealthReport& report)
{
    std::optional<double> most;
    for (const auto& r : report.readings)
        if (r.wear.life_used_percent && (!most || *r.wear.life_used_percent > *most)) most = r.wear.life_used_percent;
    return most;
}

NagiosAnswer nagios_check(const std::vector<NagiosCard>& cards, const NagiosThresholds& t)
{
    if (cards.empty()) return nagios_unknown("no card to check");
    NagiosState worst = NagiosState::ok;
    auto raise = [](NagiosState& to, NagiosState s) {
        if (nagios_severity(s) > nagios_severity(to)) to = s;
    };
    std::vector<std::string> summaries, perf;
    std::vector<NagiosState> states;
    const bool one = cards.size() == 1;
    for (const auto& card : cards) {
        NagiosState state = nagios_state_of(card.report->judgement.verdict);
        NagiosState by_threshold = NagiosState::ok;
        const auto used = life_used_of(*card.report);
        if (used) {
            if (t.critical && t.critical->alerts(*used)) by_threshold = NagiosState::critical;
            else if (t.warning && t.warning->alerts(*used)) by_threshold = NagiosState::warning;
        }
        raise(state, by_threshold);
        raise(worst, state);
        states.push_back(state);
        summaries.push_back(card_summary(card, by_threshold, t));
        const std::string prefix = one ? "" : card.name + "_";
        if (used)
            perf.push_back(fmt::format("{}={:g}%;{};{};0", perf_label(prefix + "life_used"), *used,
                                       t.warning ? t.warning->text : "", t.critical ? t.critical->text : ""));
        if (const auto spare = spare_left_of(*card.report))
            perf.push_back(fmt::format("{}={:g}%;;;0;100", perf_label(prefix + "spare_left"), *spare));
    }
    // The cards with the worst state first: the line's start is what a
    // narrow dashboard column shows.
    std::vector<std::size_t> order(cards.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return nagios_severity(states[a]) > nagios_severity(states[b]);
    });
    std::string text;
    for (std::size_t i : order) text += (text.empty() ? "" : "; ") + summaries[i];
    std::string line = fmt::format("MMC_HEALTH {} - {}", to_string(worst), plugin_text(text));
    if (!perf.empty()) {
        line += " |";
        for (const auto& p : perf) line += " " + p;
    }
    return {worst, line};
}

NagiosAnswer nagios_unknown(std::string_view why)
{
    return {NagiosState::unknown, fmt::format("MMC_HEALTH UNKNOWN - {}", plugin_text(why))};
}

} // namespace mmc::health
