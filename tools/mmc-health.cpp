// mmc-health: is this card wearing out, and why won't it write? Thin:
// options here; gathering in libmmc/dev, deciding in libmmc/health, words in
// libmmc/views/health_view.
#include "cli/cli.h"
#include "cli/deprecated.h"
#include "cli/device_sources.h"
#include "cli/file_out.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "cli/size.h"
#include "dev/discovery.h"
#include "dev/gen_cmd.h"
#include "dev/identify.h"
#include "dev/write_protect.h"
#include "cli/confirm.h"
#include "dev/free_region.h"
#include "health/canary.h"
#include "probe/canary.h"
#include "health/collect.h"
#include "health/nagios.h"
#include "health/raw_file.h"
#include "views/health_metrics.h"
#include "views/health_view.h"
#include "regs/hex.h"
#include "tune/user_wp_apply.h"
#include "version.h"

#include <filesystem>
#include <fmt/format.h>
#include <getopt.h>
#include <iostream>
#include <unistd.h>

namespace {

constexpr const char* tool = "mmc-health";
// Installed under this name (a link to mmc-health, in the monitoring
// plugins' directory) it is a Nagios/Icinga check: --nagios is implied and
// -c is --critical, the Monitoring Plugins' letter, not --family.
constexpr std::string_view plugin_name = "check_mmc_health";

bool run_as_plugin(const char* argv0) { return std::filesystem::path(argv0).filename() == plugin_name; }

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] [DEVICE...]      every card, or the cards named
 {0} [options] --decode KIND=HEX [--decode KIND=HEX ...]
 {0} [options] --from FILE
 {0} [options] --canary [--destructive --offset SIZE --size SIZE] [DEVICE...]

Say whether an SD or eMMC card is wearing out and whether it can be written,
from EXT_CSD, the vendor health block (CMD56) its CID names, the SD status
and the host. The verdict (healthy, worn, end_of_life, read_only, unknown)
is on each card's first line and in the exit status.

Options:
 -d, --decode KIND=HEX   decode a register image or vendor block; KIND is
                         one of cid, csd, scr, ssr, ocr, ext_csd,
                         switch_status, status or cmd56 (a 512-byte block;
                         give several for a layout with several reads);
                         @FILE reads HEX from a file
 -c, --family sd|mmc     card family for --decode (default: sd; mmc when an
                         EXT_CSD is given)
     --card sd|mmc       deprecated: use --family
     --layout NAME       read (or decode) this CMD56 layout even though the
                         CID does not name it; NAME is one of
                         {1}
     --from FILE         decode a raw file written by --save-raw
     --save-raw FILE     keep the raw registers and blocks with the CID
     --prometheus FILE   write metrics for node_exporter's textfile
                         collector (replaced atomically); with no card it
                         says mmc_health_cards 0 and exits 0
 -J, --json              print JSON (see mmc-health(1))
     --nagios            answer as a Nagios/Icinga check: one status line
                         with performance data, exit 0 OK, 1 WARNING,
                         2 CRITICAL, 3 UNKNOWN
 -w, --warning RANGE     with --nagios: WARNING when the life used (percent)
                         is outside RANGE (10, 10:, ~:10, 10:20, @10:20)
     --critical RANGE    with --nagios: CRITICAL likewise (-c as
                         check_mmc_health)
     --canary            also write a small canary (64 KiB) to a file of its
                         own on the card's mounted file system, read it back
                         past the page cache and remove it: a card that loses
                         what it acknowledges is end_of_life, one that refuses
                         the write read_only
     --destructive       with --canary: write a raw region of the card instead
                         (outside every partition; asks first)
     --offset SIZE       with --destructive: the region's start
     --size SIZE         with --destructive: the region's length (up to 16M)
 -y, --yes               with --destructive: do not ask for confirmation
 -n, --dry-run           with --canary: say where it would write, write nothing
     --any-device        with --canary: allow a block device that is not an
                         MMC/SD card
     --no-ioctl          read sysfs and debugfs only, send no card commands
     --sysfs-root DIR    read sysfs from DIR (default /sys)
     --debugfs-root DIR  read debugfs from DIR (default /sys/kernel/debug)
 -h, --help              display this help
 -V, --version           display version

