// Text that came from a card, a file or a bundle is shown on a terminal
// only through printable(): control bytes (an ESC could recolour or retitle
// the terminal) and bytes that are not UTF-8 are shown as \xNN; valid UTF-8
// stays as it is. One rule for every text view.
#pragma once

#include <string>
#include <string_view>

namespace mmc::cli {

// True when text is well-formed UTF-8 (no overlong forms, no surrogates,
// nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// text with C0 controls, DEL, C1 controls (U+0080-U+009F) and every byte
// that is not part of valid UTF-8 written as \xNN, and '\' itself kept.
std::string printable(std::string_view text);

} // namespace mmc::cli
