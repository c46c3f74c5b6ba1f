#include "health/verdict.h"

namespace mmc::health {

std::string_view to_string(Verdict v)
{
    switch (v) {
    case Verdict::healthy: return "healthy";
    case Verdict::worn: return "worn";
    case Verdict::end_of_life: return "end_of_life";
    case Verdict::read_only: return "read_only";
    case Verdict::unknown: return "unknown";
    }
    return "?";
}

std::string_view to_string(DecidingFigure f)
{
    switch (f) {
    case DecidingFigure::none: return "";
    case DecidingFigure::life_used_percent: return "life_used_percent";
    case DecidingFigure::pre_eol: return "pre_eol";
    case DecidingFigure::spare_blocks_percent: return "spare_blocks_percent";
    case DecidingFigure::writable: return "writable";
    case DecidingFigure::canary: return "canary";
    }
    return "";
}

int exit_status(Verdict v)
{
    switch (v) {
    case Verdict::healthy: return 0;
    case Verdict::worn: return 3;
    case Verdict::end_of_life: return 4;
    case Verdict::read_only: return 5;
    case Verdict::unknown: return 6;
    }
    return 1;
}

std::optional<Verdict> verdict_of_exit_status(int status)
{
    for (Verdict v : {Verdict::healthy, Verdict::worn, Verdict::end_of_life, Verdict::read_only, Verdict::unknown})
        if (exit_status(v) == status) return v;
    return std::nullopt;
}

int severity(Verdict v)
{
    switch (v) {
    case Verdict::end_of_life: return 4;
    case Verdict::read_only: return 3;
    case Verdict::worn: return 2;
    case Verdict::unknown: return 1;
    case Verdict::healthy: return 0;
    }
    return 0;
}

namespace {

// The figure of a reading that says end of life, or none.
DecidingFigure exhausted_by(const Wear& w)
{
    if (w.life_exhausted.value_or(false)) return DecidingFigure::life_used_percent;
    if (w.pre_eol == PreEol::urgent) return DecidingFigure::pre_eol;
    if (w.spare_blocks_percent && *w.spare_blocks_percent <= 0) return DecidingFigure::spare_blocks_percent;
    return DecidingFigure::none;
}

DecidingFigure worn_by(const Wear& w)
{
    if (w.life_used_percent && *w.life_used_percent >= worn_life_used_percent) return DecidingFigure::life_used_percent;
    if (w.pre_eol == PreEol::warning) return DecidingFigure::pre_eol;
    if (w.spare_blocks_percent && *w.spare_blocks_percent <= worn_spare_left_percent) return DecidingFigure::spare_blocks_percent;
    return DecidingFigure::none;
}

} // namespace

Judgement judge(const std::vector<Reading>& readings, const Writability& writability)
{
    for (const auto& r : readings)
        if (auto f = exhausted_by(r.wear); f != DecidingFigure::none) return {Verdict::end_of_life, r.source, f};
    if (writability.writable == false) return {Verdict::read_only, "writability", DecidingFigure::writable};
    for (const auto& r : readings)
        if (auto f = worn_by(r.wear); f != DecidingFigure::none) return {Verdict::worn, r.source, f};
    for (const auto& r : readings)
        if (r.wear.judgeable()) return {Verdict::healthy, {}, {}};
    return {};
}

} // namespace mmc::health
