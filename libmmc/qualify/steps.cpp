// The step table; each step family's spec and runner are in steps_*.cpp.
#include "qualify/steps.h"

namespace mmc::qualify {

std::vector<StepSpec> step_table(const Settings& s)
{
    std::vector<StepSpec> table;
    table.push_back(info_step());
    table.push_back(bus_step());
    table.push_back(health_step());   // read-only: always (skipped when mmc-health is not installed)
    table.push_back(geometry_step()); // read-only: always
    table.push_back(erase_step());
    table.push_back(capacity_step()); // --destructive: after the erase, before the benchmarks write
    // The state and sustained suites are steps of their own, below.
    for (const bench::Suite suite : s.suites)
        if (suite != bench::Suite::state && suite != bench::Suite::sustained) table.push_back(bench_step(suite));
    if (s.sustained) table.push_back(sustained_step()); // --destructive --sustained: the whole card, before the state suite
    table.push_back(state_step()); // --destructive: what erasing buys
    if (s.tune) {
        table.push_back(tune_bus_step());   // --tune: after every measurement, as the trials change the host
        table.push_back(tune_queue_step());
    }
    return table;
}

} // namespace mmc::qualify
