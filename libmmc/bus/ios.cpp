#include "bus/ios.h"
#include "bus/parse_text.h"

#include <array>
#include <cctype>
#include <charconv>
#include <fmt/format.h>

namespace mmc::bus {

namespace {

std::optional<uint64_t> leading_number(std::string_view s)
{
    uint64_t v = 0;
    const auto t = trim_space(s);
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec != std::errc()) return std::nullopt;
    return v;
}

// The kernel prints a clock as "%u Hz". Anything else (an exponent, a sign,
// more digits than a u32 holds, letters) is not a clock and is refused, and
// so is a value no MMC bus comes near (the fastest modes run at 200-208 MHz).
constexpr uint64_t absurd_clock_hz = 1'000'000'000;

std::optional<uint64_t> clock_value(std::string_view value, std::string& why)
{
    const auto t = trim_space(value);
    std::size_t digits = 0;
    while (digits < t.size() && is_digit(t[digits])) ++digits;
    const auto unit = trim_space(t.substr(digits));
    uint64_t v = 0;
    if (digits == 0 || digits > 10 || !(unit.empty() || unit == "Hz") ||
        std::from_chars(t.data(), t.data() + digits, v).ec != std::errc()) {
        why = "is not a clock the kernel prints (a whole number of Hz)";
        return std::nullopt;
    }
    if (v > absurd_clock_hz) {
        why = "is no MMC bus clock (the fastest modes run at about 200 MHz)";
        return std::nullopt;
    }
    return v;
}

// The text inside the parentheses: "2 (sd high-speed)" -> "sd high-speed".
std::string paren_text(std::string_view s)
{
    const auto open = s.find('(');
    const auto close = s.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return {};
    return std::string(trim_space(s.substr(open + 1, close - open - 1)));
}

// Keys the kernel prints; "lock" is a first line pasted with its "c" cut off.
enum class Key { clock, actual_clock, vdd, bus_mode, chip_select, power_mode, bus_width, timing, signal_voltage, driver_type };

struct KeyName {
    std::string_view text;
    Key key;
};
constexpr std::array<KeyName, 11> keys{{
    {"clock", Key::clock},
    {"lock", Key::clock},
    {"actual clock", Key::actual_clock},
    {"vdd", Key::vdd},
    {"bus mode", Key::bus_mode},
    {"chip select", Key::chip_select},
    {"power mode", Key::power_mode},
    {"bus width", Key::bus_width},
    {"timing spec", Key::timing},
    {"signal voltage", Key::signal_voltage},
    {"driver type", Key::driver_type},
}};

struct KeyLine {
    Key key;
    std::string_view prefix; // what came before "ios:", e.g. "/sys/kernel/debug/mmc1/"
    std::string_view value;
};

// "key:" at the start of `s` (after blanks), then the value.
std::optional<KeyLine> key_at(std::string_view s, std::string_view prefix)
{
    std::size_t b = 0;
    while (b < s.size() && is_space(s[b])) ++b;
    s.remove_prefix(b);
    for (const auto& k : keys)
        if (s.size() > k.text.size() && s.substr(0, k.text.size()) == k.text && s[k.text.size()] == ':')
            return KeyLine{k.key, prefix, s.substr(k.text.size() + 1)};
    return std::nullopt;
}

// One pasted line: mail quotes and blanks, then an optional grep file prefix
// ending in "ios:" (no blanks inside it), then "key:" and the value. Every
// step scans forward once, so a line of any length costs its length.
std::optional<KeyLine> split_line(std::string_view line)
{
    std::size_t b = 0;
    while (b < line.size() && (line[b] == '>' || is_space(line[b]))) ++b;
    line.remove_prefix(b);
    if (auto k = key_at(line, {})) return k;
    std::size_t word_end = 0;
    while (word_end < line.size() && !is_space(line[word_end])) ++word_end;
    for (std::size_t at = line.find("ios:"); at != std::string_view::npos && at + 4 <= word_end; at = line.find("ios:", at + 1))
        if (auto k = key_at(line.substr(at + 4), line.substr(0, at))) return k;
    return std::nullopt;
}

// The first "mmcN" or "sdio[N]" in a grep prefix.
std::string host_in(std::string_view prefix)
{
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        const auto rest = prefix.substr(i);
        if (rest.substr(0, 3) == "mmc" && rest.size() > 3 && is_digit(rest[3])) {
            std::size_t e = 3;
            while (e < rest.size() && is_digit(rest[e])) ++e;
            return std::string(rest.substr(0, e));
        }
        if (rest.substr(0, 4) == "sdio") {
            std::size_t e = 4;
            while (e < rest.size() && is_digit(rest[e])) ++e;
            return std::string(rest.substr(0, e));
        }
    }
    return {};
}

