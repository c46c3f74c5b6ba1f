// mmc-info: decode SD/MMC registers. Thin: options here, decoding in
// libmmc/regs, presentation in libmmc/views.
#include "cli/cli.h"
#include "cli/deprecated.h"
#include "cli/device_sources.h"
#include "cli/json_out.h"
#include "dev/discovery.h"
#include "dev/register_sources.h"
#include "dev/usb_readers.h"
#include "views/card_view.h"
#include "views/device_view.h"
#include "views/reader_view.h"
#include "regs/card_registers.h"
#include "regs/ext_csd_order.h"
#include "regs/family_guess.h"
#include "regs/hex.h"
#include "version.h"

#include <fmt/format.h>
#include <getopt.h>
#include <iostream>
#include <unistd.h>

namespace {

constexpr const char* tool = "mmc-info";

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options]                  list every MMC/SD card
 {0} [options] DEVICE           decode everything the card exposes (a card in a
                                USB reader: the reader, its link and capacity)
 {0} [options] --decode KIND=HEX [--decode KIND=HEX ...]

Decode SD, microSD, MMC and eMMC registers. DEVICE is /dev/mmcblk0,
mmcblk0, a partition (mmcblk0p1), a host (mmc0), a card (mmc0:4567) or a
sysfs path.

Options:
 -d, --decode KIND=HEX   decode a register image; KIND is one of cid, csd,
                         scr, ssr, ocr, ext_csd, switch_status, status;
                         HEX as Linux prints it (spaces, colons, 0x allowed)
                         or @FILE to read it from a file
 -c, --family sd|mmc     card family for CID/CSD/OCR/status (default: what
                         the registers say, else sd; the output says which)
     --card sd|mmc       deprecated: use --family
     --byte-order normal|reversed|auto
                         byte order of a pasted EXT_CSD (default: auto;
                         kernels before about 2013 printed ext_csd[511] first)
 -J, --json              print JSON (see mmc-info(1) for the contract)
 -v, --verbose           show every field with its bit range and raw value
     --no-ioctl          read sysfs and debugfs only, send no card commands
     --sysfs-root DIR    read sysfs from DIR (default /sys)
     --debugfs-root DIR  read debugfs from DIR (default /sys/kernel/debug)
 -h, --help              display this help
 -V, --version           display version

Examples:
 {0}
 {0} /dev/mmcblk0
 {0} --decode csd=400e00325b5900001fff7f800a400000
 {0} --family mmc --decode ext_csd=@/sys/kernel/debug/mmc0/mmc0:0001/ext_csd
)",
               tool);
}

struct Options {
    std::optional<mmc::regs::CardFamily> card; // nullopt: from the registers
    std::vector<std::pair<mmc::regs::RegKind, std::string>> decode;
    bool json = false;
    bool verbose = false;
    bool use_ioctl = true;
    std::optional<std::string> device;
    mmc::dev::SysRoots roots;
    mmc::regs::ByteOrder byte_order = mmc::regs::ByteOrder::automatic;
};

std::pair<mmc::regs::RegKind, std::string> parse_decode(const std::string& arg)
{
    const auto eq = arg.find('=');
    if (eq == std::string::npos)
        throw mmc::cli::UsageError(fmt::format("--decode {}: expected KIND=HEX, e.g. csd=400e0032...", arg));
    const std::string name = arg.substr(0, eq);
    const auto kind = mmc::regs::reg_kind_from_string(name);
    if (!kind)
        throw mmc::cli::UsageError(fmt::format(
            "--decode: unknown register '{}'; expected cid, csd, scr, ssr, ocr, ext_csd, switch_status or status", name));
    return {*kind, mmc::cli::read_arg_or_file(arg.substr(eq + 1))};
}

