#include "health/block_check.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

std::optional<std::string> not_health_data(std::span<const uint8_t> block)
{
    if (block.size() != cmd56_block_size)
        return fmt::format("the block is {} bytes, not {}", block.size(), cmd56_block_size);
    // One byte repeated: 0x00 and 0xff from real cards, 0xec from QEMU's
    // SD model (before 9.1 it fills every CMD56 read with 0xec).
    if (std::all_of(block.begin(), block.end(), [&](uint8_t b) { return b == block[0]; }))
        return fmt::format("the card answered with a block of 0x{:02x} bytes", block[0]);
    if (block[510] == 0x55 && block[511] == 0xaa)
        return "the card answered with a boot sector (0x55 0xaa signature), not a health block";
    // x86 boot code as MBRs begin: cli (0xfa) then a mov, or a short/near jump.
    if ((block[0] == 0xfa && (block[1] == 0x31 || block[1] == 0x33 || block[1] == 0xb8)) ||
        (block[0] == 0xeb && block[2] == 0x90))
        return "the card answered with what looks like MBR boot code, not a health block";
    return std::nullopt;
}

} // namespace mmc::health
