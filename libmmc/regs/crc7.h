// CRC7 as the SD and MMC specs define it for CID and CSD (polynomial
// x^7 + x^3 + 1). Computed and compared, never required: many hosts store 0.
#pragma once

#include "regs/register.h"

#include <cstdint>
#include <span>

namespace mmc::regs {

// CRC7 over the given bytes (for CID/CSD: the first 15 bytes).
uint8_t crc7(std::span<const uint8_t> data);

// Add the CRC check of a CID or CSD image to its decoded values:
// crc7_computed, crc_byte_present, and when present crc7_stored, end_bit and
// crc7_matches; a mismatch is a warning, never an error. A last byte of 0x00
// or 0x01 means the host did not keep the CRC.
void add_crc7_check(DecodedRegister& r);

} // namespace mmc::regs
