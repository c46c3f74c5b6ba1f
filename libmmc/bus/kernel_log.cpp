#include "bus/kernel_log.h"
#include "bus/parse_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>

namespace mmc::bus {

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// "[    5.317984] mmc1: ..." -> "mmc1: ..."; the kernel's own buffer
// (klogctl) also starts each line with its level, "<6>".
std::string_view strip_timestamp(std::string_view line)
{
    std::size_t b = 0;
    while (b < line.size() && (line[b] == ' ' || line[b] == '\t' || line[b] == '\r')) ++b;
    line.remove_prefix(b);
    if (line.size() > 2 && line[0] == '<') {
        const auto close = line.find('>');
        if (close != std::string_view::npos && close <= 4 && close > 1 &&
            std::all_of(line.begin() + 1, line.begin() + static_cast<std::ptrdiff_t>(close), is_digit))
            line.remove_prefix(close + 1);
    }
    if (!line.empty() && line.front() == '[') {
        const auto close = line.find(']');
        if (close != std::string_view::npos && close < 24) line.remove_prefix(close + 1);
    }
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    return line;
}

// Every "mmcN" (not "mmcblkN") the line names.
std::vector<std::string> hosts_named(std::string_view line)
{
    std::vector<std::string> out;
    for (std::size_t at = line.find("mmc"); at != std::string_view::npos; at = line.find("mmc", at + 3)) {
        if (at > 0 && (std::isalnum(static_cast<unsigned char>(line[at - 1])) || line[at - 1] == '_')) continue;
        std::size_t e = at + 3;
        while (e < line.size() && is_digit(line[e])) ++e;
        if (e > at + 3) out.emplace_back(line.substr(at, e - at));
    }
    return out;
}

// "mmcblkN" at the start of a line ("mmcblk1: error -84 ...").
std::string block_named(std::string_view line)
{
    if (line.rfind("mmcblk", 0) != 0) return {};
    std::size_t e = 6;
    while (e < line.size() && is_digit(line[e])) ++e;
    return e > 6 ? std::string(line.substr(0, e)) : std::string();
}

struct Pattern {
    std::string_view text; // matched in the lower-cased line
    LogEventKind kind;
};

// Kernel wording (drivers/mmc/core, sdhci, dw_mmc-rockchip, vendor trees).
// Order matters: the first match names the event. Mode switches and
// step-downs are recognised before these (mode_switch_line, step_down_line).
constexpr std::array<Pattern, 20> patterns{{
    {"switching to 1.8v signalling voltage failed", LogEventKind::voltage_switch_failed},
    {"signal voltage switch failed", LogEventKind::voltage_switch_failed},
    {"voltage switch failed", LogEventKind::voltage_switch_failed},
    {"regulator output did not bec", LogEventKind::voltage_switch_failed}, // "did not become/became stable"
    {"failed to switch to 1.8v", LogEventKind::voltage_switch_failed},
    {"card does not support", LogEventKind::card_unsupported},
    {"card doesn't support", LogEventKind::card_unsupported},
    {"problem reading switch capabilities", LogEventKind::card_unsupported},
    {"card lacks mandatory switch function", LogEventKind::card_unsupported},
    // core/sd.c mmc_sd_switch_hs: the card listed high speed, then its
    // CMD6 status did not select it; the card stays at default speed.
    {"problem switching card into high-speed mode", LogEventKind::card_unsupported},
    {"tuning execution failed", LogEventKind::tuning_failed},
    {"falling back to fixed sampling clock", LogEventKind::tuning_failed},
    {"all phases bad", LogEventKind::tuning_failed},
    {"tuning failed", LogEventKind::tuning_failed},
    {"tuning timeout", LogEventKind::tuning_failed},
    {"re-tuning failed", LogEventKind::tuning_failed},
    {"crc error", LogEventKind::crc_error},
    {"error -84", LogEventKind::crc_error},
    {"timeout waiting for hardware interrupt", LogEventKind::timeout},
    {"card never left busy", LogEventKind::timeout},
}};

bool mode_switch_line(const std::string& l)
{
    return (l.find("mmc_select_hs") != std::string::npos || l.find("mmc_hs200_to_hs400") != std::string::npos ||
            l.find("mmc_hs400_to_hs200") != std::string::npos || l.find("switch to bus width") != std::string::npos) &&
           l.find("fail") != std::string::npos;
}

// Vendor and driver wording for giving up speed after errors.
bool step_down_line(const std::string& l)
{
    for (const char* s : {"reducing clock", "reduce clock", "lower the clock", "lowering clock", "lower speed", "lower bus speed",
                          "downgrade", "fall back to high speed", "falling back to high speed", "fallback to hs",
                          "retry with lower", "retrying with lower", "reducing overclock"})
        if (l.find(s) != std::string::npos) return true;
    return false;
}

} // namespace

