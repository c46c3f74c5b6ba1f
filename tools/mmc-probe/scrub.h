// `mmc-probe scrub`: the subcommand's options, the device, signals, the
// progress line and the choice of view. The scrub itself is libmmc's
// (probe/scrub.h); tools/mmc-probe.cpp dispatches here.
#pragma once

namespace mmc_probe {

// argv[0] is the subcommand's name. Returns the exit status
// (scrub_view.h's scrub_exit_status; 1, 2, 130 otherwise).
int run_scrub(int argc, char** argv);

} // namespace mmc_probe
