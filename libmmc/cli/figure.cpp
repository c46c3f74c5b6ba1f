#include "cli/figure.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace mmc::cli {

namespace {

// The decimal exponent of x's leading digit: 87.4 -> 1, 0.05 -> -2.
int leading_exponent(double x) { return static_cast<int>(std::floor(std::log10(std::fabs(x)))); }

} // namespace

std::string figure_text(double value, std::optional<double> half_width)
{
    if (!std::isfinite(value)) return fmt::format("{}", value);
    if (value == 0) return "0";
    const int lead = leading_exponent(value);
    // The exponent of the last digit shown.
    int last = lead - 2; // no interval: three significant digits
    if (half_width && std::isfinite(*half_width))
        last = *half_width > 0 ? leading_exponent(*half_width) - 1 : lead - 3;
    last = std::clamp(last, lead - 3, lead - 1);
    const double step = std::pow(10.0, last);
    const double rounded = std::round(value / step) * step;
    return fmt::format("{:.{}f}", rounded, std::max(0, -last));
}

} // namespace mmc::cli
