// mmc-bus: the bus-mode doctor. Thin: options here; evidence gathering in
// libmmc/dev/bus_evidence, diagnosis in libmmc/bus/doctor, views in
// libmmc/views/bus_view.
#include "bench/quick_read.h"
#include "cli/cli.h"
#include "cli/deprecated.h"
#include "cli/device_sources.h"
#include "cli/duration.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "dev/bus_evidence.h"
#include "views/bus_pasted.h"
#include "dev/discovery.h"
#include "dev/register_sources.h"
#include "views/bus_view.h"
#include "views/reader_view.h"
#include "version.h"

#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <getopt.h>
#include <iostream>

namespace {

constexpr const char* tool = "mmc-bus";

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] [DEVICE|HOST]
 {0} [options] --ios FILE [--caps HEX] [--caps2 HEX] [--kernel VERSION] [--family sd|mmc|sdio]
         [--dt FILE|DIR [--dt-node NAME] | --pci[=VENDOR:DEVICE]] [--dmesg FILE [--dmesg-host HOST]]
         [--cmdline FILE]

Say which bus mode an SD/MMC card runs in, what that mode and clock allow,
what card and host could do, and what limits throughput: the host, the
board, the card, tuning, none, or unknown (and what would tell). A card in
a USB reader: the reader's USB link, its ceiling, and whether it limits.
Without arguments every host is diagnosed.

Options:
 -i, --ios FILE          diagnose a pasted /sys/kernel/debug/mmcN/ios ('-' reads stdin)
     --caps HEX          the host's debugfs caps (with --ios)
     --caps2 HEX         the host's debugfs caps2 (with --ios)
     --kernel VERSION    kernel that printed caps (default: this kernel); before
                         4.11 the caps bits from 11 up were numbered differently
     --family sd|mmc|sdio
                         what is in the slot (with --ios; default: from the timing)
     --card sd|mmc|sdio  deprecated: use --family
     --dt FILE|DIR       the host's device-tree node (with --ios): a DTS fragment,
                         dtc -I fs output, or a copied /proc/device-tree node
     --dt-node NAME      which node of --dt is the host (name, label or address)
     --pci[=VENDOR:DEVICE]
                         the host is a PCI controller, with no device tree (with
                         --ios): its caps are the controller's and driver's own
     --dmesg FILE        the kernel log to read for tuning, voltage-switch and CRC
                         errors (default live: the kernel's own log)
     --dmesg-host HOST   which host's lines of --dmesg to read (mmc1), where the
                         evidence cannot tie the log to one
     --cmdline FILE      the kernel command line to read for sdhci debug quirks
                         (default live: /proc/cmdline)
     --measure[=TIME]    read the card sequentially (O_DIRECT, read-only) for TIME
                         (default 3s; seconds without a unit) and report MB/s
                         against the ceiling
 -J, --json              print JSON (see mmc-bus(1))
 -v, --verbose           also informational findings, host caps, kernel message
     --no-ioctl          send no card commands; use sysfs and debugfs only
     --sysfs-root DIR    read sysfs from DIR (default /sys)
     --debugfs-root DIR  read debugfs from DIR (default /sys/kernel/debug)
 -h, --help              display this help
 -V, --version           display version

Examples:
 {0}
 {0} --measure /dev/mmcblk0
 {0} --ios ios.txt --caps 0x4000114b --caps2 0x00860000 --kernel 5.10
 {0} --ios ios.txt --dt board.dts --dt-node sdmmc --dmesg dmesg.txt
 {0} --ios ios.txt --pci=1217:8621 --dmesg dmesg.txt
)",
               tool);
}

// Input caps: far above any real dump, far below what hurts. An ios dump is a
// few hundred bytes; a whole board's DTS is well under 1 MiB; a kernel log
// buffer is at most a few MiB.
constexpr std::size_t max_dmesg_bytes = 32 << 20;

struct Options {
    std::optional<std::string> target;
    std::optional<std::string> ios_file;
    std::optional<std::string> dt_file, dt_node, dmesg_file;
    std::string dmesg_host; // --dmesg-host
    std::optional<std::string> cmdline_file;
    std::optional<std::string> pci; // --pci: "" or "VENDOR:DEVICE"
    std::optional<uint32_t> caps, caps2;
    std::string kernel;
    std::optional<mmc::regs::CardFamily> card;
    bool sdio = false; // --family sdio
    std::optional<double> measure_seconds;
    bool json = false, verbose = false, use_ioctl = true;
    mmc::dev::SysRoots roots;
};

