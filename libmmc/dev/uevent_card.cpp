#include "dev/uevent_card.h"

#include <cctype>
#include <charconv>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

namespace mmc::dev {

namespace {

std::string first_line_of(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    if (in) std::getline(in, line);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    return line;
}

std::string whole_file(const fs::path& file)
{
    std::ifstream in(file);
    std::stringstream ss;
    if (in) ss << in.rdbuf();
    return ss.str();
}

// The kernel's err_stats labels (drivers/mmc/core/debugfs.c) and the field
// name each gets.
std::string err_key(std::string_view label)
{
    static const std::pair<std::string_view, std::string_view> known[] = {
        {"Command Timeout Occurred", "CMD_TIMEOUT"},   {"Command CRC Errors Occurred", "CMD_CRC"},
        {"Data Timeout Occurred", "DATA_TIMEOUT"},     {"Data CRC Errors Occurred", "DATA_CRC"},
        {"Auto-Cmd Error Occurred", "AUTO_CMD"},       {"ADMA Error Occurred", "ADMA"},
        {"Tuning Error Occurred", "TUNING"},           {"CMDQ RED Errors", "CMDQ_RED"},
        {"CMDQ GCE Errors", "CMDQ_GCE"},               {"CMDQ ICCE Errors", "CMDQ_ICCE"},
        {"Request Timedout", "REQ_TIMEOUT"},           {"CMDQ Request Timedout", "CMDQ_REQ_TIMEOUT"},
        {"ICE Config Errors", "ICE_CFG"},              {"Controller Timedout errors", "CTRL_TIMEOUT"},
        {"Unexpected IRQ errors", "UNEXPECTED_IRQ"},
    };
    for (const auto& [l, k] : known)
        if (l == label) return std::string(k);
    std::string key;
    for (char c : label) {
        if (std::isalnum(static_cast<unsigned char>(c))) key += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        else if (!key.empty() && key.back() != '_') key += '_';
    }
    while (!key.empty() && key.back() == '_') key.pop_back();
    return key.substr(0, 40);
}

} // namespace

UeventCardFacts card_names_of(std::string_view devpath)
{
    static const std::regex host_re("mmc[0-9]+"), card_re("mmc[0-9]+:[0-9a-fA-F]+");
    UeventCardFacts f;
    std::size_t pos = 0;
    while (pos < devpath.size()) {
        const std::size_t slash = devpath.find('/', pos);
        const std::size_t end = slash == std::string_view::npos ? devpath.size() : slash;
        const std::string part(devpath.substr(pos, end - pos));
        if (std::regex_match(part, host_re)) f.host = part;
        else if (std::regex_match(part, card_re)) {
            f.card = part;
            f.card_path = std::string(devpath.substr(0, end));
            break;
        }
        pos = end + 1;
    }
    return f;
}

std::vector<std::pair<std::string, std::uint64_t>> parse_err_stats(std::string_view text)
{
    std::vector<std::pair<std::string, std::uint64_t>> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t nl = text.find('\n', pos);
        std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        if (line.size() < 3 || line.substr(0, 2) != "# ") continue;
        const std::size_t colon = line.rfind(':');
        if (colon == std::string_view::npos || colon < 2) continue;
        std::string_view number = line.substr(colon + 1);
        while (!number.empty() && std::isspace(static_cast<unsigned char>(number.front()))) number.remove_prefix(1);
        while (!number.empty() && std::isspace(static_cast<unsigned char>(number.back()))) number.remove_suffix(1);
        std::uint64_t n = 0;
        const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
        if (number.empty() || ec != std::errc() || ptr != number.data() + number.size()) continue;
        const std::string key = err_key(line.substr(2, colon - 2));
        if (!key.empty()) out.emplace_back(key, n);
    }
    return out;
}

void CardFactsCache::read_card(UeventCardFacts& f) const
{
    const fs::path dir = roots_.sysfs / fs::path(f.card_path).relative_path();
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return;
    f.serial = first_line_of(dir / "serial");
    f.cid = first_line_of(dir / "cid");
    f.name = first_line_of(dir / "name");
    f.type = first_line_of(dir / "type");
}

void CardFactsCache::prime()
{
    std::error_code ec;
    const fs::path bus = roots_.sysfs / "bus" / "mmc" / "devices";
    for (const auto& entry : fs::directory_iterator(bus, ec)) {
        const fs::path target = fs::canonical(entry.path(), ec);
        if (ec) continue;
        const fs::path devpath = "/" / target.lexically_relative(fs::canonical(roots_.sysfs, ec));
        auto f = card_names_of(devpath.string());
        if (f.card.empty()) continue;
        read_card(f);
        cards_[f.card_path] = f;
    }
}

UeventCardFacts CardFactsCache::facts_of(const Uevent& event)
{
    UeventCardFacts f = card_names_of(event.devpath);
    if (!f.card.empty()) {
        read_card(f);
        const auto known = cards_.find(f.card_path);
        if (f.serial.empty() && f.cid.empty()) { // gone: what was read while it was there
            if (known != cards_.end()) {
                f.serial = known->second.serial;
                f.cid = known->second.cid;
                f.name = known->second.name;
                f.type = known->second.type;
            }
        } else {
            cards_[f.card_path] = f;
        }
        if (event.action == "remove" && event.subsystem == "mmc") cards_.erase(f.card_path);
    }
    if (!f.host.empty()) f.host_errors = parse_err_stats(whole_file(roots_.debugfs / f.host / "err_stats"));
    return f;
}

} // namespace mmc::dev
