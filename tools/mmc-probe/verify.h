// `mmc-probe verify`: the subcommand's options, the device's safety or the
// file system's directory, the confirmation, signals, the progress line and
// the choice of view. The verify itself is libmmc's (probe/verify.h);
// tools/mmc-probe.cpp dispatches here.
#pragma once

namespace mmc_probe {

// argv[0] is the subcommand's name. Returns the exit status
// (verify_view.h's verify_exit_status for a verdict; 1, 2, 130 otherwise).
int run_verify(int argc, char** argv);

} // namespace mmc_probe
