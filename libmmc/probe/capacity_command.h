// mmc-probe capacity: the subcommand's whole main (options, safety,
// confirmation, signals, progress, output), so that tools/mmc-probe.cpp only
// dispatches. `argv[0]` is the subcommand's name.
#pragma once

namespace mmc::probe {

int run_capacity(int argc, char** argv);

} // namespace mmc::probe
