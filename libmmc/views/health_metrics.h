// mmc-health --prometheus: the cards' health in the Prometheus text format
// that node_exporter's textfile collector reads, named by Prometheus's
// conventions (base units, _ratio for 0-1, _total for counters, state sets
// for enumerations, no empty label). The names of the previous release are
// written beside the new ones for one release, "Deprecated" in their HELP.
#pragma once

#include "views/health_view.h"

#include <string>
#include <vector>

namespace mmc::out {

// Every card's metrics, one HELP and TYPE per metric family, and
// mmc_health_cards: with no card the file says 0 and holds no card series.
std::string health_prometheus(const std::vector<CardHealth>& cards);

} // namespace mmc::out
