#pragma once

namespace mmc {
inline constexpr const char* version = "0.1.0";
}
