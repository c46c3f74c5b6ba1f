// The health sources that are not CMD56 layouts: the eMMC's own EXT_CSD
// fields and Swissbit's figures in the SD status. Pure, like the layouts.
#pragma once

#include "health/reading.h"
#include "regs/register.h"

#include <optional>
#include <string>

namespace mmc::health {

// A source's answer: its reading, or why it has none.
struct SourceResult {
    std::optional<Reading> reading;
    std::string none_because;
};

// EXT_CSD (JESD84-B51 7.4): DEVICE_LIFE_TIME_EST_TYP_A/B [268]/[269],
// PRE_EOL_INFO [267], VENDOR_PROPRIETARY_HEALTH_REPORT [301:270], read from
// the register regs/ext_csd.cpp decoded. Only from EXT_CSD_REV 7 (eMMC 5.0),
// where the fields were defined; an older register has no reading.
SourceResult ext_csd_health(const regs::DecodedRegister& ext_csd);

// Swissbit SD cards (CID MID 0x5D, OID "SB") put wear figures in the vendor
// part of the SD status (ACMD13), as collectd's mmc plugin reads them from
// sysfs "ssr": byte 33 spare blocks left in percent, bytes 46-51 block erases
// and 56-59 power-on count, big-endian. A spare figure above 100 is not this
// layout.
SourceResult ssr_swissbit(std::span<const uint8_t> ssr);

} // namespace mmc::health
