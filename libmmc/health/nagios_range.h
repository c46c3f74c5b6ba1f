// The Monitoring Plugins' threshold range (monitoring-plugins.org, "Threshold
// and Ranges"), the syntax of a check's -w and -c:
//   10      alert when the value is below 0 or above 10
//   10:     alert when it is below 10
//   ~:10    alert when it is above 10 (~ is minus infinity)
//   10:20   alert when it is below 10 or above 20
//   @10:20  alert when it is from 10 to 20, both included (@ turns it inside out)
// Pure: text in, a range or std::invalid_argument out.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mmc::health {

struct NagiosRange {
    std::optional<double> start; // none: minus infinity (~)
    std::optional<double> end;   // none: plus infinity ("10:")
    bool inside = false;         // @: alert inside the range, not outside it
    std::string text;            // as given, for the performance data

    bool alerts(double value) const;
};

// Throws std::invalid_argument naming what is wrong ("expected a number
// before ':'", "start 20 is above end 10").
NagiosRange parse_nagios_range(std::string_view text);

} // namespace mmc::health
