#include "regs/hex.h"

#include <cctype>
#include <fmt/format.h>

namespace mmc::regs {

namespace {

bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':' || c == ',' || c == '-' || c == '_'; }

int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The hex digits of the text, with separators and "0x" prefixes removed.
std::string hex_digits(std::string_view text)
{
    std::string digits;
    digits.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (is_separator(c)) continue;
        // "0x" starts a token: at the start or right after a separator.
        const bool token_start = i == 0 || is_separator(text[i - 1]);
        if (c == '0' && token_start && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X')) {
            ++i;
            continue;
        }
        if (hex_value(c) < 0) {
            const unsigned char uc = static_cast<unsigned char>(c);
            throw HexError(std::isprint(uc) ? fmt::format("'{}' at position {} is not a hex digit", c, i + 1)
                                            : fmt::format("byte 0x{:02x} at position {} is not a hex digit", uc, i + 1));
        }
        digits.push_back(c);
    }
    return digits;
}

std::vector<uint8_t> digits_to_bytes(const std::string& digits)
{
    std::vector<uint8_t> bytes(digits.size() / 2);
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<uint8_t>(hex_value(digits[2 * i]) << 4 | hex_value(digits[2 * i + 1]));
    return bytes;
}

} // namespace

std::vector<uint8_t> parse_hex(std::string_view text)
{
    const std::string digits = hex_digits(text);
    if (digits.empty()) throw HexError("no hex digits given");
    if (digits.size() % 2 != 0) throw HexError(fmt::format("odd number of hex digits ({})", digits.size()));
    return digits_to_bytes(digits);
}

std::vector<uint8_t> parse_register_hex(RegKind kind, std::string_view text)
{
    const std::size_t size = register_size(kind);
    const auto name = to_string(kind);
    std::string digits;
    try {
        digits = hex_digits(text);
    } catch (const HexError& e) {
        throw HexError(fmt::format("{}: {}", name, e.what()));
    }
    if (digits.empty())
        throw HexError(fmt::format("{}: empty value; expected {} bytes ({} hex digits)", name, size, size * 2));
    // 32-bit registers are numbers: "0x200000" is OCR 0x00200000.
    const bool is_word = kind == RegKind::ocr || kind == RegKind::status;
    if (is_word && digits.size() < size * 2) digits.insert(0, size * 2 - digits.size(), '0');
    if (digits.size() != size * 2)
        throw HexError(fmt::format("{}: expected {} bytes ({} hex digits), got {} hex digit{}", name, size, size * 2,
                                   digits.size(), digits.size() == 1 ? "" : "s"));
    return digits_to_bytes(digits);
}

std::string to_hex(std::span<const uint8_t> bytes)
{
    std::string out;
    out.reserve(bytes.size() * 2);
    for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
    return out;
}

} // namespace mmc::regs