std::string_view log_event_name(LogEventKind kind)
{
    switch (kind) {
    case LogEventKind::tuning_failed: return "tuning failed";
    case LogEventKind::voltage_switch_failed: return "voltage switch failed";
    case LogEventKind::card_unsupported: return "card does not support a function";
    case LogEventKind::mode_switch_failed: return "mode switch failed";
    case LogEventKind::crc_error: return "CRC error";
    case LogEventKind::step_down: return "stepped down after errors";
    case LogEventKind::timeout: return "timeout";
    }
    return "event";
}

std::vector<std::string> hosts_in_log(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        const auto line = strip_timestamp(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        for (auto& h : hosts_named(line))
            if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(std::move(h));
    }
    return out;
}

namespace {

// Calls `tie(line, disk, host)` for each line that ties a disk to its host
// ("mmcblk1: mmc1:aaaa SD32G 29.7 GiB").
template <class Tie>
void each_disk_host_line(std::string_view text, Tie&& tie)
{
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        const auto raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        const auto line = strip_timestamp(raw);
        const auto blk = block_named(line);
        if (blk.empty()) continue;
        const auto hosts = hosts_named(line.substr(blk.size()));
        if (!hosts.empty() && line.find(hosts.front() + ":") != std::string_view::npos) tie(raw, blk, hosts.front());
    }
}

} // namespace

std::string disk_host_lines(std::string_view text)
{
    std::string out;
    each_disk_host_line(text, [&](std::string_view raw, const std::string&, const std::string&) {
        out.append(raw);
        out += '\n';
    });
    return out;
}

KernelLog parse_kernel_log(std::string_view text, const std::vector<std::string>& names)
{
    // First pass: which host each mmcblkN belongs to.
    std::map<std::string, std::string> block_host;
    each_disk_host_line(text, [&](std::string_view, const std::string& blk, const std::string& host) {
        block_host[blk] = host;
    });

    const auto names_this_host = [&](std::string_view line) {
        if (names.empty()) return true;
        std::vector<std::string> hosts = hosts_named(line);
        if (const auto blk = block_named(line); !blk.empty()) {
            const auto it = block_host.find(blk);
            if (it != block_host.end()) hosts.push_back(it->second);
        }
        for (const auto& n : names) {
            if (n.empty()) continue;
            if (std::find(hosts.begin(), hosts.end(), n) != hosts.end()) return true;
            if (n.rfind("mmc", 0) != 0 && line.find(n) != std::string_view::npos) return true; // "fe320000.mmc"
        }
        return false;
    };

    KernelLog out;
    std::size_t pos = 0;
    std::size_t line_no = 0;
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        const auto line = strip_timestamp(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        ++line_no;
        if (line.find("mmc") == std::string_view::npos && line.find("sdhci") == std::string_view::npos &&
            line.find("mshc") == std::string_view::npos && line.find("dw_mmc") == std::string_view::npos)
            continue;
        if (!names_this_host(line)) continue;
        const std::string l = lower(line.substr(0, 400));
        // "mmc0: SDHCI controller on PCI [0000:00:1e.6] using ADMA"
        // (sdhci-pci-core), or a Realtek/other PCI reader's driver naming
        // this host: the host is a PCI device, with no device-tree node.
        if (!out.pci_address || out.pci_address->empty()) {
            if (const auto at = l.find("on pci ["); at != std::string::npos) {
                const auto close = l.find(']', at);
                out.pci_address = close == std::string::npos ? std::string() : std::string(line.substr(at + 8, std::min<std::size_t>(close - at - 8, 32)));
            } else if (l.find("sdhci-pci") != std::string::npos || l.find("rtsx_pci") != std::string::npos) {
                out.pci_address = std::string();
            }
        }
        if (l.find(": new ") != std::string::npos && l.find(" card at address ") != std::string::npos) {
            out.card_message = std::string(line.substr(0, 200));
            continue;
        }
        std::optional<LogEventKind> kind;
        if (mode_switch_line(l)) kind = LogEventKind::mode_switch_failed;
        else if (step_down_line(l)) kind = LogEventKind::step_down;
        else
            for (const auto& p : patterns)
                if (l.find(p.text) != std::string::npos) {
                    kind = p.kind;
                    break;
                }
        if (kind) out.events.push_back({*kind, line_no, std::string(line.substr(0, 200))});
    }
    return out;
}

} // namespace mmc::bus
