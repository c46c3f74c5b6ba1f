// The name mmc-tune and its subcommands give in messages, --version and
// usage: one place for the tool and its parts (tools/mmc-tune/).
#pragma once

namespace mmc_tune {

inline constexpr const char* tool = "mmc-tune";

} // namespace mmc_tune
