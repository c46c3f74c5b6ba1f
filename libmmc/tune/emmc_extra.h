// The remaining mmc-utils settings of mmc-tune emmc, beside settings.h's:
// one boot partition's write protection (--boot-wp MODE,N), a raw byte of
// the EXT_CSD modes segment (--extcsd-write OFFSET=VALUE) for the fields no
// typed setting covers, and 512-byte emulation (--sector-emulation). Their
// planners are plan.h's plan_boot_wp_area and plan_extra_settings. Pure.
#pragma once

#include "tune/settings.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mmc::tune {

// "power-on", "permanent", "power-on,1", "permanent,2": the mode and the
// boot partition (1 or 2; 0 both).
std::pair<BootWp, int> parse_boot_wp_area(std::string_view value);
// "OFFSET=VALUE": the byte index (decimal or 0x hex) and the byte.
RawWrite parse_extcsd_write(std::string_view value);

// What a raw write may do to an EXT_CSD byte, by the byte's kind in
// JESD84-B51 7.4 (the EXT_CSD table's cell types: R, W, R/W, R/W/E,
// R/W/C_P, R/W/E_P, W/E_P).
enum class RawKind {
    free,       // R/W or R/W/E with no typed setting: written as given
    one_time,   // bits that are set once and for good (mask: which)
    typed,      // a typed setting writes it, with its guards
    kernels,    // the kernel's own bus, power or queue state
    trigger,    // write-only: an action the read-back cannot confirm
    read_only,  // R, or the properties segment [511:192]
    reserved,   // no field
};

struct RawField {
    RawKind kind = RawKind::reserved;
    std::string name;                    // "SEC_BAD_BLK_MGMNT", from the EXT_CSD decoder's table
    uint8_t one_time_bits = 0;           // with one_time: the bits that cannot be cleared again
    std::optional<Setting> typed_by;     // with typed: the setting that writes it
};

// The byte at `index` (0-511) as a raw write sees it.
RawField raw_field(int index);

} // namespace mmc::tune