Exit status: 0 healthy, 1 failure, 2 usage error, 3 worn, 4 end_of_life,
5 read_only, 6 unknown; with several cards, the worst. With --nagios: the
Monitoring Plugins' 0-3, a failure or usage error being UNKNOWN.

Examples:
 {0} /dev/mmcblk0
 {0} --prometheus /var/lib/prometheus/node-exporter/mmckit.prom
 {0} --nagios -w 80 --critical 95 /dev/mmcblk0
 {0} --canary /dev/mmcblk0
 {0} --family mmc --decode ext_csd=@/sys/kernel/debug/mmc0/mmc0:0001/ext_csd
 {0} --layout two_step --decode cmd56=@block.hex
)",
               tool, mmc::health::layout_names());
}

// As check_mmc_health, the help says what the check's own letters mean
// (-c is --critical there) and leaves out what a check does not do.
void plugin_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [-w RANGE] [-c RANGE] [options] [DEVICE...]
 {0} [-w RANGE] [-c RANGE] [options] --from FILE

A Nagios/Icinga/Checkmk check of SD and eMMC card wear (mmc-health --nagios):
one status line with performance data; the state is the exit status.

Options:
 -w, --warning RANGE     WARNING when the life used (percent) is outside
                         RANGE (10, 10:, ~:10, 10:20, @10:20)
 -c, --critical RANGE    CRITICAL likewise
 -d, --decode KIND=HEX   check a register image or vendor block (as
                         mmc-health --decode)
     --family sd|mmc     card family for --decode (no short option here)
     --layout NAME       read this CMD56 layout even though the CID does not
                         name it; NAME is one of
                         {1}
     --from FILE         check a raw file written by mmc-health --save-raw
     --save-raw FILE     also keep the raw registers and blocks
     --prometheus FILE   also write the metrics for node_exporter
     --no-ioctl          read sysfs and debugfs only, send no card commands
     --sysfs-root DIR    read sysfs from DIR (default /sys)
     --debugfs-root DIR  read debugfs from DIR (default /sys/kernel/debug)
 -h, --help              display this help
 -V, --version           display version

Exit status: 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN (also a failure or a
usage error, with the reason on the status line). See mmc-health(1), NAGIOS.

Examples:
 {0} -w 80 -c 95
 {0} -w 80 -c 95 /dev/mmcblk0
)",
               plugin_name, mmc::health::layout_names());
}

struct CanaryOptions {
    bool on = false;
    bool destructive = false; // a raw region, --offset and --size
    bool yes = false, dry_run = false, any_device = false;
    std::optional<uint64_t> offset, size;
};

void check_canary_options(const CanaryOptions& o)
{
    if (!o.on && (o.destructive || o.offset || o.size || o.any_device || o.yes || o.dry_run))
        throw mmc::cli::UsageError("--destructive, --offset, --size, --any-device, --yes and --dry-run only qualify --canary");
    if (o.destructive != (o.offset && o.size))
        throw mmc::cli::UsageError("--canary --destructive writes a raw region: give it with --offset SIZE and --size SIZE, all three");
    if (o.size && *o.size > mmc::health::canary_max_region_bytes)
        throw mmc::cli::UsageError(fmt::format("--size {}: the canary writes at most {}", *o.size,
                                               mmc::cli::format_bytes(mmc::health::canary_max_region_bytes)));
}

// The block device `typed` names, for the canary: any block device with
// --any-device, else an MMC/SD card's (or a card reader's slot).
mmc::dev::Device canary_device(const std::string& typed, const CanaryOptions& o, const mmc::dev::SysRoots& roots)
{
    mmc::dev::ResolveOptions ro;
    ro.roots = roots;
    ro.any_device = o.any_device;
    auto d = mmc::dev::resolve_device(typed, mmc::dev::Purpose::read, ro);
    d.require_allowed();
    if (!d.card && !d.is_reader_slot() && !o.any_device)
        throw mmc::dev::DeviceError(mmc::dev::DeviceError::Why::not_mmc, typed, "not an MMC/SD device: " + d.not_mmc,
                                    mmc::cli::Remedy::any_device_write);
    return d;
}

