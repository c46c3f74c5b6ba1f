// `mmc-probe geometry`: the subcommand's options, the refusals and the
// confirmation before the open-AU test writes, and the choice of view. The
// probe itself is libmmc's (probe/geometry_run.h); tools/mmc-probe.cpp
// dispatches here.
#pragma once

#include <string>
#include <vector>

namespace mmc_probe {

// args: what follows "geometry" on the command line. Returns the exit
// status: 0, 1 failure, 2 usage, 130 interrupted (cli::Exit).
int run_geometry(const std::vector<std::string>& args);

} // namespace mmc_probe
