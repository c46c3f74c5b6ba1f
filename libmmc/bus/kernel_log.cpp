#include "bus/kernel_log.h"
#include "bus/parse_text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <cstring>
#include <fmt/format.h>
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
constexpr std::array<Pattern, 27> patterns{{
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
    // core/core.c mmc_execute_tuning: "%s: tuning execution failed: %d".
    {"tuning execution failed", LogEventKind::tuning_failed},
    {"falling back to fixed sampling clock", LogEventKind::tuning_failed},
    // host/dw_mmc-rockchip.c dw_mci_rk3288_execute_tuning: "All phases bad!"
    // (no phase of the sample clock read the tuning block back).
    {"all phases bad", LogEventKind::tuning_failed},
    {"tuning failed", LogEventKind::tuning_failed},
    {"tuning timeout", LogEventKind::tuning_failed},
    {"re-tuning failed", LogEventKind::tuning_failed},
    // core/core.c mmc_cqe_recovery: "%s: running CQE recovery"; host/cqhci-core.c
    // cqhci_timeout: "%s: cqhci: timeout for tag %d". Before the timeouts
    // below: a queued request that timed out is the queue's event.
    {"running cqe recovery", LogEventKind::cqe_recovery},
    {"cqhci: timeout for tag", LogEventKind::cqe_recovery},
    {"crc error", LogEventKind::crc_error},
    // -84 is EILSEQ, what host drivers set on a CRC or end-bit error: core/block.c
    // "%s: error %d transferring data, sector %u, ...", core/sd.c mmc_attach_sd
    // "%s: error %d whilst initialising SD card", core/mmc.c mmc_attach_mmc
    // "... MMC card", core/sdio.c mmc_attach_sdio "... SDIO card".
    {"error -84", LogEventKind::crc_error},
    {"err -84", LogEventKind::crc_error},
    // host/sdhci.c sdhci_timeout_timer and sdhci_timeout_data_timer: "%s: Timeout
    // waiting for hardware interrupt." ("... hardware cmd interrupt." in newer kernels).
    {"timeout waiting for hardware", LogEventKind::timeout},
    {"card never left busy", LogEventKind::timeout},
    // -110 is ETIMEDOUT, a command or data timeout: the same core/block.c and
    // mmc_attach_sd/_mmc/_sdio lines as -84 ("error -110 whilst initialising SD card").
    {"error -110", LogEventKind::timeout},
    {"err -110", LogEventKind::timeout},
    {"failed -110", LogEventKind::timeout},
    {"timed out", LogEventKind::timeout},
}};

// core/mmc.c mmc_select_hs200, mmc_select_hs400, mmc_select_hs400es and
// mmc_hs400_to_hs200 print "%s: %s failed, error %d" with their own name:
// "mmc2: mmc_select_hs200 failed, error -84"; mmc_select_bus_width prints
// "%s: switch to bus width %d failed".
bool mode_switch_line(const std::string& l)
{
    return (l.find("mmc_select_hs") != std::string::npos || l.find("mmc_hs200_to_hs400") != std::string::npos ||
            l.find("mmc_hs400_to_hs200") != std::string::npos || l.find("switch to bus width") != std::string::npos ||
            l.find("switch to hs400 failed") != std::string::npos || l.find("switch to hs200 failed") != std::string::npos) &&
           l.find("fail") != std::string::npos;
}

// Vendor and driver wording for giving up speed after errors. The
// Raspberry Pi kernel's host/bcm2835-sdhost.c (bcm2835_sdhost_tasklet_finish)
// prints "%s: reducing overclock due to errors" and lowers its overclock.
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
    case LogEventKind::cqe_recovery: return "command queue recovery";
    }
    return "event";
}

namespace {

// The length of a timestamp at the start of `s` ("[    5.317984]", with
// klogctl's level "<6>" before it), 0 when there is none.
std::size_t timestamp_at(std::string_view s)
{
    std::size_t i = 0;
    if (i < s.size() && s[i] == '<') {
        std::size_t d = 1;
        while (d < s.size() && d < 4 && is_digit(s[d])) ++d;
        if (d == 1 || d >= s.size() || s[d] != '>') return 0;
        i = d + 1;
    }
    if (i >= s.size() || s[i] != '[') return 0;
    ++i;
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t digits = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == digits || i >= s.size() || s[i] != '.') return 0;
    const std::size_t frac = ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == frac || i >= s.size() || s[i] != ']' || i > 24) return 0;
    return i + 1;
}