// --pci's VENDOR:DEVICE: two 16-bit hex ids ("1217:8621"), or nothing.
std::string pci_id_option(const std::string& text)
{
    if (text.empty()) return text;
    const auto colon = text.find(':');
    const auto hex16 = [](std::string_view s) {
        uint16_t v = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
        return !s.empty() && s.size() <= 4 && r.ec == std::errc() && r.ptr == s.data() + s.size();
    };
    if (colon == std::string::npos || !hex16(std::string_view(text).substr(0, colon)) || !hex16(std::string_view(text).substr(colon + 1)))
        throw mmc::cli::UsageError(fmt::format("--pci={}: expected VENDOR:DEVICE in hex, such as 1217:8621 (lspci -nn)", text.substr(0, 40)));
    std::string id = text;
    for (auto& ch : id) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return id;
}

Options parse_options(int argc, char** argv)
{
    enum { caps = 256, caps2, kernel, family, card_deprecated, measure, dt, dt_node, dmesg, dmesg_host, pci, cmdline };
    static const auto longopts = mmc::cli::with_device_sources({
        {"ios", required_argument, nullptr, 'i'},      {"caps", required_argument, nullptr, caps},
        {"caps2", required_argument, nullptr, caps2},  {"kernel", required_argument, nullptr, kernel},
        {"family", required_argument, nullptr, family}, {"measure", optional_argument, nullptr, measure},
        {"card", required_argument, nullptr, card_deprecated}, // deprecated spelling of --family
        {"json", no_argument, nullptr, 'J'},           {"verbose", no_argument, nullptr, 'v'},
        {"dt", required_argument, nullptr, dt},        {"dt-node", required_argument, nullptr, dt_node},
        {"dmesg", required_argument, nullptr, dmesg},  {"pci", optional_argument, nullptr, pci},
        {"dmesg-host", required_argument, nullptr, dmesg_host},
        {"cmdline", required_argument, nullptr, cmdline},
        {"help", no_argument, nullptr, 'h'},           {"version", no_argument, nullptr, 'V'},
    }, {.debugfs_root = true});
    Options o;
    mmc::cli::DeviceSources sources;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":i:JvhV", longopts.data())) != -1) {
        switch (c) {
        case 'i': o.ios_file = optarg; break;
        case caps: o.caps = mmc::out::caps_option("--caps", optarg); break;
        case caps2: o.caps2 = mmc::out::caps_option("--caps2", optarg); break;
        case kernel:
            o.kernel = mmc::out::kernel_option("--kernel", optarg);
            break;
        case dt: o.dt_file = optarg; break;
        case dt_node: o.dt_node = optarg; break;
        case dmesg: o.dmesg_file = optarg; break;
        case dmesg_host: o.dmesg_host = mmc::out::host_option("--dmesg-host", optarg); break;
        case pci: o.pci = pci_id_option(optarg ? optarg : ""); break;
        case cmdline: o.cmdline_file = optarg; break;
        case card_deprecated: mmc::cli::warn_deprecated(tool, "--card", "--family"); [[fallthrough]];
        case family: {
            const std::string v = optarg;
            o.card = mmc::regs::card_family_from_string(v);
            o.sdio = v == "sdio";
            if (!o.card && !o.sdio) throw mmc::cli::UsageError(fmt::format("--family {}: expected sd, mmc or sdio", v));
            break;
        }
        case measure: {
            // An optional argument is "--measure=5" to getopt; "--measure 5"
            // is taken too when the next word reads as a time (no device does).
            const char* v = optarg;
            if (!v && optind < argc && mmc::cli::reads_as_time(argv[optind])) v = argv[optind++];
            o.measure_seconds = 3.0;
            if (v) {
                const double s = mmc::cli::seconds_option("--measure", v);
                if (s <= 0 || s > 600)
                    throw mmc::cli::UsageError(fmt::format("--measure {}: expected a time above zero and up to 600 s", v));
                o.measure_seconds = s;
            }
            break;
        }
        case 'J': o.json = true; break;
        case 'v': o.verbose = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) mmc::cli::throw_getopt_error(c, argv);
        }
    }
    if (optind < argc) o.target = argv[optind++];
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'", argv[optind]));
    if (o.ios_file && o.target) throw mmc::cli::UsageError("give a DEVICE or --ios, not both");
    if (!o.ios_file && (o.caps || o.caps2 || o.card || o.sdio || o.dt_file || o.pci))
        throw mmc::cli::UsageError("--caps, --caps2, --family, --dt and --pci describe a pasted dump; use them with --ios");
    if (o.pci && o.dt_file) throw mmc::cli::UsageError("--pci says the host has no device tree; give --dt or --pci, not both");
    if (o.dt_node && !o.dt_file) throw mmc::cli::UsageError("--dt-node picks a node of --dt; give --dt FILE");
    if (!o.dmesg_host.empty() && !o.dmesg_file) throw mmc::cli::UsageError("--dmesg-host picks a host of --dmesg; give --dmesg FILE");
    if (o.ios_file && o.measure_seconds) throw mmc::cli::UsageError("--measure needs a live card, not --ios");
    o.use_ioctl = sources.use_ioctl;
    o.roots = sources.roots<mmc::dev::SysRoots>();
    return o;
}

