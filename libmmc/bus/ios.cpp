#include "bus/ios.h"

#include <cctype>
#include <charconv>
#include <regex>

namespace mmc::bus {

namespace {

std::string trim(std::string_view s)
{
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return std::string(s.substr(b, e - b));
}

std::optional<uint64_t> leading_number(std::string_view s)
{
    uint64_t v = 0;
    const auto t = trim(s);
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc()) return std::nullopt;
    return v;
}

// The text inside the last parentheses: "2 (sd high-speed)" -> "sd high-speed".
std::string paren_text(std::string_view s)
{
    const auto open = s.find('(');
    const auto close = s.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {};
    return trim(s.substr(open + 1, close - open - 1));
}

// Keys the kernel prints; "lock" is a first line pasted with its "c" cut off.
enum class Key { clock, actual_clock, vdd, bus_mode, chip_select, power_mode, bus_width, timing, signal_voltage, driver_type, unknown };

Key key_of(const std::string& k)
{
    if (k == "clock" || k == "lock") return Key::clock;
    if (k == "actual clock") return Key::actual_clock;
    if (k == "vdd") return Key::vdd;
    if (k == "bus mode") return Key::bus_mode;
    if (k == "chip select") return Key::chip_select;
    if (k == "power mode") return Key::power_mode;
    if (k == "bus width") return Key::bus_width;
    if (k == "timing spec") return Key::timing;
    if (k == "signal voltage") return Key::signal_voltage;
    if (k == "driver type") return Key::driver_type;
    return Key::unknown;
}

} // namespace

std::vector<Ios> parse_ios(std::string_view text)
{
    // An optional prefix (mail quotes, a grep file name such as
    // "/sys/kernel/debug/mmc1/ios:"), then "key:", then the value.
    static const std::regex line_re(
        R"(^[>\s]*(?:(\S*?)ios:)?\s*(clock|lock|actual clock|vdd|bus mode|chip select|power mode|bus width|timing spec|signal voltage|driver type):\s*(.*)$)");
    static const std::regex host_re(R"((mmc\d+|sdio\d*))");

    std::vector<Ios> out;
    Ios* cur = nullptr;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const auto nl = text.find('\n', pos);
        // Trimmed: a pasted "\r\n" leaves a "\r" the regex's "$" will not pass.
        const std::string line = trim(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        std::smatch m;
        if (!std::regex_match(line, m, line_re)) {
            if (cur && !line.empty()) cur->unparsed.push_back(line);
            continue;
        }
        std::string host;
        std::smatch hm;
        const std::string prefix = m[1].str();
        if (std::regex_search(prefix, hm, host_re)) host = hm[1].str();
        const Key key = key_of(m[2].str());
        const std::string value = trim(m[3].str());

        if (!cur || key == Key::clock || (!host.empty() && host != cur->host && !cur->host.empty())) {
            out.emplace_back();
            cur = &out.back();
        }
        if (!host.empty()) cur->host = host;
        switch (key) {
        case Key::clock: cur->clock_hz = leading_number(value); break;
        case Key::actual_clock: cur->actual_clock_hz = leading_number(value); break;
        case Key::vdd:
            if (auto v = leading_number(value)) cur->vdd = static_cast<int>(*v);
            cur->vdd_text = paren_text(value);
            break;
        case Key::power_mode:
            if (auto v = leading_number(value)) cur->power_mode = static_cast<int>(*v);
            cur->power_text = paren_text(value);
            break;
        case Key::bus_width: {
            // "2 (4 bits)": the text gives the width directly.
            const std::string t = paren_text(value);
            if (auto v = leading_number(t)) cur->bus_width_bits = static_cast<int>(*v);
            else if (auto code = leading_number(value)) cur->bus_width_bits = 1 << *code;
            break;
        }
        case Key::timing:
            if (auto v = leading_number(value)) cur->timing_code = static_cast<int>(*v);
            cur->timing = paren_text(value);
            break;
        case Key::signal_voltage: {
            const std::string t = paren_text(value);
            try {
                if (!t.empty() && std::isdigit(static_cast<unsigned char>(t[0]))) cur->signal_voltage_v = std::stod(t);
            } catch (const std::exception&) {
            }
            break;
        }
        case Key::driver_type: cur->driver_type = paren_text(value); break;
        default: break;
        }
    }
    return out;
}

} // namespace mmc::bus
