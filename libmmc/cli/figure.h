// A measured figure in text, to the digits its measurement supports: the
// README promises figures that carry their precision. JSON keeps the full
// number; only the text views round.
#pragma once

#include <optional>
#include <string>

namespace mmc::cli {

// value rounded to two significant digits of half_width (the 95% interval's
// half width, in value's unit): 87.468 +-1.7 -> "87.5", 21354.5 +-430 ->
// "21350". Always 2 to 4 significant digits of value (a zero width gives 4);
// without a half width (no interval: one round, a single I/O) 3: "87.5".
std::string figure_text(double value, std::optional<double> half_width);

} // namespace mmc::cli