mmc::cli::Error failure(const std::string& text) { return mmc::cli::Error(mmc::cli::ErrorKind::failure, text); }

mmc::dev::SafetyRoots safety_roots(const mmc::dev::SysRoots& roots)
{
    mmc::dev::SafetyRoots s;
    s.sysfs = roots.sysfs;
    return s;
}

// A file of its own on the first file system of the device mounted
// read-write; the file systems all mounted read-only is a finding (a card
// that turned read-only has them remounted so: ext4's errors=remount-ro).
std::optional<mmc::health::CanaryResult> file_canary(const mmc::dev::Device& d, const CanaryOptions& o, const mmc::dev::SysRoots& roots)
{
    const auto place = mmc::dev::writable_mount(d, safety_roots(roots));
    if (place.dir.empty() && !place.read_only_mount.empty()) {
        mmc::health::CanaryResult c;
        c.mode = "file";
        c.where = place.read_only_mount;
        c.size = mmc::health::canary_default_bytes;
        c.state = mmc::health::CanaryState::read_only;
        c.error = fmt::format("{}: every file system of {} is mounted read-only", place.read_only_mount, d.disk);
        return c;
    }
    if (place.dir.empty())
        throw failure(fmt::format("{}: no file system of {} is mounted to hold the canary; mount one, or name a raw "
                                  "region with --destructive --offset SIZE --size SIZE",
                                  d.typed, d.disk));
    if (o.dry_run) {
        fmt::print(stderr, "Dry run: the canary would write {} to a file of its own in {}, then remove it.\n",
                   mmc::cli::format_bytes(mmc::health::canary_default_bytes), place.dir.string());
        return std::nullopt;
    }
    return mmc::probe::run_file_canary(place.dir, mmc::probe::random_pass());
}

// The raw region --offset and --size name, outside every partition, after a
// confirmation.
std::optional<mmc::health::CanaryResult> region_canary(const mmc::dev::Device& d, const CanaryOptions& o, const mmc::dev::SysRoots& roots)
{
    // Not exclusive: the card's partitions stay mounted; the region is outside them.
    mmc::probe::DeviceBlocks io(d.path, false);
    const std::string problem = mmc::dev::free_region_problem(d, *o.offset, *o.size, io.block_size(), safety_roots(roots));
    if (!problem.empty())
        throw failure(fmt::format("{}: the canary's region (--offset {} --size {}): {}", d.typed, *o.offset, *o.size, problem));
    const std::string plan = fmt::format("The canary writes {} at bytes {} to {} of {} ({}) on every run,\n"
                                         "destroying what is there.\n",
                                         mmc::cli::format_bytes(*o.size), *o.offset, *o.offset + *o.size, d.path,
                                         mmc::dev::describe_device(d));
    if (o.dry_run) {
        fmt::print(stderr, "{}Dry run: nothing was written.\n", plan);
        return std::nullopt;
    }
    if (!o.yes) {
        if (!isatty(STDIN_FILENO))
            throw failure(fmt::format("{}: refusing to write the canary's region without confirmation: stdin is not a "
                                      "terminal; use --yes",
                                      d.typed));
        if (mmc::cli::confirm(plan, "write the canary", false) != mmc::cli::Confirmation::yes)
            throw failure("not confirmed; nothing was written");
    }
    return mmc::probe::run_region_canary(io, d.path, *o.offset, *o.size, mmc::probe::random_pass());
}

std::optional<mmc::health::CanaryResult> run_device_canary(const mmc::dev::Device& d, const CanaryOptions& o, const mmc::dev::SysRoots& roots)
{
    return o.destructive ? region_canary(d, o, roots) : file_canary(d, o, roots);
}

