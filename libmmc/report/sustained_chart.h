// The sustained suite's picture: throughput against bytes written, the
// figure people expect from HD Tune-style tools, with the knee (where the
// SLC cache ran out) and the class line (the highest speed the card claims)
// marked. One self-contained SVG for the HTML report.
#pragma once

#include "report/bundle.h"

#include <string>

namespace mmc::report {

// SVG class "chart sustained"; `label` names the card and host. Empty when
// the curve has no points.
std::string sustained_chart(const SustainedCurve& curve, const std::string& id, const std::string& label);

} // namespace mmc::report
