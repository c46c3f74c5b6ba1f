// Whether a block a card returned to CMD56 can be health data at all. Cards
// that do not implement a layout answer with something else: all 0x00 or all
// 0xff (sdmon issues 42, 43), or the first sector of the card, MBR boot code
// and all (sdmon issue 18), or, from QEMU's SD model, 0xec. Those are "no
// health data", never decoded.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace mmc::health {

inline constexpr std::size_t cmd56_block_size = 512;

// Why the block cannot be health data, or nullopt when it may be.
// Checked: size (exactly 512 bytes), one byte repeated (all 0x00, all
// 0xff, QEMU's 0xec), an MBR or boot
// sector (0x55 0xaa at 510, or x86 boot code at 0).
std::optional<std::string> not_health_data(std::span<const uint8_t> block);

} // namespace mmc::health
