#include "health/block_bytes.h"

#include <fmt/format.h>

namespace mmc::health {

uint64_t BlockBytes::be(std::size_t at, std::size_t width) const
{
    uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i) v = (v << 8) | u8(at + i);
    return v;
}

uint64_t BlockBytes::le(std::size_t at, std::size_t width) const
{
    uint64_t v = 0;
    for (std::size_t i = width; i-- > 0;) v = (v << 8) | u8(at + i);
    return v;
}

std::string BlockBytes::ascii(std::size_t at, std::size_t len) const
{
    std::string s;
    for (std::size_t i = at; i < at + len && i < b_.size(); ++i) {
        const uint8_t c = b_[i];
        if (c == 0) break;
        s += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '.';
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

std::string BlockBytes::hex(std::size_t at, std::size_t len) const
{
    std::string s;
    for (std::size_t i = at; i < at + len && i < b_.size(); ++i) s += fmt::format("{:02x}", b_[i]);
    return s;
}

uint64_t BlockBytes::sum(std::size_t at, std::size_t len) const
{
    uint64_t s = 0;
    for (std::size_t i = at; i < at + len; ++i) s += u8(i);
    return s;
}

bool BlockBytes::starts_with(std::string_view text) const
{
    if (b_.size() < text.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (b_[i] != static_cast<uint8_t>(text[i])) return false;
    return true;
}

} // namespace mmc::health