struct Options {
    std::optional<mmc::regs::CardFamily> card;
    std::vector<std::string> decode;
    std::optional<std::string> layout, from, save_raw, prometheus;
    bool json = false;
    bool nagios = false;
    mmc::health::NagiosThresholds thresholds;
    bool use_ioctl = true;
    std::vector<std::string> devices;
    mmc::dev::SysRoots roots;
    CanaryOptions canary;
};

Options parse_options(int argc, char** argv)
{
    enum { opt_canary = 300, opt_destructive, opt_offset, opt_size, opt_any_device };
    static const auto longopts = mmc::cli::with_device_sources({
        {"decode", required_argument, nullptr, 'd'},   {"family", required_argument, nullptr, 'c'},
        {"card", required_argument, nullptr, 'C'}, // deprecated spelling of --family
        {"layout", required_argument, nullptr, 'L'},   {"from", required_argument, nullptr, 'F'},
        {"save-raw", required_argument, nullptr, 'R'}, {"prometheus", required_argument, nullptr, 'P'},
        {"json", no_argument, nullptr, 'J'},
        {"nagios", no_argument, nullptr, 'G'},         {"warning", required_argument, nullptr, 'w'},
        {"critical", required_argument, nullptr, 'K'},
        {"canary", no_argument, nullptr, opt_canary},   {"destructive", no_argument, nullptr, opt_destructive},
        {"offset", required_argument, nullptr, opt_offset}, {"size", required_argument, nullptr, opt_size},
        {"any-device", no_argument, nullptr, opt_any_device}, {"yes", no_argument, nullptr, 'y'},
        {"dry-run", no_argument, nullptr, 'n'},
        {"help", no_argument, nullptr, 'h'},           {"version", no_argument, nullptr, 'V'},
    }, {.debugfs_root = true});
    Options o;
    mmc::cli::DeviceSources sources;
    const bool plugin = run_as_plugin(argv[0]);
    o.nagios = plugin;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, plugin ? ":d:w:c:ynJhV" : ":d:c:w:ynJhV", longopts.data(), {"decode"})) != -1) {
        if (c == 'c' && plugin) c = 'K';
        switch (c) {
        case 'd': o.decode.push_back(optarg); break;
        case 'G': o.nagios = true; break;
        case 'w': o.thresholds.warning = mmc::health::parse_nagios_range(optarg); break;
        case 'K': o.thresholds.critical = mmc::health::parse_nagios_range(optarg); break;
        case 'C': mmc::cli::warn_deprecated(tool, "--card", "--family"); [[fallthrough]];
        case 'c': {
            const auto family = mmc::regs::card_family_from_string(optarg);
            if (!family) throw mmc::cli::UsageError(fmt::format("--family {}: expected sd or mmc", optarg));
            o.card = *family;
            break;
        }
        case 'L':
            if (!mmc::health::find_layout(optarg))
                throw mmc::cli::UsageError(
                    fmt::format("--layout {}: unknown layout; expected {}", optarg, mmc::health::layout_names()));
            o.layout = optarg;
            break;
        case 'F': o.from = optarg; break;
        case 'R': o.save_raw = optarg; break;
        case 'P': o.prometheus = optarg; break;
        case 'J': o.json = true; break;
        case opt_canary: o.canary.on = true; break;
        case opt_destructive: o.canary.destructive = true; break;
        case opt_offset: o.canary.offset = mmc::cli::size_option("--offset", optarg); break;
        case opt_size: o.canary.size = mmc::cli::size_option("--size", optarg); break;
        case opt_any_device: o.canary.any_device = true; break;
        case 'y': o.canary.yes = true; break;
        case 'n': o.canary.dry_run = true; break;
        case 'h':
            plugin ? plugin_usage(stdout) : usage(stdout);
            std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) mmc::cli::throw_getopt_error(c, argv);
        }
    }
    while (optind < argc) o.devices.push_back(argv[optind++]);
    const int modes = (!o.devices.empty()) + (!o.decode.empty()) + o.from.has_value();
    if (modes > 1) throw mmc::cli::UsageError("give DEVICEs, --decode or --from, one of them");
    if (o.nagios && o.json) throw mmc::cli::UsageError("--nagios and --json: give one of them");
    if (!o.nagios && (o.thresholds.warning || o.thresholds.critical))
        throw mmc::cli::UsageError("--warning and --critical only qualify --nagios");
    check_canary_options(o.canary);
    if (o.canary.on && (!o.decode.empty() || o.from))
        throw mmc::cli::UsageError("--canary writes to a card: not with --decode or --from");
    o.use_ioctl = sources.use_ioctl;
    o.roots = sources.roots<mmc::dev::SysRoots>();
    return o;
}