// A host or disk line's start without a timestamp: "mmc1: ", "mmcblk0: ",
// "mmcblk0p1: ", "mmc_host mmc1: ", or a controller driver and its device
// ("dwmmc_rockchip fe320000.mmc: ", "sdhci-pci 0000:00:1e.6: ").
bool host_line_at(std::string_view s)
{
    std::size_t i = 0;
    if (s.rfind("mmc_host ", 0) == 0) i = 9;
    if (s.substr(i, 3) == "mmc") {
        std::size_t e = i + 3;
        if (s.substr(e, 3) == "blk") e += 3;
        const std::size_t d = e;
        while (e < s.size() && is_digit(s[e])) ++e;
        if (e == d) return false;
        while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])))) ++e; // "p1", "boot0", "rpmb"
        return e + 1 < s.size() && s[e] == ':' && s[e + 1] == ' ';
    }
    const auto sp = s.find(' ');
    if (sp == std::string_view::npos || sp > 32) return false;
    const auto driver = s.substr(0, sp);
    if (driver.find("mmc") == std::string_view::npos && driver.find("sdhci") == std::string_view::npos &&
        driver.find("mshc") == std::string_view::npos)
        return false;
    const auto device = s.substr(sp + 1, 48);
    const auto end = device.find(": ");
    return end != std::string_view::npos && device.substr(0, end).find(' ') == std::string_view::npos &&
           device.substr(0, end).find('.') != std::string_view::npos;
}

// The lines a raw line holds: one, or several where a paste lost its line
// breaks (web archives and forums join them with blanks). A new line starts
// at each timestamp after a blank; in a log without timestamps, at each host
// or disk line's start after a blank.
template <class Each>
void each_joined(std::string_view raw, Each&& each)
{
    std::size_t b = 0;
    while (b < raw.size() && (raw[b] == ' ' || raw[b] == '\t')) ++b;
    const bool stamped = timestamp_at(raw.substr(b)) > 0;
    std::size_t from = 0;
    for (std::size_t at = b + 1; at < raw.size(); ++at) {
        if (raw[at - 1] != ' ' || raw[at] == ' ') continue;
        const auto rest = raw.substr(at);
        if (stamped ? timestamp_at(rest) > 0 : host_line_at(rest)) {
            each(raw.substr(from, at - from));
            from = at;
        }
    }
    each(raw.substr(from));
}

// Calls `each(raw, line)` for every line of `text`: raw as written, line
// without its timestamp.
template <class Each>
void each_line(std::string_view text, Each&& each)
{
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto nl = text.find('\n', pos);
        const auto raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
        pos = nl == std::string_view::npos ? text.size() : nl + 1;
        each_joined(raw, [&](std::string_view one) { each(one, strip_timestamp(one)); });
    }
}

// "mmc0: SDHCI controller on fe330000.mmc [fe330000.mmc] using ADMA"
// (host/sdhci.c __sdhci_add_host: "%s: SDHCI controller on %s [%s] using
// %s") -> "fe330000.mmc": the controller's own lines ("sdhci-dwcmshc
// fe330000.mmc: ...") are this host's. A PCI host names its address
// ("... on PCI [0000:00:1e.6] ...").
std::string controller_named(std::string_view line, const std::vector<std::string>& hosts)
{
    if (hosts.empty() || line.rfind(hosts.front() + ":", 0) != 0) return {};
    const auto on = line.find(" controller on ");
    if (on == std::string_view::npos) return {};
    auto rest = line.substr(on + 15);
    if (const auto open = rest.find('['); open != std::string_view::npos && open < 48) {
        const auto close = rest.find(']', open);
        if (close != std::string_view::npos) rest = rest.substr(open + 1, close - open - 1);
    }
    const auto end = rest.find_first_of(" \t[");
    rest = rest.substr(0, end);
    if (rest.size() < 3 || rest.size() > 64) return {};
    return std::string(rest);
}

