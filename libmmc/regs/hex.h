// Parse register images typed or pasted the way Linux and other hosts print
// them: "0x" prefixes, upper or lower case, spaces, colons, newlines or
// tabs between bytes or words. Pure: reading "@FILE" is the caller's job.
#pragma once

#include "regs/register.h"

#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace mmc::regs {

struct HexError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Any run of hex digits, separators ignored; throws HexError on an odd
// number of digits, a non-hex character or empty input.
std::vector<uint8_t> parse_hex(std::string_view text);

// The image of one register: exactly register_size(kind) bytes. OCR and card
// status are 32-bit numbers and may be given with fewer digits ("0x200000").
// Errors name the register, the expected length and what was given.
std::vector<uint8_t> parse_register_hex(RegKind kind, std::string_view text);

// Lower-case hex of the bytes, no separators.
std::string to_hex(std::span<const uint8_t> bytes);

} // namespace mmc::regs