// --decode's arguments as one card: registers, and the cmd56 blocks given
// to the layout --layout or the CID names, one block per read argument.
mmc::health::RawCard decoded_card(const Options& o)
{
    mmc::health::RawCard card;
    card.name = "input";
    std::vector<std::vector<uint8_t>> blocks;
    bool ext_csd = false;
    for (const auto& arg : o.decode) {
        const auto eq = arg.find('=');
        if (eq == std::string::npos)
            throw mmc::cli::UsageError(fmt::format("--decode {}: expected KIND=HEX, e.g. cmd56=44530000...", arg));
        const std::string name = arg.substr(0, eq);
        const std::string text = mmc::cli::read_arg_or_file(arg.substr(eq + 1));
        if (name == "cmd56") {
            blocks.push_back(mmc::regs::parse_hex(text));
            continue;
        }
        const auto kind = mmc::regs::reg_kind_from_string(name);
        if (!kind)
            throw mmc::cli::UsageError(fmt::format("--decode: unknown kind '{}'; expected cid, csd, scr, ssr, ocr, ext_csd, "
                                                   "switch_status, status or cmd56", name));
        ext_csd = ext_csd || *kind == mmc::regs::RegKind::ext_csd;
        card.registers.push_back({*kind, mmc::regs::parse_register_hex(*kind, text), "input"});
    }
    card.family = o.card.value_or(ext_csd ? mmc::regs::CardFamily::mmc : mmc::regs::CardFamily::sd);
    if (blocks.empty()) return card;

    const auto layouts = mmc::health::layouts_to_read(mmc::regs::decode_card(card.family, card.registers), o.layout);
    if (layouts.empty())
        throw mmc::cli::UsageError("--decode cmd56: name the layout with --layout NAME, or give the card's CID (cid=HEX)");
    const auto& layout = *layouts.front();
    if (blocks.size() > layout.read_args.size())
        throw mmc::cli::UsageError(fmt::format("--decode cmd56: layout {} reads {} block(s), {} given", layout.name,
                                               layout.read_args.size(), blocks.size()));
    mmc::health::Cmd56Read read{std::string(layout.name), {}, {}};
    for (std::size_t i = 0; i < blocks.size(); ++i) read.blocks.push_back({layout.read_args[i], std::move(blocks[i])});
    card.cmd56.push_back(std::move(read));
    return card;
}

struct LiveCard {
    mmc::health::RawCard raw;
    std::string device;
    nlohmann::ordered_json identity;
};

