// `mmc-probe geometry`: the subcommand's main. Option parsing, the device's
// identity, the ladder, the open-AU test behind --destructive (refused as
// every tool refuses a write: dev::resolve_device's verdict, --any-device,
// confirmation or --yes), and the text and JSON views. tools/mmc-probe.cpp dispatches here.
#pragma once

#include <string>
#include <vector>

namespace mmc::probe {

// args: what follows "geometry" on the command line. Returns the exit
// status: 0, 1 failure, 2 usage, 130 interrupted (cli::Exit).
int run_geometry(const std::vector<std::string>& args);

} // namespace mmc::probe
