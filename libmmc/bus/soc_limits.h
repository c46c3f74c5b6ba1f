// What an MMC host controller can do at most on its SoC, per device-tree
// compatible, with the source that says so. The doctor uses it to tell a
// SoC (host) limit from a board's choice: a max-frequency at the SoC's own
// value is the SoC's; one that differs from it is the board's. The table itself is in
// soc_limits.cpp: add a row there, with its source.
#pragma once

#include "bus/device_tree.h"
#include "bus/modes.h"

#include <optional>
#include <string_view>

namespace mmc::bus {

// The best mode a controller supports, one per card family; nullopt: not known.
struct BestModes {
    std::optional<Mode> sd = std::nullopt;
    std::optional<Mode> mmc = std::nullopt;
};

struct SocLimit {
    std::string_view compatible;  // matched against every compatible string of the node
    std::string_view unit_address; // "" any node; "ffc30000" only mmc@ffc30000 (one node set apart)
    std::string_view controller;  // "RK3399 SD/SDIO (dw_mmc)"
    double clock_hz = 0;          // highest clock known for this controller; 0 when not known
    bool clock_is_limit = false;  // true: the SoC's own limit (its .dtsi); false: only "at least" (a report)
    BestModes best_mode;          // best modes the controller supports: {SDR104, HS200}
    int max_bus_width = 0;        // data lines the controller has; 0 when not known
    std::string_view source;      // where the figures come from
    // The driver takes the controller's modes from the hardware (the SDHCI
    // capability register, or fixed in the driver), so a device tree without
    // sd-uhs-* properties does not stop it below best_mode.
    bool modes_from_hardware = false;
    // best_mode is the controller's own limit: no device-tree or driver
    // setting raises it, so a card that stops at the same mode is not the cause.
    bool best_mode_is_limit = false;
    // Why the controller stops at best_mode, in the words a user of the board
    // needs ("" when the source says it all), and what to try instead.
    std::string_view why;
    std::string_view instead;
    // What to check when the bus runs below best_mode on this board.
    std::string_view below_best_hint;
};

// The row for the node's most specific (first) compatible in the table (a
// row for its unit address before the general one); nullptr if none: a
// fallback compatible never picks a row.
const SocLimit* soc_limit(const DeviceTree& dt);

} // namespace mmc::bus