LiveCard read_card(const mmc::dev::Card& card, const Options& o)
{
    LiveCard live;
    const auto id = mmc::dev::identify(card, o.roots, {o.use_ioctl});
    live.device = card.is_storage() ? card.device_path(o.roots) : "";
    live.identity = mmc::dev::identity_json(id.identity);
    live.raw.name = card.name;
    live.raw.family = mmc::dev::family_of(id.card.type).value_or(mmc::regs::CardFamily::sd);
    live.raw.registers = id.gathered.registers;
    live.raw.host = mmc::dev::read_host_write_facts(card, o.roots);
    // An eMMC's protected groups name themselves in the read-only reasons.
    auto raw_of = [&](mmc::regs::RegKind k) {
        for (const auto& r : id.gathered.registers)
            if (r.kind == k) return r.bytes;
        return std::vector<uint8_t>{};
    };
    if (const auto ext = raw_of(mmc::regs::RegKind::ext_csd); ext.size() == 512 && id.gathered.commands_work && !live.device.empty())
        try {
            mmc::tune::IoctlWpDevice wp(live.device, card.rca);
            std::vector<mmc::dev::ProtectedGroupRun> runs;
            for (const auto& r : mmc::tune::list_user_wp(wp, ext, raw_of(mmc::regs::RegKind::csd)).protected_runs)
                runs.push_back({r.offset, r.bytes, r.type});
            live.raw.host.user_wp_groups = runs;
        } catch (const std::exception&) {
            // Not answered: the reasons fall back to USER_WP's bits.
        }

    const auto layouts = mmc::health::layouts_to_read(id.registers, o.layout);
    if (layouts.empty()) return live;
    if (!id.gathered.commands_work || live.device.empty()) {
        for (const auto* l : layouts)
            live.raw.cmd56.push_back({std::string(l->name), {}, "not read: " + (id.gathered.commands_error.empty()
                                                                                     ? std::string("no card commands")
                                                                                     : id.gathered.commands_error)});
        return live;
    }
    try {
        mmc::dev::MmcChannel channel(live.device);
        live.raw.cmd56 = mmc::health::read_layouts(layouts, [&](const mmc::health::Layout& l, bool& stopped) {
            auto answer = mmc::dev::gen_cmd_exchange(channel, l.write_arg, l.read_args);
            stopped = answer.card_stopped;
            return mmc::health::Cmd56Read{std::string(l.name), std::move(answer.blocks), answer.error};
        });
    } catch (const std::system_error& e) {
        for (const auto* l : layouts) live.raw.cmd56.push_back({std::string(l->name), {}, e.what()});
    }
    return live;
}

} // namespace