// What became of --dmesg, with the option that picks a host where one is needed.
std::string log_note(const mmc::bus::Evidence& e)
{
    return e.log_note + (e.log_needs_host ? "; give --dmesg-host mmcN to read one host's lines" : "");
}

std::vector<mmc::out::BusReport> offline_reports(const Options& o)
{
    mmc::out::PastedBus pasted;
    pasted.ios_file = *o.ios_file;
    pasted.caps = o.caps;
    pasted.caps2 = o.caps2;
    pasted.kernel = o.kernel;
    pasted.family = o.card;
    pasted.sdio = o.sdio;
    pasted.dt_file = o.dt_file;
    pasted.dt_node = o.dt_node;
    pasted.dmesg_file = o.dmesg_file;
    pasted.dmesg_host = o.dmesg_host;
    pasted.cmdline_file = o.cmdline_file;
    pasted.pci = o.pci;
    std::vector<mmc::out::BusReport> out;
    std::vector<mmc::bus::Evidence> all;
    try {
        all = mmc::out::pasted_bus_evidence(pasted);
    } catch (const mmc::out::PastedInputError& e) {
        // Each file's failure names the option that gave it.
        const char* option = e.input == mmc::out::PastedInput::device_tree      ? "--dt"
                                 : e.input == mmc::out::PastedInput::kernel_log     ? "--dmesg"
                                 : e.input == mmc::out::PastedInput::kernel_cmdline ? "--cmdline"
                                                                                    : "--ios";
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure, fmt::format("{}: {}", option, e.what()));
    }
    for (const auto& e : all) {
        mmc::out::BusReport r{mmc::bus::diagnose(e), e.controller, e.kernel_message, std::nullopt, {}, e.dt, {}, log_note(e)};
        if (e.log) r.log_events = e.log->events;
        out.push_back(std::move(r));
    }
    return out;
}