// The lines that tie a disk ("mmcblk1: mmc1:aaaa SD32G 29.7 GiB") or a
// controller (controller_named) to a host: `tie(raw, name, host)`.
template <class Tie>
void each_tie(std::string_view text, Tie&& tie)
{
    each_line(text, [&](std::string_view raw, std::string_view line) {
        if (const auto blk = block_named(line); !blk.empty()) {
            const auto hosts = hosts_named(line.substr(blk.size()));
            if (!hosts.empty() && line.find(hosts.front() + ":") != std::string_view::npos) tie(raw, blk, hosts.front());
            return;
        }
        const auto hosts = hosts_named(line);
        if (auto dev = controller_named(line, hosts); !dev.empty()) tie(raw, dev, hosts.front());
    });
}

struct Ties {
    std::map<std::string, std::string> disk_host;   // "mmcblk1" -> "mmc1"
    std::map<std::string, std::string> device_host; // "fe330000.mmc" -> "mmc0"
};

Ties ties_of(std::string_view text)
{
    Ties t;
    each_tie(text, [&](std::string_view, const std::string& name, const std::string& host) {
        (name.rfind("mmcblk", 0) == 0 ? t.disk_host : t.device_host)[name] = host;
    });
    return t;
}

// The hosts a line is about: the ones it names, the host of the disk it
// starts with, the host of a controller it names.
std::vector<std::string> hosts_of_line(std::string_view line, const Ties& ties)
{
    std::vector<std::string> hosts = hosts_named(line);
    if (const auto blk = block_named(line); !blk.empty()) {
        const auto it = ties.disk_host.find(blk);
        if (it != ties.disk_host.end()) hosts.push_back(it->second);
    }
    if (hosts.empty())
        for (const auto& [dev, host] : ties.device_host)
            if (line.find(dev) != std::string_view::npos) hosts.push_back(host);
    return hosts;
}

KernelLog parse_with_ties(std::string_view text, const std::vector<std::string>& names, const Ties& ties)
{
    const auto names_this_host = [&](std::string_view line) {
        if (names.empty()) return true;
        const std::vector<std::string> hosts = hosts_of_line(line, ties);
        for (const auto& n : names) {
            if (n.empty()) continue;
            if (std::find(hosts.begin(), hosts.end(), n) != hosts.end()) return true;
            // "fe320000.mmc", "fe320000": a controller the log ties to no host.
            if (hosts.empty() && n.rfind("mmc", 0) != 0 && line.find(n) != std::string_view::npos) return true;
        }
        return false;
    };

    KernelLog out;
    std::size_t line_no = 0;
    each_line(text, [&](std::string_view, std::string_view line) {
        ++line_no;
        if (line.find("mmc") == std::string_view::npos && line.find("sdhci") == std::string_view::npos &&
            line.find("mshc") == std::string_view::npos && line.find("dw_mmc") == std::string_view::npos &&
            line.find("cqhci") == std::string_view::npos)
            return;
        if (!names_this_host(line)) return;
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
            return;
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
    });
    return out;
}

std::string_view card_kind_words(CardKind k)
{
    switch (k) {
    case CardKind::sd: return "an SD";
    case CardKind::mmc: return "an MMC";
    case CardKind::sdio: return "an SDIO";
    case CardKind::unknown: break;
    }
    return "a";
}

// "mmc0, mmc1 and mmc2".
std::string listed(const std::vector<std::string>& names)
{
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

} // namespace

std::vector<std::string> hosts_in_log(std::string_view text)
{
    std::vector<std::string> out;
    each_line(text, [&](std::string_view, std::string_view line) {
        for (auto& h : hosts_named(line))
            if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(std::move(h));
    });
    return out;
}

std::string disk_host_lines(std::string_view text)
{
    std::string out;
    each_tie(text, [&](std::string_view raw, const std::string&, const std::string&) {
        out.append(raw);
        out += '\n';
    });
    return out;
}

KernelLog parse_kernel_log(std::string_view text, const std::vector<std::string>& names)
{
    return parse_with_ties(text, names, ties_of(text));
}