int run(int argc, char** argv)
{
    Options o;
    std::vector<mmc::health::RawCard> raws;
    std::vector<std::string> devices;
    std::vector<std::optional<nlohmann::ordered_json>> identities;
    std::vector<std::optional<mmc::dev::Device>> canary_devices;
    mmc::cli::as_usage([&] {
        o = parse_options(argc, argv);
        if (!o.decode.empty()) raws.push_back(decoded_card(o));
    });
    if (o.from) {
        const std::string text = mmc::cli::in_context(
            "--from", [&] { return mmc::cli::read_input(*o.from, mmc::cli::register_input_cap, "raw health file"); });
        raws = mmc::cli::in_context(*o.from, [&] { return mmc::health::parse_raw_file(text); });
        if (raws.empty()) throw mmc::cli::Error(mmc::cli::ErrorKind::failure, fmt::format("{}: holds no card", *o.from));
    } else if (o.decode.empty()) {
        std::vector<mmc::dev::Card> cards;
        if (o.devices.empty()) {
            for (auto& c : mmc::dev::list_cards(o.roots))
                if (c.type != mmc::dev::CardType::sdio) cards.push_back(std::move(c));
            // For the metrics, a host without a card is an answer, not a
            // failure: the file says mmc_health_cards 0 and the removed
            // card's series go with the old file. A check still says
            // UNKNOWN, and a run for a person exits 1.
            if (cards.empty() && (!o.prometheus || o.nagios))
                throw mmc::cli::Error(mmc::cli::ErrorKind::failure, "no MMC/SD card found");
        }
        // With --canary, the block device each card's canary goes to; a
        // device that is no card (--any-device) is judged by its canary alone.
        std::vector<std::optional<mmc::dev::Device>> bare;
        for (const auto& name : o.devices) {
            if (o.canary.on) {
                auto d = canary_device(name, o.canary, o.roots);
                if (d.card) cards.push_back(*d.card);
                else bare.push_back(std::move(d));
                continue;
            }
            auto target = mmc::dev::resolve(name, o.roots); // its messages name the device as typed
            if (!target.card) throw mmc::cli::Error(mmc::cli::ErrorKind::failure, fmt::format("{}: no card in the slot", name));
            cards.push_back(*target.card);
        }
        for (const auto& c : cards) {
            auto live = read_card(c, o);
            if (o.canary.on) canary_devices.push_back(canary_device(live.device.empty() ? c.name : live.device, o.canary, o.roots));
            raws.push_back(std::move(live.raw));
            devices.push_back(live.device);
            identities.push_back(std::move(live.identity));
        }
        for (auto& d : bare) {
            mmc::health::RawCard raw;
            raw.name = d->name;
            raws.push_back(std::move(raw));
            devices.push_back(d->path);
            identities.emplace_back();
            canary_devices.push_back(std::move(d));
        }
    }
    devices.resize(raws.size());
    identities.resize(raws.size());
    canary_devices.resize(raws.size());

    std::vector<mmc::out::CardHealth> cards;
    for (std::size_t i = 0; i < raws.size(); ++i) {
        cards.push_back({raws[i].name, devices[i], identities[i], mmc::health::assess(mmc::health::input_of(raws[i]))});
        if (!canary_devices[i]) continue;
        if (auto c = run_device_canary(*canary_devices[i], o.canary, o.roots)) mmc::health::apply_canary(cards.back().report, *c);
    }

    if (o.save_raw)
        mmc::cli::write_output_file(*o.save_raw, mmc::health::raw_file_text(raws, tool, mmc::version));
    if (o.prometheus) mmc::cli::write_output_file(*o.prometheus, mmc::out::health_prometheus(cards));
    if (cards.empty()) mmc::cli::error(tool, fmt::format("no MMC/SD card found; {} says mmc_health_cards 0", *o.prometheus));

    mmc::health::Verdict worst = mmc::health::Verdict::healthy;
    for (const auto& c : cards)
        if (mmc::health::severity(c.report.judgement.verdict) > mmc::health::severity(worst)) worst = c.report.judgement.verdict;

    if (o.nagios) {
        std::vector<mmc::health::NagiosCard> checked;
        for (const auto& c : cards)
            checked.push_back({c.device.empty() ? c.name : std::filesystem::path(c.device).filename().string(), &c.report});
        const auto answer = mmc::health::nagios_check(checked, o.thresholds);
        fmt::print("{}\n", answer.line);
        return static_cast<int>(answer.state);
    }
    if (o.json) {
        nlohmann::ordered_json doc;
        doc["tool"] = tool;
        doc["version"] = mmc::version;
        doc["verdict"] = cards.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(to_string(worst));
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto& c : cards) list.push_back(mmc::out::health_json(c));
        doc["cards"] = list;
        mmc::cli::print_json(doc, tool);
    } else {
        const bool color = mmc::cli::use_color(STDOUT_FILENO);
        for (std::size_t i = 0; i < cards.size(); ++i) std::cout << (i ? "\n" : "") << mmc::out::health_text(cards[i], color);
    }
    for (const auto& c : cards)
        if (!c.report.notes.empty() && !o.layout && c.report.readings.empty()) {
            mmc::cli::error(tool, fmt::format("{}: {}; --layout NAME tries a vendor layout on purpose", c.name,
                                              c.report.notes.front()));
            break;
        }
    return mmc::health::exit_status(worst);
}

// Asked for a check's answer: --nagios before any "--", or run as
// check_mmc_health.
bool nagios_requested(int argc, char** argv)
{
    if (run_as_plugin(argv[0])) return true;
    for (int i = 1; i < argc && std::string_view(argv[i]) != "--"; ++i)
        if (std::string_view(argv[i]) == "--nagios") return true;
    return false;
}

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    if (!nagios_requested(argc, argv)) return mmc::cli::run_tool(tool, [&] { return run(argc, argv); });
    // A check that cannot run is UNKNOWN (exit 3) with why on its status
    // line, never the tool's 1 or 2, which Nagios would read as WARNING and
    // CRITICAL. The message also goes to stderr as usual.
    try {
        return run(argc, argv);
    } catch (const mmc::cli::Error& e) {
        mmc::cli::error(tool, mmc::cli::error_text(e));
        fmt::print("{}\n", mmc::health::nagios_unknown(mmc::cli::error_text(e)).line);
    } catch (const std::exception& e) {
        mmc::cli::error(tool, e.what());
        fmt::print("{}\n", mmc::health::nagios_unknown(e.what()).line);
    }
    return static_cast<int>(mmc::health::NagiosState::unknown);
}