mmc::out::BusReport live_report(const mmc::dev::Host& host, const mmc::dev::Card* card, const Options& o)
{
    std::optional<mmc::regs::CardRegisters> regs;
    if (card) {
        const auto gathered = mmc::dev::gather_registers(*card, o.roots, {o.use_ioctl});
        // An SDIO or unknown card has no storage registers to decode.
        if (const auto family = mmc::dev::family_of(card->type)) regs = mmc::regs::decode_card(*family, gathered.registers);
    }
    auto evidence = mmc::dev::gather_bus_evidence(host, card, regs ? &*regs : nullptr, o.roots, o.kernel);
    // 2 GB or less is a standard-capacity card: the doctor's rule 1.
    if (card && card->capacity_bytes) evidence.capacity_bytes = card->capacity_bytes;
    if (o.dmesg_file) {
        std::vector<std::string> devices;
        if (!host.controller.syspath.empty()) devices.push_back(host.controller.syspath.filename().string());
        const auto text = mmc::cli::in_context("--dmesg", [&] { return mmc::cli::read_input(*o.dmesg_file, max_dmesg_bytes, "kernel log"); });
        mmc::out::add_host_log(evidence, text, o.dmesg_host, devices);
    }
    if (o.cmdline_file)
        evidence.cmdline = mmc::cli::in_context("--cmdline", [&] { return mmc::out::read_kernel_cmdline(*o.cmdline_file); });
    mmc::out::BusReport r{mmc::bus::diagnose(evidence), host.controller.describe(), evidence.kernel_message, std::nullopt, {},
                          evidence.dt, {}, log_note(evidence)};
    if (evidence.log) r.log_events = evidence.log->events;
    if (o.measure_seconds) {
        if (!card || !card->is_storage())
            r.measure_error = "no storage card on this host";
        else {
            try {
                r.measured_mb_s = mmc::bench::quick_read(card->device_path(o.roots), *o.measure_seconds).mb_s;
            } catch (const std::system_error& e) {
                r.measure_error = e.what();
            }
        }
    }
    return r;
}

// A card in a USB reader: the reader's link and its ceiling, as
// far as USB lets us see. Nothing when the target is no reader's slot (the
// MMC path then says what it is).
std::optional<mmc::out::ReaderBusReport> reader_report(const Options& o)
{
    std::optional<mmc::dev::Device> d;
    try {
        d = mmc::dev::resolve_device(*o.target, mmc::dev::Purpose::read, {o.roots});
    } catch (const mmc::dev::DeviceError&) {
        return std::nullopt; // the MMC path words the failure
    }
    if (!d->is_reader_slot()) return std::nullopt;
    return mmc::out::reader_bus_report(*d->usb, d->disk_path, o.measure_seconds.value_or(0));
}

std::vector<mmc::out::BusReport> live_reports(const Options& o)
{
    std::vector<mmc::out::BusReport> out;
    if (o.target) {
        try {
            const auto t = mmc::dev::resolve(*o.target, o.roots);
            out.push_back(live_report(t.host, t.card ? &*t.card : nullptr, o));
        } catch (const mmc::dev::ResolveError& e) {
            if (e.why != mmc::dev::ResolveError::Why::no_card) throw;
            // An empty slot still has a host to describe.
            out.push_back(live_report(mmc::dev::read_host(o.roots.sysfs / "class" / "mmc_host" / *o.target, o.roots), nullptr, o));
        }
        return out;
    }
    const auto cards = mmc::dev::list_cards(o.roots);
    for (const auto& host : mmc::dev::list_hosts(o.roots)) {
        const mmc::dev::Card* card = nullptr;
        for (const auto& c : cards)
            if (c.host.name == host.name) card = &c;
        out.push_back(live_report(host, card, o));
    }
    return out;
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    const Options o = parse_options(argc, argv);
    if (o.target && !o.ios_file)
        if (const auto reader = reader_report(o)) {
            if (o.json) {
                nlohmann::ordered_json doc;
                doc["tool"] = tool;
                doc["version"] = mmc::version;
                doc["hosts"] = nlohmann::ordered_json::array();
                doc["readers"] = nlohmann::ordered_json::array({mmc::out::reader_bus_json(*reader)});
                mmc::cli::print_json(doc, tool);
            } else {
                std::cout << mmc::out::reader_bus_text(*reader);
            }
            return mmc::cli::ok;
        }
    const std::vector<mmc::out::BusReport> reports = o.ios_file ? offline_reports(o) : live_reports(o);
    if (o.json) {
        nlohmann::ordered_json doc;
        doc["tool"] = tool;
        doc["version"] = mmc::version;
        auto& hosts = doc["hosts"] = nlohmann::ordered_json::array();
        for (const auto& r : reports) hosts.push_back(mmc::out::bus_json(r));
        mmc::cli::print_json(doc, tool);
    } else if (reports.empty()) {
        std::cout << "No MMC/SD hosts found.\n";
    } else {
        for (std::size_t i = 0; i < reports.size(); ++i)
            std::cout << (i ? "\n" : "") << mmc::out::bus_text(reports[i], o.verbose);
    }
    return mmc::cli::ok;
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
