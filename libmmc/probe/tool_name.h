// The name mmc-probe's subcommands give in messages, --version and JSON.
#pragma once

namespace mmc::probe {

inline constexpr const char* probe_tool = "mmc-probe";

} // namespace mmc::probe