Options parse_options(int argc, char** argv)
{
    static const auto longopts = mmc::cli::with_device_sources(
        {
            {"decode", required_argument, nullptr, 'd'}, {"family", required_argument, nullptr, 'c'},
            {"card", required_argument, nullptr, 'C'}, // deprecated spelling of --family
            {"json", no_argument, nullptr, 'J'},         {"verbose", no_argument, nullptr, 'v'},
            {"help", no_argument, nullptr, 'h'},         {"version", no_argument, nullptr, 'V'},
            {"byte-order", required_argument, nullptr, 'B'},
        },
        {.debugfs_root = true});
    Options o;
    mmc::cli::DeviceSources sources;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":d:c:JvhV", longopts.data(), {"decode"})) != -1) {
        switch (c) {
        case 'd': o.decode.push_back(parse_decode(optarg)); break;
        case 'C': mmc::cli::warn_deprecated(tool, "--card", "--family"); [[fallthrough]];
        case 'c': {
            const auto family = mmc::regs::card_family_from_string(optarg);
            if (!family) throw mmc::cli::UsageError(fmt::format("--family {}: expected sd or mmc", optarg));
            o.card = *family;
            break;
        }
        case 'B': {
            const auto order = mmc::regs::byte_order_from_string(optarg);
            if (!order) throw mmc::cli::UsageError(fmt::format("--byte-order {}: expected normal, reversed or auto", optarg));
            o.byte_order = *order;
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
    if (optind < argc) o.device = argv[optind++];
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    if (o.device && !o.decode.empty()) throw mmc::cli::UsageError("give a DEVICE or --decode, not both");
    o.use_ioctl = sources.use_ioctl;
    o.roots = sources.roots<mmc::dev::SysRoots>();
    return o;
}

void print_json(nlohmann::ordered_json body)
{
    nlohmann::ordered_json doc;
    doc["tool"] = tool;
    doc["version"] = mmc::version;
    doc.update(body);
    mmc::cli::print_json(doc, tool);
}

int list_cards(const Options& o)
{
    const auto cards = mmc::dev::list_cards(o.roots);
    // Cards in USB readers have no registers to list, but they are cards.
    const auto readers = mmc::dev::list_reader_slots(o.roots);
    if (o.json) {
        auto slots = nlohmann::ordered_json::array();
        for (const auto& r : readers) slots.push_back(mmc::out::reader_json(r.usb, r.capacity_bytes));
        print_json({{"cards", mmc::out::card_list_json(cards, o.roots)}, {"readers", slots}});
    } else {
        std::cout << mmc::out::card_list_text(cards, o.roots);
        if (!readers.empty()) std::cout << "\nIn USB card readers (no registers through them; mmc-info DEVICE says more):\n";
        for (const auto& r : readers) std::cout << "  " << r.device << "  " << mmc::dev::describe_usb(r.usb) << "\n";
    }
    return mmc::cli::ok;
}

// A card in a USB reader: what is known through the reader, and why the
// registers are not.
int show_reader(const mmc::dev::Device& d, const Options& o)
{
    if (o.json) {
        print_json({{"device", d.typed}, {"reader", mmc::out::reader_json(*d.usb, d.disk_size)}});
    } else {
        std::cout << mmc::out::reader_text(*d.usb, d.disk_size);
    }
    return mmc::cli::ok;
}

int show_device(const Options& o)
{
    std::optional<mmc::dev::Device> reader_slot;
    const auto target = [&]() -> std::optional<mmc::dev::Target> {
        try {
            return mmc::dev::resolve(*o.device, o.roots);
        } catch (const mmc::dev::ResolveError& e) {
            if (e.why != mmc::dev::ResolveError::Why::not_mmc) throw;
            auto d = mmc::dev::resolve_device(*o.device, mmc::dev::Purpose::read, {o.roots});
            if (d.is_reader_slot()) {
                reader_slot = std::move(d);
                return std::nullopt;
            }
            throw mmc::cli::Error(mmc::cli::ErrorKind::failure,
                                  fmt::format("{}\nRegisters are reachable only on a card behind an MMC/SD host controller.",
                                              e.what()));
        }
    }();
    if (reader_slot) return show_reader(*reader_slot, o);
    const auto id = mmc::dev::identify(*target->card, o.roots, {o.use_ioctl});
    if (o.json)
        print_json(mmc::out::device_json(id));
    else
        std::cout << mmc::out::device_text(id.card, o.roots, id.gathered, id.registers,
                                           {o.verbose, mmc::cli::use_color(STDOUT_FILENO)});
    return mmc::cli::ok;
}

// The family pasted registers are decoded as, and why: --family, else what the
// registers say (the other reading named), else SD with the option that gives MMC.
struct FamilyChoice {
    mmc::regs::CardFamily family;
    std::string basis;
};

FamilyChoice choose_family(std::optional<mmc::regs::CardFamily> given, const std::vector<mmc::regs::RawRegister>& inputs)
{
    using mmc::regs::CardFamily;
    if (given) return {*given, fmt::format("given: --family {}", mmc::regs::to_string(*given))};
    const auto guess = mmc::regs::guess_family(inputs);
    if (!guess.family) return {CardFamily::sd, fmt::format("assumed: {}; --family mmc reads them as MMC", guess.why)};
    const auto other = *guess.family == CardFamily::sd ? CardFamily::mmc : CardFamily::sd;
    return {*guess.family, fmt::format("from the registers: {}; --family {} reads them as {}", guess.why,
                                       mmc::regs::to_string(other), other == CardFamily::sd ? "SD" : "MMC")};
}

} // namespace

// The tool once started; what it throws, run_tool reports.
int run(int argc, char** argv)
{
    Options options;
    std::vector<mmc::regs::RawRegister> inputs;
    mmc::cli::as_usage([&] {
        options = parse_options(argc, argv);
        for (const auto& [kind, text] : options.decode)
            inputs.push_back({kind, mmc::regs::parse_register_hex(kind, text), "input"});
    });

    if (options.decode.empty()) return options.device ? show_device(options) : list_cards(options);

    const auto family = choose_family(options.card, inputs);
    const auto card = mmc::regs::decode_card_oriented(family.family, inputs, options.byte_order);
    if (options.json) {
        const auto decoded = mmc::out::card_json(card);
        nlohmann::ordered_json body;
        for (const auto& [key, value] : decoded.items()) {
            body[key] = value;
            if (key == "family") body["family_basis"] = family.basis;
        }
        print_json(body);
    } else {
        std::cout << fmt::format("{:<16} {} ({})\n", "Family:", family.family == mmc::regs::CardFamily::sd ? "SD" : "MMC", family.basis);
        std::cout << mmc::out::card_text(card, {options.verbose, mmc::cli::use_color(STDOUT_FILENO)});
    }
    return mmc::cli::ok;
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
}