CardKind card_kind_of(std::string_view m)
{
    const std::string l = lower(m);
    const auto at = l.find(" card at address ");
    if (l.find(": new ") == std::string::npos || at == std::string::npos) return CardKind::unknown;
    const std::string head = l.substr(0, at);
    // core/bus.c mmc_add_card: "%s: new %s%s%s%s%s card at address %04x",
    // the type last: "MMC", "SD", "SDHC", "SDXC", "SDIO", "SD-combo".
    for (const auto& [word, kind] : {std::pair{" sdio", CardKind::sdio}, {" sd-combo", CardKind::sdio}, {" mmc", CardKind::mmc},
                                     {" sdhc", CardKind::sd}, {" sdxc", CardKind::sd}, {" sduc", CardKind::sd}, {" sd", CardKind::sd}})
        if (head.size() >= std::strlen(word) && head.compare(head.size() - std::strlen(word), std::string::npos, word) == 0) return kind;
    return CardKind::unknown;
}

HostLog read_host_log(std::string_view text, const LogHostQuery& q)
{
    HostLog out;
    const Ties ties = ties_of(text);
    out.hosts = hosts_in_log(text);
    const auto names = [&] { return listed(out.hosts); };
    const auto named = [&](const std::string& h) { return std::find(out.hosts.begin(), out.hosts.end(), h) != out.hosts.end(); };
    std::string how;
    if (!q.asked.empty()) {
        if (!q.host.empty() && q.asked != q.host) {
            out.note = fmt::format("the host asked for ({}) is not the evidence's own ({}): the kernel log was not read", q.asked, q.host);
            return out;
        }
        if (!named(q.asked)) {
            out.note = out.hosts.empty() ? fmt::format("the kernel log names no host, not {} (the host asked for): it was not read", q.asked)
                                         : fmt::format("the kernel log names {}, not {} (the host asked for): it was not read", names(), q.asked);
            return out;
        }
        out.host = q.asked;
        how = "the host asked for";
    } else if (!q.host.empty()) {
        if (!out.hosts.empty() && !named(q.host)) {
            out.note = fmt::format("the kernel log names {}, not {}: none of its lines is this host's, so it was not read", names(), q.host);
            return out;
        }
        out.host = q.host;
    } else if (out.hosts.size() == 1) {
        out.host = out.hosts.front();
        how = "the only host the log names";
    } else if (out.hosts.size() > 1) {
        // The evidence's controller (the DT node's unit address), then the
        // kind of card the dump shows, each tied to one host only.
        std::vector<std::string> by_device, by_card;
        for (const auto& [dev, host] : ties.device_host)
            for (const auto& d : q.devices)
                if (!d.empty() && dev.find(d) != std::string::npos && std::find(by_device.begin(), by_device.end(), host) == by_device.end())
                    by_device.push_back(host);
        if (q.card_kind != CardKind::unknown)
            for (const auto& h : out.hosts)
                if (card_kind_of(parse_with_ties(text, {h}, ties).card_message) == q.card_kind) by_card.push_back(h);
        if (by_device.size() == 1) {
            out.host = by_device.front();
            how = "the log ties the evidence's controller to it";
        } else if (by_card.size() == 1) {
            out.host = by_card.front();
            how = fmt::format("the only host whose card line names {} card", card_kind_words(q.card_kind));
        } else {
            out.note = fmt::format("the kernel log names {}, and nothing in the evidence ties the dump to one of them: it was not read",
                                   names());
            out.needs_host = true;
            return out;
        }
    }
    std::vector<std::string> read_names;
    if (!out.host.empty()) read_names.push_back(out.host);
    for (const auto& d : q.devices)
        if (!d.empty()) read_names.push_back(d);
    out.log = parse_with_ties(text, out.host.empty() && out.hosts.empty() ? std::vector<std::string>{} : read_names, ties);
    if (!how.empty()) out.note = fmt::format("the kernel log's lines for {} were read ({})", out.host, how);
    if (out.hosts.size() > 1 && how.empty())
        out.note = fmt::format("the kernel log names {}: the lines for {} were read", names(), out.host);
    return out;
}

} // namespace mmc::bus
