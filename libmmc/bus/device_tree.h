// The facts of an MMC host's device-tree node that bear on bus speed, and the
// parser of device-tree source as people have it: a DTS fragment (a board
// file, an overlay "&sdmmc { ... };"), or `dtc -I fs` / `dtc -I dtb -O dts`
// output of one node or a whole tree. Pure: the live tree and copied node
// directories are read in libmmc/dev.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bus {

// The regulator behind vqmmc-supply (the I/O voltage), when it was found.
struct Regulator {
    std::string node;                    // "vcc_sdio" (label or node name)
    std::string name;                    // regulator-name, if any
    std::optional<uint32_t> min_microvolt, max_microvolt;
    // Reaches 1.8 V: UHS-I, HS200 and HS400 need it.
    bool reaches_1v8() const { return min_microvolt && *min_microvolt <= 1'950'000; }
    // Reaches 3.3 V (or 3.0 V and up): the voltage every card starts at.
    bool reaches_3v3() const { return max_microvolt && *max_microvolt >= 2'700'000; }
};

struct DeviceTree {
    std::string node;                        // "mmc@fe2c0000", "&sdmmc", "/" for a node's own dump
    std::string label;                       // "sdmmc", when the source names one
    bool label_in_symbols = false;           // the label is the tree's own __symbols__ entry (built with dtc -@)
    std::string path;                        // "/mmc@fe2c0000", when known
    std::string source;                      // where it came from: "/proc/device-tree/...", "board.dts (DTS)"
    std::vector<std::string> compatible;     // every string, most specific first
    std::optional<uint32_t> max_frequency;   // f_max
    std::optional<uint32_t> max_sd_hs_hz;    // clock cap for SD high speed (mmc-controller binding)
    std::optional<uint32_t> overclock_50_mhz; // brcm,overclock-50: bcm2835-sdhost's clock for a 50 MHz request, MHz
    std::optional<uint32_t> bus_width;
    std::vector<std::string> flags;          // present boolean properties: "no-1-8-v", "sd-uhs-sdr104", "mmc-hs200-1_8v", ...
    bool has_vqmmc_supply = false;
    std::optional<Regulator> vqmmc;          // the regulator, when the tree holds it
    std::string status;                      // "okay", "disabled", "" (absent means okay)
    std::vector<std::string> notes;          // what could not be read (a value that was an expression, ...)

    bool has(std::string_view flag) const;
    // How an overlay names the node: "&sdmmc", "&{/mmc@fe2c0000}", or "&mmcN" when nothing is known.
    std::string overlay_target() const;
    bool is_compatible(std::string_view c) const;
    // A binding the sdhci driver family serves (its compatibles name
    // sdhci, usdhc, esdhc or dwcmshc; the Pi 4's EMMC2 is sdhci-iproc's,
    // drivers/mmc/host/sdhci-iproc.c): false for every other driver.
    bool sdhci_binding() const;
};

// The boolean properties the doctor reads, and sdhci-caps-mask, read only
// for its presence (also the list a directory reader looks for).
const std::vector<std::string_view>& device_tree_flags();

struct DtsParse {
    std::optional<DeviceTree> host;          // the chosen MMC host node
    std::vector<std::string> candidates;     // every MMC host node seen, by name
    std::string error;                       // why nothing was chosen (empty when host is set)
};

// Parse DTS text, with its line breaks or all on one line as a web archive
// shows a paste (a "//" comment then ends where a statement begins; a
// #define whose end cannot be told is an error that says so). `select` picks a node by name ("mmc@fe2c0000"), label
// ("sdmmc"), unit address ("fe2c0000") or path suffix; empty picks the only
// enabled MMC host node and fails when there are several. Labels and
// phandles resolve vqmmc-supply to its regulator when the text holds it; an
// overlay's "&label { }" merges into the labelled node when both are there.
// Linear in the text; nesting deeper than 64 levels is refused.
DtsParse parse_dts(std::string_view text, std::string_view select = {});

} // namespace mmc::bus
