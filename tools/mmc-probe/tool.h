// The name mmc-probe and its subcommands give in messages, --version and
// usage: one place for the tool and its parts (tools/mmc-probe/).
#pragma once

namespace mmc_probe {

inline constexpr const char* tool = "mmc-probe";

} // namespace mmc_probe
