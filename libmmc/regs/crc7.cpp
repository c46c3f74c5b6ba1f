#include "regs/crc7.h"

#include <fmt/format.h>

namespace mmc::regs {

uint8_t crc7(std::span<const uint8_t> data)
{
    uint8_t crc = 0;
    for (uint8_t byte : data) {
        for (int bit = 7; bit >= 0; --bit) {
            const bool in = ((byte >> bit) & 1u) != ((crc >> 6) & 1u);
            crc = static_cast<uint8_t>((crc << 1) & 0x7f);
            if (in) crc ^= 0x09;
        }
    }
    return crc;
}

void add_crc7_check(DecodedRegister& r)
{
    const uint8_t computed = crc7(std::span(r.bytes).first(15));
    const uint8_t last = r.bytes[15];
    const bool present = (last & 0xfe) != 0;
    r.add("crc7_computed", int64_t{computed}, "CRC7 (computed)", fmt::format("0x{:02x}", computed));
    r.add("crc_byte_present", present, "CRC byte kept by host");
    r.add("last_byte", int64_t{last}, "Last byte", fmt::format("0x{:02x}", last));
    if (!present) return;
    const uint8_t stored = last >> 1;
    r.add("crc7_stored", int64_t{stored}, "CRC7 (stored)", fmt::format("0x{:02x}", stored));
    r.add("end_bit", int64_t{last & 1}, "End bit");
    r.add("crc7_matches", stored == computed, "CRC7 matches");
    if (stored != computed)
        r.warnings.push_back(fmt::format("stored CRC7 0x{:02x} differs from computed 0x{:02x}", stored, computed));
}

} // namespace mmc::regs
