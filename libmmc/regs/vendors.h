// Manufacturer names for the CID MID byte. SD IDs are assigned by SD-3C LLC
// and MMC/eMMC IDs by JEDEC; neither list is published, so the tables hold
// only names attested in public code (the Linux kernel, mmc-utils, ...),
// each with its source in vendors.cpp. An ID not listed is "unknown (0xNN)".
#pragma once

#include <cstdint>
#include <string>

namespace mmc::regs {

// "Toshiba (Kioxia)" for 0x02, "unknown (0x99)" for an unlisted ID.
std::string sd_manufacturer(uint8_t mid);
// "Samsung" for 0x15, "unknown (0x99)" for an unlisted ID.
std::string mmc_manufacturer(uint8_t mid);

} // namespace mmc::regs
