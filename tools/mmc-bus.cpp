// mmc-bus: the bus-mode doctor. Thin: options here; evidence gathering in
// libmmc/dev/bus_evidence, diagnosis in libmmc/bus/doctor, views in
// libmmc/out/bus_view.
#include "bench/quick_read.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "dev/bus_evidence.h"
#include "dev/discovery.h"
#include "dev/register_sources.h"
#include "out/bus_view.h"
#include "version.h"

#include <charconv>
#include <fmt/format.h>
#include <getopt.h>
#include <iostream>

namespace {

constexpr const char* tool = "mmc-bus";

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] [DEVICE|HOST]
 {0} [options] --ios FILE [--caps HEX] [--caps2 HEX] [--kernel VERSION] [--card sd|mmc|sdio]

Say which bus mode an SD/MMC card runs in, what that mode and clock allow,
what card and host could do, and which side limits throughput.
Without arguments every host is diagnosed.

Options:
 -i, --ios FILE          diagnose a pasted /sys/kernel/debug/mmcN/ios ('-' reads stdin)
     --caps HEX          the host's debugfs caps (with --ios)
     --caps2 HEX         the host's debugfs caps2 (with --ios)
     --kernel VERSION    kernel that printed caps (default: this kernel); before
                         4.11 the caps bits from 11 up were numbered differently
     --card sd|mmc|sdio  what is in the slot (with --ios; default: from the timing)
 -m, --measure[=SEC]     read the card sequentially (O_DIRECT, read-only) for SEC
                         seconds (default 3) and report MB/s against the ceiling
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
)",
               tool);
}

struct Options {
    std::optional<std::string> target;
    std::optional<std::string> ios_file;
    std::optional<uint32_t> caps, caps2;
    std::string kernel;
    std::optional<mmc::bus::CardKind> card;
    std::optional<double> measure_seconds;
    bool json = false, verbose = false, use_ioctl = true, debugfs_set = false;
    mmc::dev::SysRoots roots;
};

uint32_t parse_hex32(const char* opt, const std::string& text)
{
    std::string s = text;
    if (s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0) s.erase(0, 2);
    uint32_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw mmc::cli::UsageError(fmt::format("{} {}: expected a 32-bit hex number such as 0x4000010f", opt, text));
    return v;
}

Options parse_options(int argc, char** argv)
{
    enum { caps = 256, caps2, kernel, card, no_ioctl, sysfs, debugfs };
    static const option longopts[] = {
        {"ios", required_argument, nullptr, 'i'},      {"caps", required_argument, nullptr, caps},
        {"caps2", required_argument, nullptr, caps2},  {"kernel", required_argument, nullptr, kernel},
        {"card", required_argument, nullptr, card},    {"measure", optional_argument, nullptr, 'm'},
        {"json", no_argument, nullptr, 'J'},           {"verbose", no_argument, nullptr, 'v'},
        {"no-ioctl", no_argument, nullptr, no_ioctl},  {"sysfs-root", required_argument, nullptr, sysfs},
        {"debugfs-root", required_argument, nullptr, debugfs},
        {"help", no_argument, nullptr, 'h'},           {"version", no_argument, nullptr, 'V'},
        {nullptr, 0, nullptr, 0},
    };
    Options o;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":i:m::JvhV", longopts, nullptr)) != -1) {
        switch (c) {
        case 'i': o.ios_file = optarg; break;
        case caps: o.caps = parse_hex32("--caps", optarg); break;
        case caps2: o.caps2 = parse_hex32("--caps2", optarg); break;
        case kernel: o.kernel = optarg; break;
        case card: {
            const std::string v = optarg;
            if (v == "sd") o.card = mmc::bus::CardKind::sd;
            else if (v == "mmc" || v == "emmc") o.card = mmc::bus::CardKind::mmc;
            else if (v == "sdio") o.card = mmc::bus::CardKind::sdio;
            else throw mmc::cli::UsageError(fmt::format("--card {}: expected sd, mmc or sdio", v));
            break;
        }
        case 'm': {
            o.measure_seconds = 3.0;
            if (optarg) {
                double s = 0;
                const std::string v = optarg;
                const auto r = std::from_chars(v.data(), v.data() + v.size(), s);
                if (r.ec != std::errc() || r.ptr != v.data() + v.size() || s <= 0 || s > 600)
                    throw mmc::cli::UsageError(fmt::format("--measure={}: expected seconds between 0 and 600", v));
                o.measure_seconds = s;
            }
            break;
        }
        case 'J': o.json = true; break;
        case 'v': o.verbose = true; break;
        case no_ioctl: o.use_ioctl = false; break;
        case sysfs: o.roots.sysfs = optarg; break;
        case debugfs: o.roots.debugfs = optarg; o.debugfs_set = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default: mmc::cli::throw_getopt_error(c, argv);
        }
    }
    if (optind < argc) o.target = argv[optind++];
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'", argv[optind]));
    if (o.ios_file && o.target) throw mmc::cli::UsageError("give a DEVICE or --ios, not both");
    if (!o.ios_file && (o.caps || o.caps2 || o.card))
        throw mmc::cli::UsageError("--caps, --caps2 and --card describe a pasted dump; use them with --ios");
    if (o.ios_file && o.measure_seconds) throw mmc::cli::UsageError("--measure needs a live card, not --ios");
    if (!o.debugfs_set && !o.roots.is_live()) o.roots.debugfs = o.roots.sysfs / "kernel" / "debug";
    return o;
}

