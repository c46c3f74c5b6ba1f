#include "regs/bitfield.h"

#include <stdexcept>

namespace mmc::regs {

uint64_t bits(std::span<const uint8_t> reg, int hi, int lo)
{
    const int total = static_cast<int>(reg.size()) * 8;
    if (lo < 0 || hi < lo || hi >= total || hi - lo >= 64)
        throw std::out_of_range("bit range outside register");
    uint64_t value = 0;
    for (int bit = hi; bit >= lo; --bit) {
        const std::size_t byte = reg.size() - 1 - static_cast<std::size_t>(bit / 8);
        value = (value << 1) | ((reg[byte] >> (bit % 8)) & 1u);
    }
    return value;
}

uint64_t le_bytes(std::span<const uint8_t> reg, int hi, int lo)
{
    if (lo < 0 || hi < lo || hi >= static_cast<int>(reg.size()) || hi - lo >= 8)
        throw std::out_of_range("byte range outside register");
    uint64_t value = 0;
    for (int i = hi; i >= lo; --i)
        value = (value << 8) | reg[static_cast<std::size_t>(i)];
    return value;
}

} // namespace mmc::regs
