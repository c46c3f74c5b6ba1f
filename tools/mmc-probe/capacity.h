// `mmc-probe capacity`: the subcommand's options, the device's safety, the
// confirmation, signals, the progress line and the choice of view. The
// probe itself is libmmc's (probe/capacity_run.h); tools/mmc-probe.cpp
// dispatches here.
#pragma once

namespace mmc_probe {

// argv[0] is the subcommand's name. Returns the exit status (capacity_view.h's
// exit_status for a verdict; 1, 2, 130 otherwise).
int run_capacity(int argc, char** argv);

} // namespace mmc_probe
