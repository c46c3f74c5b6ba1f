// Bit and byte extraction from register images, in the numbering the SD and
// JEDEC specs use.
#pragma once

#include <cstdint>
#include <span>

namespace mmc::regs {

// Bits [hi:lo] of a big-endian register image (CID, CSD, SCR, SSR, switch
// status): bit 0 is the least significant bit of the last byte, so bit
// 8*size-1 is the most significant bit of byte 0. At most 64 bits wide.
uint64_t bits(std::span<const uint8_t> reg, int hi, int lo);

// Bytes [hi..lo] of a little-endian byte-indexed register (EXT_CSD): byte lo
// is the least significant. At most 8 bytes.
uint64_t le_bytes(std::span<const uint8_t> reg, int hi, int lo);

} // namespace mmc::regs
