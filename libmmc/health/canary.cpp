#include "health/canary.h"

namespace mmc::health {

std::string_view to_string(CanaryState s)
{
    switch (s) {
    case CanaryState::ok: return "ok";
    case CanaryState::lost_writes: return "lost_writes";
    case CanaryState::corrupt: return "corrupt";
    case CanaryState::read_errors: return "read_errors";
    case CanaryState::read_only: return "read_only";
    case CanaryState::dead: return "dead";
    }
    return "?";
}

void apply_canary(HealthReport& report, const CanaryResult& canary)
{
    report.canary = canary;
    if (canary.state == CanaryState::ok) return;
    const Verdict said = canary.state == CanaryState::read_only ? Verdict::read_only : Verdict::end_of_life;
    if (severity(said) <= severity(report.judgement.verdict)) return;
    report.judgement = {said, "canary", DecidingFigure::canary};
}

} // namespace mmc::health
