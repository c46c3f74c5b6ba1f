// An optional figure as a bundle's JSON writes it: the value, or null when
// it was not measured (never 0, which would read as a measurement).
#pragma once

#include "report/bundle.h"

#include <optional>

namespace mmc::report {

template <typename T>
json json_or_null(const std::optional<T>& v)
{
    return v ? json(*v) : json(nullptr);
}

} // namespace mmc::report
