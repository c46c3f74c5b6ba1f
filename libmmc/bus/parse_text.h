// Character tests and trimming for the bus module's text parsers (ios,
// device tree, kernel log): one copy of each, ASCII only, locale-free, since
// they read kernel text, not a person's language.
#pragma once

#include <cctype>
#include <string_view>

namespace mmc::bus {

inline bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

// s without the white space at either end.
inline std::string_view trim_space(std::string_view s)
{
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

} // namespace mmc::bus
