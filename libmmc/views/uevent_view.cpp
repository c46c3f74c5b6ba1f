#include "views/uevent_view.h"

#include "cli/json_out.h"

#include <algorithm>
#include <ctime>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mmc::out {

namespace {


nlohmann::ordered_json null_if_empty(const std::string& s)
{
    return s.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(s);
}

// A value as it can be read back from a line: quoted, with C-style escapes,
// when it is empty or has spaces, quotes or control characters.
bool needs_quotes(char c)
{
    const auto ch = static_cast<unsigned char>(c);
    return ch <= ' ' || ch == '"' || ch == '\\' || ch == 0x7f;
}

std::string quoted_if_needed(const std::string& value)
{
    if (!value.empty() && std::none_of(value.begin(), value.end(), needs_quotes)) return value;
    std::string out = "\"";
    for (const char c : value) {
        const auto ch = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') out += fmt::format("\\{}", c);
        else if (ch < ' ' || ch == 0x7f) out += fmt::format("\\x{:02x}", ch);
        else out += c;
    }
    return out + "\"";
}

} // namespace

nlohmann::ordered_json uevent_json(const mmc::dev::Uevent& e, std::chrono::system_clock::time_point when)
{
    nlohmann::ordered_json j;
    j["time"] = uevent_timestamp(when, true);
    j["action"] = e.action;
    j["subsystem"] = null_if_empty(e.subsystem);
    j["devpath"] = e.devpath;
    j["devname"] = null_if_empty(e.devname);
    j["devtype"] = null_if_empty(e.devtype);
    j["seqnum"] = e.seqnum ? nlohmann::ordered_json(*e.seqnum) : nlohmann::ordered_json();
    j["env"] = e.env;
    return j;
}

std::string uevent_json_line(const mmc::dev::Uevent& e, std::chrono::system_clock::time_point when)
{
    // Card names are bytes from the card: never let one stop the stream.
    return cli::dump_json(uevent_json(e, when), -1).text;
}

std::string uevent_text_line(const mmc::dev::Uevent& e, std::chrono::system_clock::time_point when)
{
    std::string line = fmt::format("{} {:<7} {:<8} {}", uevent_timestamp(when, false), e.action,
                                   e.subsystem.empty() ? "-" : e.subsystem, e.devpath);
    for (const char* key : {"DEVNAME", "DEVTYPE", "DRIVER", "MMC_TYPE", "MMC_NAME", "PARTN"})
        if (const auto it = e.env.find(key); it != e.env.end()) line += fmt::format(" {}={}", key, quoted_if_needed(it->second));
    return line;
}

// Local wall-clock time for people, UTC in RFC 3339 for machines; both to
// the millisecond of when the event was received (uevents carry no time).
std::string uevent_timestamp(std::chrono::system_clock::time_point when, bool utc)
{
    const auto since = when.time_since_epoch();
    const std::time_t secs = std::chrono::duration_cast<std::chrono::seconds>(since).count();
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since).count() % 1000;
    std::tm tm{};
    if (utc) {
        gmtime_r(&secs, &tm);
        return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", tm, ms);
    }
    localtime_r(&secs, &tm);
    return fmt::format("{:%H:%M:%S}.{:03}", tm, ms);
}

} // namespace mmc::out
