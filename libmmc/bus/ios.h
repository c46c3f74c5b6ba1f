// Parse /sys/kernel/debug/mmcN/ios as the kernel prints it (mmc_ios_show in
// drivers/mmc/core/debugfs.c), and as people paste it: tabs expanded to
// spaces, "grep" file prefixes, mail quote marks, several hosts in one text,
// a truncated first key, and its lines joined by blanks where a web archive
// or forum lost its line breaks. The timing comes from the text in parentheses, not
// the number, because the numbering changed between kernels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bus {

struct Ios {
    std::string host;                        // "mmc0" when a prefix or path named it
    std::optional<uint64_t> clock_hz;        // requested clock
    std::optional<uint64_t> actual_clock_hz; // only where the driver reports it
    std::optional<int> vdd;                  // OCR bit number
    std::string vdd_text;                    // "3.3 ~ 3.4 V"
    std::optional<int> power_mode;           // 0 off, 1 up, 2 on
    std::string power_text;
    std::optional<int> bus_width_bits;       // 1, 4, 8
    std::optional<int> timing_code;          // the number as printed
    std::string timing;                      // the text: "sd high-speed", "mmc HS400 enhanced strobe"
    std::optional<double> signal_voltage_v;  // 3.3, 1.8, 1.2
    std::string driver_type;                 // "driver type B"
    std::vector<std::string> unparsed;       // lines that were not understood (first 200 characters)
    std::vector<std::string> errors;         // values that are not what the kernel prints: "line 1: clock '1e400 Hz' ..."

    bool powered_off() const { return power_mode && *power_mode == 0; }
};

// Every snapshot in the text, in order; a new one starts where "clock:"
// appears again or the prefix names another host. Empty when nothing parsed.
std::vector<Ios> parse_ios(std::string_view text);

} // namespace mmc::bus
