#include "health/block_check.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::health {

std::optional<std::string> not_health_data(std::span<const uint8_t> block)
{
    if (block.size() != cmd56_block_size)
        return fmt::format("the block is {} bytes, not {}", block.size(), cmd56_block_size);
    auto all = [&](uint8_t v) { return std::all_of(block.begin(), block.end(), [v](uint8_t b) { return b == v; }); };
    if (all(0x00)) return "the card answered with a block of 0x00 bytes";
    if (all(0xff)) return "the card answered with a block of 0xff bytes";
    if (block[510] == 0x55 && block[511] == 0xaa)
        return "the card answered with a boot sector (0x55 0xaa signature), not a health block";
    // x86 boot code as MBRs begin: cli (0xfa) then a mov, or a short/near jump.
    if ((block[0] == 0xfa && (block[1] == 0x31 || block[1] == 0x33 || block[1] == 0xb8)) ||
        (block[0] == 0xeb && block[2] == 0x90))
        return "the card answered with what looks like MBR boot code, not a health block";
    return std::nullopt;
}

} // namespace mmc::health