std::vector<mmc::out::BusReport> offline_reports(const Options& o)
{
    std::string text;
    try {
        text = *o.ios_file == "-" ? std::string(std::istreambuf_iterator<char>(std::cin), {})
                                  : mmc::cli::read_arg_or_file("@" + *o.ios_file);
    } catch (const mmc::cli::UsageError& e) {
        throw std::runtime_error(e.what()); // an unreadable file is a failure, not a usage error
    }
    const auto snapshots = mmc::bus::parse_ios(text);
    if (snapshots.empty())
        throw std::runtime_error(fmt::format("{}: no ios lines found (expected 'clock:', 'timing spec:' ...)", *o.ios_file));
    std::vector<mmc::out::BusReport> out;
    for (const auto& ios : snapshots) {
        mmc::bus::Evidence e;
        e.host = ios.host;
        e.ios = ios;
        e.caps = o.caps;
        e.caps2 = o.caps2;
        e.kernel_version = o.kernel;
        if (o.card)
            e.card = *o.card;
        else if (ios.timing.rfind("mmc", 0) == 0)
            e.card = mmc::bus::CardKind::mmc;
        else if (ios.timing.rfind("sd", 0) == 0)
            e.card = mmc::bus::CardKind::sd;
        out.push_back({mmc::bus::diagnose(e), {}, {}, std::nullopt, {}});
    }
    return out;
}

mmc::out::BusReport live_report(const mmc::dev::Host& host, const mmc::dev::Card* card, const Options& o)
{
    std::optional<mmc::regs::CardRegisters> regs;
    if (card) {
        const auto gathered = mmc::dev::gather_registers(*card, o.roots, {o.use_ioctl});
        const auto family = card->type == mmc::dev::CardType::mmc ? mmc::regs::CardFamily::mmc : mmc::regs::CardFamily::sd;
        regs = mmc::regs::decode_card(family, gathered.registers);
    }
    const auto evidence = mmc::dev::gather_bus_evidence(host, card, regs ? &*regs : nullptr, o.roots, o.kernel);
    mmc::out::BusReport r{mmc::bus::diagnose(evidence), host.controller.describe(), evidence.kernel_message, std::nullopt, {}};
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

int main(int argc, char** argv)
{
    Options o;
    try {
        o = parse_options(argc, argv);
    } catch (const mmc::cli::UsageError& e) {
        return mmc::cli::usage_failure(tool, e.what());
    }
    std::vector<mmc::out::BusReport> reports;
    try {
        reports = o.ios_file ? offline_reports(o) : live_reports(o);
    } catch (const std::exception& e) {
        mmc::cli::error(tool, e.what());
        return mmc::cli::failure;
    }
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
