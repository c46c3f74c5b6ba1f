#include "cli/printable.h"

#include <cstdint>
#include <fmt/format.h>

namespace mmc::cli {

namespace {

// The length of the valid UTF-8 sequence at text[i] (1-4), or 0 when the
// bytes there are not one. Follows RFC 3629's table of well-formed sequences.
std::size_t utf8_length(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<uint8_t>(text[k]); };
    const uint8_t b0 = byte(i);
    if (b0 < 0x80) return 1;
    std::size_t n;
    uint8_t lo = 0x80, hi = 0xbf; // allowed range of the second byte
    if (b0 >= 0xc2 && b0 <= 0xdf) n = 2;
    else if (b0 == 0xe0) n = 3, lo = 0xa0;
    else if (b0 >= 0xe1 && b0 <= 0xec) n = 3;
    else if (b0 == 0xed) n = 3, hi = 0x9f; // no UTF-16 surrogates
    else if (b0 >= 0xee && b0 <= 0xef) n = 3;
    else if (b0 == 0xf0) n = 4, lo = 0x90;
    else if (b0 >= 0xf1 && b0 <= 0xf3) n = 4;
    else if (b0 == 0xf4) n = 4, hi = 0x8f; // nothing above U+10FFFF
    else return 0;
    if (i + n > text.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
    return n;
}

} // namespace

bool is_valid_utf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto b0 = static_cast<uint8_t>(text[i]);
        const std::size_t n = utf8_length(text, i);
        // C1 controls are U+0080-U+009F: 0xc2 0x80-0x9f in UTF-8.
        const bool c1 = n == 2 && b0 == 0xc2 && static_cast<uint8_t>(text[i + 1]) <= 0x9f;
        if (n == 0 || b0 < 0x20 || b0 == 0x7f || c1) {
            const std::size_t len = c1 ? 2 : 1;
            for (std::size_t k = 0; k < len; ++k) out += fmt::format("\\x{:02x}", static_cast<uint8_t>(text[i + k]));
            i += len;
            continue;
        }
        out.append(text.substr(i, n));
        i += n;
    }
    return out;
}

} // namespace mmc::cli