// Where a line holds several "key:" lines joined by blanks (a paste whose
// line breaks were lost: web archives and forums show it so), the start of
// each: a key after a blank, or a grep prefix word ending in "ios:" before
// one. "clock:" inside "actual clock:" and the cut "lock:" start nothing.
// Linear: each word is looked at once, and the blanks before a key once.
std::vector<std::string_view> joined_lines(std::string_view line)
{
    std::vector<std::size_t> starts{0};
    for (std::size_t at = 1; at < line.size(); ++at) {
        if (!is_space(line[at - 1]) || is_space(line[at])) continue;
        std::size_t word_end = at;
        while (word_end < line.size() && !is_space(line[word_end])) ++word_end;
        const auto rest = line.substr(at);
        bool starts_key = false;
        for (const auto& k : keys)
            if (k.key != Key::clock || k.text == "clock")
                if (rest.size() > k.text.size() && rest.substr(0, k.text.size()) == k.text && rest[k.text.size()] == ':') starts_key = true;
        if (starts_key && rest.substr(0, 6) == "clock:") {
            std::size_t b = at - 1;
            while (b > 0 && is_space(line[b])) --b;
            if (b >= 5 && line.substr(b - 5, 6) == "actual") starts_key = false;
        }
        if (!starts_key) {
            const auto ios = line.substr(at, word_end - at).find("ios:");
            starts_key = ios != std::string_view::npos && key_at(line.substr(at + ios + 4), {}).has_value();
        }
        if (starts_key) {
            // Mail quote marks before the key ("> > vdd:") belong to its line.
            std::size_t from = at;
            while (from > starts.back() && (is_space(line[from - 1]) || line[from - 1] == '>')) --from;
            if (from > starts.back()) starts.push_back(from);
        }
        at = word_end;
    }
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < starts.size(); ++i)
        out.push_back(trim_space(line.substr(starts[i], i + 1 < starts.size() ? starts[i + 1] - starts[i] : std::string_view::npos)));
    return out;
}

// What an unparsed line keeps: enough to recognise it.
constexpr std::size_t unparsed_keep = 200;

} // namespace

std::vector<Ios> parse_ios(std::string_view text)
{
    std::vector<Ios> out;
    Ios* cur = nullptr;
    std::size_t pos = 0, line_no = 0;
    while (pos <= text.size()) {
        const auto nl = text.find('\n', pos);
        // Trimmed: a pasted "\r\n" leaves a "\r".
        const auto whole = trim_space(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++line_no;
        for (const auto line : joined_lines(whole)) {
            const auto kl = split_line(line);
            if (!kl) {
                if (cur && !line.empty()) cur->unparsed.emplace_back(line.substr(0, unparsed_keep));
                continue;
            }
            const std::string host = host_in(kl->prefix);
            const Key key = kl->key;
            const auto value = trim_space(kl->value);

            if (!cur || key == Key::clock || (!host.empty() && host != cur->host && !cur->host.empty())) {
                out.emplace_back();
                cur = &out.back();
            }
            if (!host.empty()) cur->host = host;
            switch (key) {
            case Key::clock:
            case Key::actual_clock: {
                std::string why;
                const auto hz = clock_value(value, why);
                if (!hz)
                    cur->errors.push_back(fmt::format("line {}: {} '{}' {}", line_no, key == Key::clock ? "clock" : "actual clock",
                                                      value.substr(0, 40), why));
                (key == Key::clock ? cur->clock_hz : cur->actual_clock_hz) = hz;
                break;
            }
            case Key::vdd:
                if (auto v = leading_number(value); v && *v < 32) cur->vdd = static_cast<int>(*v);
                cur->vdd_text = paren_text(value);
                break;
            case Key::power_mode:
                if (auto v = leading_number(value); v && *v < 16) cur->power_mode = static_cast<int>(*v);
                cur->power_text = paren_text(value);
                break;
            case Key::bus_width: {
                // "2 (4 bits)": the text gives the width directly.
                const auto t = leading_number(paren_text(value));
                const auto code = leading_number(value);
                if (t && (*t == 1 || *t == 4 || *t == 8)) cur->bus_width_bits = static_cast<int>(*t);
                else if (!t && code && *code <= 3) cur->bus_width_bits = 1 << *code;
                break;
            }
            case Key::timing:
                if (auto v = leading_number(value); v && *v < 256) cur->timing_code = static_cast<int>(*v);
                cur->timing = paren_text(value);
                break;
            case Key::signal_voltage: {
                // "1 (1.80 V)": the kernel knows 3.30, 1.80 and 1.20 only.
                const std::string t = paren_text(value);
                for (double v : {3.3, 1.8, 1.2})
                    if (t == fmt::format("{:.2f} V", v)) cur->signal_voltage_v = v;
                break;
            }
            case Key::driver_type: cur->driver_type = paren_text(value); break;
            default: break;
            }
        }
    }
    return out;
}

} // namespace mmc::bus
