#include "views/bus_pasted.h"

#include "bus/ios.h"
#include "bus/kernel_log.h"
#include "cli/cli.h"
#include "cli/input.h"
#include "dev/bus_evidence.h"

#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>
#include <string_view>

namespace mmc::out {

namespace {

// Input caps: far above any real dump, far below what hurts. An ios dump is a
// few hundred bytes; a whole board's DTS is well under 1 MiB; a kernel log
// buffer is at most a few MiB.
constexpr std::size_t max_ios_bytes = 1 << 20;
constexpr std::size_t max_dt_bytes = 8 << 20;
constexpr std::size_t max_dmesg_bytes = 32 << 20;
// A command line is at most COMMAND_LINE_SIZE (4096 on arm64 and x86).
constexpr std::size_t max_cmdline_bytes = 64 << 10;

// The host's device-tree node from --dt: a node directory, or DTS text.
bus::DeviceTree pasted_device_tree(const PastedBus& o)
{
    const std::string& path = *o.dt_file;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        if (o.dt_node) throw std::runtime_error(fmt::format("{}: a directory is one node already: there is no node {} to pick", path, *o.dt_node));
        return dev::read_device_tree_dir(path, path);
    }
    const std::string text = cli::read_input(path, max_dt_bytes, "device-tree source");
    if (text.size() >= 4 && static_cast<unsigned char>(text[0]) == 0xd0 && static_cast<unsigned char>(text[1]) == 0x0d &&
        static_cast<unsigned char>(text[2]) == 0xfe && static_cast<unsigned char>(text[3]) == 0xed)
        throw std::runtime_error(fmt::format("{}: a binary device tree (.dtb); give its source: dtc -I dtb -O dts {}", path, path));
    auto parsed = bus::parse_dts(text, o.dt_node.value_or(""));
    if (!parsed.host) throw std::runtime_error(fmt::format("{}: {}", path, parsed.error));
    parsed.host->source = path + " (DTS)";
    return *parsed.host;
}

} // namespace

bus::KernelCmdline read_kernel_cmdline(const std::string& path)
{
    auto c = bus::parse_kernel_cmdline(cli::read_input(path, max_cmdline_bytes, "kernel command line"));
    c.source = path == "-" ? "standard input" : path;
    return c;
}

uint32_t caps_option(const char* opt, const std::string& text)
{
    std::string s = text;
    if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) s.erase(0, 2);
    uint32_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw cli::UsageError(fmt::format("{} {}: expected a 32-bit hex number such as 0x4000010f", opt, text.substr(0, 40)));
    return v;
}

std::string kernel_option(const char* opt, const std::string& text)
{
    if (!bus::is_kernel_version(text))
        throw cli::UsageError(fmt::format("{} {}: not a kernel version; expected one such as 5.10 or 6.1.0-57-amd64 (uname -r)", opt,
                                          text.substr(0, 40)));
    return text;
}

std::string host_option(const char* opt, const std::string& text)
{
    std::size_t digits = 0;
    while (3 + digits < text.size() && text[3 + digits] >= '0' && text[3 + digits] <= '9') ++digits;
    if (text.rfind("mmc", 0) != 0 || digits == 0 || digits > 4 || 3 + digits != text.size())
        throw cli::UsageError(fmt::format("{} {}: expected a host as the kernel names it, such as mmc1", opt, text.substr(0, 40)));
    return text;
}

void add_host_log(bus::Evidence& e, std::string_view log, const std::string& dmesg_host, std::vector<std::string> devices)
{
    bus::LogHostQuery q;
    q.host = e.host;
    q.asked = dmesg_host;
    q.devices = std::move(devices);
    if (e.dt) {
        // "mmc@fe320000" -> "fe320000": dw_mmc and others name the controller by its address.
        const auto at = e.dt->node.find('@');
        if (at != std::string::npos && e.dt->node.size() - at > 4) q.devices.push_back(e.dt->node.substr(at + 1));
    }
    q.card_kind = e.sdio                               ? bus::CardKind::sdio
                  : e.card == regs::CardFamily::mmc ? bus::CardKind::mmc
                  : e.card == regs::CardFamily::sd  ? bus::CardKind::sd
                                                    : bus::CardKind::unknown;
    auto read = bus::read_host_log(log, q);
    e.log = std::move(read.log);
    e.log_note = std::move(read.note);
    e.log_needs_host = read.needs_host;
    if (e.log) e.kernel_message = e.log->card_message;
}

namespace {

// Runs `body`; what it throws is a PastedInputError about `input`.
template <class Body>
auto about(PastedInput input, Body&& body) -> decltype(body())
{
    try {
        return body();
    } catch (const PastedInputError&) {
        throw;
    } catch (const std::exception& e) {
        throw PastedInputError(input, e.what());
    }
}

} // namespace

std::vector<bus::Evidence> pasted_bus_evidence(const PastedBus& o)
{
    const std::string text = about(PastedInput::ios, [&] { return cli::read_input(o.ios_file, max_ios_bytes, "ios dump"); });
    const auto snapshots = bus::parse_ios(text);
    const std::string shown = o.ios_file == "-" ? "standard input" : o.ios_file;
    if (snapshots.empty())
        throw PastedInputError(PastedInput::ios, fmt::format("{}: no ios lines found (expected 'clock:', 'timing spec:' ...)", shown));
    for (const auto& ios : snapshots)
        if (!ios.errors.empty()) throw PastedInputError(PastedInput::ios, fmt::format("{}: {}", shown, ios.errors.front()));
    std::optional<bus::DeviceTree> dt;
    if (o.dt_file) dt = about(PastedInput::device_tree, [&] { return pasted_device_tree(o); });
    std::optional<std::string> log_text;
    if (o.dmesg_file)
        log_text = about(PastedInput::kernel_log, [&] { return cli::read_input(*o.dmesg_file, max_dmesg_bytes, "kernel log"); });
    std::optional<bus::KernelCmdline> cmdline;
    if (o.cmdline_file) cmdline = about(PastedInput::kernel_cmdline, [&] { return read_kernel_cmdline(*o.cmdline_file); });
    std::vector<bus::Evidence> out;
    for (const auto& ios : snapshots) {
        bus::Evidence e;
        e.host = ios.host;
        e.ios = ios;
        e.caps = o.caps;
        e.caps2 = o.caps2;
        e.kernel_version = o.kernel;
        e.dt = dt;
        e.cmdline = cmdline;
        if (o.pci) {
            e.dt_absent = true;
            e.pci_id = *o.pci;
            e.controller = "PCI controller" + (o.pci->empty() ? std::string() : " " + *o.pci);
        }
        e.sdio = o.sdio;
        if (o.family || o.sdio)
            e.card = o.family;
        else if (ios.timing.rfind("mmc", 0) == 0)
            e.card = regs::CardFamily::mmc;
        else if (ios.timing.rfind("sd", 0) == 0)
            e.card = regs::CardFamily::sd;
        // A log given for a pasted dump: the lines of this dump's host.
        if (log_text) add_host_log(e, *log_text, o.dmesg_host, {});
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace mmc::out
