// mmc-format: the SD Association's layout for a card, aligned to its
// allocation unit, and --check of an existing card or image. Thin: options,
// device safety and confirmation here; the layout, the parsers, the check
// and the mkfs runs in libmmc/format.
#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/identify.h"
#include "dev/resolver.h"
#include "erase/erase.h"
#include "cli/input.h"
#include "format/check_view.h"
#include "format/fdisk_text.h"
#include "format/disk_file.h"
#include "format/make_run.h"
#include "probe/au_measure.h"
#include "regs/card_facts.h"
#include "version.h"

#include <atomic>
#include <ctime>
#include <fmt/format.h>
#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr const char* tool = "mmc-format";

void usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} [options] DEVICE
 {0} --check [options] DEVICE|IMAGE
 {0} --check --fdisk-text FILE [options] [DISK]

Format an SD or microSD card the way the SD Association's File System
Specification lays it out: an MBR with the partition at the boundary unit,
FAT12/FAT16/FAT32/exFAT by capacity with the specification's cluster sizes,
the FAT and the data area aligned to the card's units. --check reads a card
or an image file and says whether its layout is aligned, and what each
misalignment costs the flash. DEVICE is /dev/mmcblk0, mmcblk0, mmc0 or
mmc0:4567; any block device (a loop device) with --any-device.

Options:
     --check           read the partition table and file systems and check
                       them against the card's unit and the SD layout
                       (read-only; an image file works too)
     --fdisk-text FILE  with --check: read the table from pasted fdisk -l
                       output ('-': standard input) instead of a card; DISK
                       names the disk in it when it lists several
     --au SIZE         the card's allocation unit (default: SSR AU_SIZE, the
                       eMMC erase group or sysfs preferred_erase_size)
     --au measure      measure the AU first, as mmc-probe geometry does
                       (read-only: a few thousand small reads)
     --fs-layout sd|ext4|f2fs  sd (default): the SD layout; ext4 (or
                       linux): one ext4 partition at the unit, stride and
                       stripe width of one unit; f2fs: one f2fs partition at
                       the unit, sections of one unit
     --volume-label TEXT  the file system's label (FAT: 11 characters)
     --erase-first     erase the whole card first, as mmc-erase does (verified)
 -y, --yes             do not ask for confirmation
 -n, --dry-run         print the plan and touch nothing
     --any-device      allow a block device that is not an MMC/SD card
 -J, --json            print JSON (see mmc-format(1))
 -h, --help            display this help
 -V, --version         display version

Examples:
 {0} --check /dev/mmcblk0
 {0} --check --au 8M raspios.img
 {0} --check --au 4M --fdisk-text posted.txt /dev/mmcblk0
 {0} -n /dev/mmcblk0
 {0} --volume-label CAMERA /dev/mmcblk0
 {0} --any-device --au 8M --yes /dev/loop0
)",
               tool);
}

struct Options {
    std::string device;
    bool check = false, yes = false, dry_run = false, json = false, any_device = false, erase_first = false;
    bool measure_au = false;
    std::optional<uint64_t> au;
    mmc::format::LayoutKind layout = mmc::format::LayoutKind::sd;
    std::string label;
    std::string fdisk_text; // --fdisk-text FILE: the table from fdisk -l's output; device then names a disk in it
};

Options parse_options(int argc, char** argv)
{
    enum { check = 256, au, fs_layout, volume_label, erase_first, any_device, fdisk_text };
    static const option longopts[] = {
        {"check", no_argument, nullptr, check},
        {"fdisk-text", required_argument, nullptr, fdisk_text},
        {"au", required_argument, nullptr, au},
        {"fs-layout", required_argument, nullptr, fs_layout},
        {"volume-label", required_argument, nullptr, volume_label},
        {"erase-first", no_argument, nullptr, erase_first},
        {"yes", no_argument, nullptr, 'y'},
        {"dry-run", no_argument, nullptr, 'n'},
        {"any-device", no_argument, nullptr, any_device},
        {"json", no_argument, nullptr, 'J'},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
        {nullptr, 0, nullptr, 0},
    };
    Options o;
    std::optional<std::string> au_given, layout_given;
    bool label_given = false;
    opterr = 0;
    int c;
    while ((c = mmc::cli::next_option(argc, argv, ":ynJhV", longopts)) != -1) {
        switch (c) {
        case check: o.check = true; break;
        case fdisk_text:
            if (!o.fdisk_text.empty()) throw mmc::cli::UsageError("--fdisk-text given twice; give one");
            o.fdisk_text = optarg;
            if (o.fdisk_text.empty()) throw mmc::cli::UsageError("--fdisk-text: an empty file name");
            break;
        case au:
            if (const auto bytes = mmc::cli::au_option(optarg, au_given)) o.au = *bytes;
            else o.measure_au = true;
            break;
        case fs_layout:
            if (layout_given) throw mmc::cli::UsageError(fmt::format("--fs-layout given twice ('{}' and '{}'); give one", *layout_given, optarg));
            layout_given = optarg;
            if (const auto kind = mmc::format::layout_from_name(optarg)) o.layout = *kind;
            else throw mmc::cli::UsageError(fmt::format("--fs-layout {}: expected sd, ext4 (or linux) or f2fs", optarg));
            break;
        case volume_label:
            if (label_given) throw mmc::cli::UsageError("--volume-label given twice; give one");
            label_given = true;
            o.label = optarg;
            break;
        case erase_first: o.erase_first = true; break;
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case any_device: o.any_device = true; break;
        case 'J': o.json = true; break;
        case 'h': usage(stdout); std::exit(mmc::cli::ok);
        case 'V': mmc::cli::print_version_and_exit(tool);
        default: mmc::cli::throw_getopt_error(c, argv);
        }
    }
    if (!o.fdisk_text.empty() && !o.check) throw mmc::cli::UsageError("--fdisk-text is what --check reads: add --check");
    if (!o.fdisk_text.empty() && o.measure_au)
        throw mmc::cli::UsageError("--au measure with --fdisk-text: there is no card to measure; give --au SIZE");
    if (optind >= argc && o.fdisk_text.empty()) throw mmc::cli::UsageError("no DEVICE given");
    if (optind < argc) o.device = argv[optind++];
    if (optind < argc) throw mmc::cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    if (o.check) {
        // What only writing means is a contradiction with a read-only check.
        for (const auto& [given, name] : {std::pair{o.yes, "--yes"}, {o.dry_run, "--dry-run"}, {o.erase_first, "--erase-first"},
                                          {layout_given.has_value(), "--fs-layout"}, {label_given, "--volume-label"}})
            if (given) throw mmc::cli::UsageError(fmt::format("{} with --check: the check writes nothing", name));
    }
    if (o.erase_first && o.dry_run) {
        // fine: the plan says it would erase first
    }
    return o;
}

void print_json(const nlohmann::ordered_json& body) { mmc::cli::print_tool_json(body, tool); }

// An image, read as a disk. A path outside /dev that names nothing is a
// missing image (an input file, exit 1 like every one), not a device.
bool is_regular_file(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) return S_ISREG(st.st_mode);
    const bool device_like = path.find('/') == std::string::npos || path.starts_with("/dev/");
    if (!device_like) mmc::cli::throw_unreadable(path, errno);
    return false;
}

// The card's unit from its identified record (SSR AU_SIZE, the eMMC erase
// group in use by regs' one rule, sysfs preferred_erase_size).
mmc::format::Unit card_unit(const mmc::dev::Identified& card)
{
    if (card.facts.au_bytes) return {*card.facts.au_bytes, "SSR AU_SIZE"};
    if (card.facts.family == mmc::regs::CardFamily::mmc)
        if (const auto group = mmc::regs::erase_group(card.registers); group && group->bytes > 512)
            return {group->bytes, std::string(group->source) + " erase group"};
    if (card.card.preferred_erase_size) return {card.card.preferred_erase_size, "sysfs preferred_erase_size"};
    return {};
}

// The device's card, identified once for the run (its unit, and the erase
// of --erase-first), with card commands as mmc-erase gathers them.
std::optional<mmc::dev::Identified> identify_card(const std::optional<mmc::dev::Device>& d)
{
    return d ? mmc::dev::identify(*d, mmc::dev::SysRoots{}, {true}) : std::nullopt;
}

// The unit for this run: --au, a measured AU, or the card's registers.
// The card is identified only when its registers decide the unit.
mmc::format::Unit unit_for(const Options& o, const std::optional<mmc::dev::Device>& d, const std::string& path,
                           std::optional<mmc::dev::Identified>& card)
{
    if (o.au) return {o.au, "--au"};
    if (o.measure_au) return {mmc::probe::measure_au(path, "nothing was written").bytes, "the read ladder (mmc-probe geometry)"};
    if (!card) card = identify_card(d);
    return card ? card_unit(*card) : mmc::format::Unit{};
}

// --check --fdisk-text: the table as fdisk -l printed it; the file
// systems are not in it, so only where each partition starts is checked.
int run_fdisk_text_check(const Options& o)
{
    const std::string text = mmc::cli::read_input(o.fdisk_text, 1 << 20, "fdisk -l output");
    const auto [name, result] = mmc::cli::in_context(o.fdisk_text, [&] {
        const auto disk = mmc::format::pick_fdisk_disk(mmc::format::parse_fdisk_text(text), o.device);
        const mmc::format::Unit unit = o.au ? mmc::format::Unit{o.au, "--au"} : mmc::format::Unit{};
        return std::pair{disk.name, mmc::format::check_table(disk.table, disk.sectors, unit, "fdisk -l's output")};
    });
    if (o.json)
        print_json(mmc::format::check_json(name, result));
    else
        fmt::print("{}", mmc::format::check_text(name, result));
    return mmc::cli::ok;
}

int run_check(const Options& o)
{
    if (!o.fdisk_text.empty()) return run_fdisk_text_check(o);
    std::optional<mmc::dev::Device> d;
    std::string path = o.device;
    if (!is_regular_file(o.device)) {
        mmc::dev::ResolveOptions ro;
        ro.any_device = true;
        d = mmc::dev::resolve_device(o.device, mmc::dev::Purpose::read, ro);
        path = d->disk_path; // the table is the disk's, whichever partition was named
    }
    std::optional<mmc::dev::Identified> card;
    const mmc::format::Unit unit = unit_for(o, d, path, card);
    const auto result = mmc::cli::in_context(o.device, [&] {
        mmc::format::DiskFile f(path);
        return mmc::format::check_layout(f.reader(), f.sectors(), unit);
    });
    if (o.json)
        print_json(mmc::format::check_json(o.device, result));
    else
        fmt::print("{}", mmc::format::check_text(o.device, result));
    return mmc::cli::ok;
}

// --erase-first: the whole card, as mmc-erase erases it (verified), from
// the run's one card record.
void erase_first(const Options& o, const std::optional<mmc::dev::Identified>& card, const mmc::format::Unit& unit)
{
    mmc::erase::Options eo;
    eo.any_device = o.any_device;
    eo.verify = mmc::erase::VerifyMode::sampled;
    if (unit.bytes) eo.au_bytes = unit.bytes, eo.au_source = unit.source;
    const auto rep = mmc::cli::in_context(o.device, [&] {
        const auto target = mmc::erase::device_to_erase(o.device, eo);
        return mmc::erase::execute(mmc::erase::prepare(target, card ? &*card : nullptr, mmc::erase::Range{},
                                                       mmc::erase::Method::automatic, eo),
                                   nullptr, mmc::cli::stop_requested());
    });
    if (rep.interrupted) throw mmc::cli::Error(mmc::cli::ErrorKind::interrupted, "interrupted while erasing; nothing was formatted");
    if (!rep.error.empty()) throw mmc::cli::Error(mmc::cli::ErrorKind::failure, fmt::format("{}: erase: {}", o.device, rep.error));
    if (rep.verify && rep.verify->result == mmc::erase::VerifyResult::fail)
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure, fmt::format("{}: the erase did not verify", o.device));
    if (!o.json)
        fmt::print("erased {} bytes ({}){}\n", rep.erased.length, rep.prepared.command,
                   rep.verify ? ", verified" : "");
}

int run_format(const Options& o)
{
    mmc::cli::install_stop_signals(mmc::cli::SecondSignal::ignored);
    std::optional<mmc::dev::Device> d;
    std::string path = o.device;
    if (!is_regular_file(o.device)) {
        mmc::dev::ResolveOptions ro;
        ro.any_device = o.any_device;
        d = mmc::dev::resolve_device(o.device, mmc::dev::Purpose::write, ro); // formatting writes: its remedy says so
        d->require_allowed();
        if (d->is_partition)
            throw mmc::cli::Error(mmc::cli::ErrorKind::failure,
                                  fmt::format("{}: a partition; mmc-format writes the whole card's table: name the disk ({})",
                                              o.device, d->disk_path));
        path = d->path;
    }
    std::optional<mmc::dev::Identified> card;
    const mmc::format::Unit unit = unit_for(o, d, path, card);
    const uint64_t sectors = mmc::cli::in_context(o.device, [&] { return mmc::format::DiskFile(path).sectors(); });
    mmc::format::MakeOptions mo;
    mo.layout = o.layout;
    mo.label = o.label;
    mo.unit_bytes = unit.bytes;
    mo.unit_source = unit.source;
    mo.volume_id = static_cast<uint32_t>(std::time(nullptr));
    const auto plan = mmc::cli::in_context(o.device, [&] { return mmc::format::make_plan(sectors, mo); });
    std::string text = mmc::format::plan_text(o.device, plan);
    if (o.erase_first) text += "erase:       the whole card first, verified (mmc-erase's path)\n";
    if (o.dry_run) {
        if (o.json) {
            print_json({{"device", o.device}, {"dry_run", true}, {"plan", mmc::format::plan_json(plan)},
                        {"unit_bytes", plan.unit_bytes}, {"unit_source", plan.unit_source}});
        } else {
            fmt::print("{}Dry run: nothing was written.\n", text);
        }
        return mmc::cli::ok;
    }
    const auto answer = mmc::cli::confirm(fmt::format("{}This destroys everything on {}.", text, o.device), "format", o.yes);
    if (answer == mmc::cli::Confirmation::no_terminal)
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure,
                              fmt::format("{}: refusing to format without confirmation: stdin is not a terminal; use --yes "
                                          "(or --dry-run to see the plan)",
                                          o.device));
    if (answer == mmc::cli::Confirmation::declined)
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure, "not confirmed; nothing was written");
    if (o.yes && !o.json) fmt::print("{}", text);

    if (o.erase_first) {
        if (!card) card = identify_card(d);
        erase_first(o, card, unit);
    }
    const auto report = mmc::cli::in_context(o.device, [&] { return mmc::format::make_filesystem(path, d.has_value(), plan); });
    if (o.json) {
        nlohmann::ordered_json j;
        j["device"] = o.device;
        j["plan"] = mmc::format::plan_json(plan);
        j["reserved_sectors_written"] = report.reserved_sectors;
        j["steps"] = report.steps;
        j["commands"] = report.commands;
        j["fsck"] = report.fsck;
        j["check"] = mmc::format::check_json(o.device, report.check);
        j["verdict"] = std::string(mmc::format::to_string(report.check.verdict));
        print_json(j);
    } else {
        for (const auto& s : report.steps) fmt::print("{}\n", s);
        fmt::print("fsck: {}\n{}", report.fsck, mmc::format::check_text(o.device, report.check));
    }
    if (report.check.verdict != mmc::format::Verdict::aligned)
        throw mmc::cli::Error(mmc::cli::ErrorKind::failure, fmt::format("{}: the new layout does not check aligned", o.device));
    return mmc::cli::ok;
}

} // namespace

int main(int argc, char** argv)
{
    mmc::cli::check_stdout_at_exit(tool);
    return mmc::cli::run_tool(tool, [&] {
        const Options o = parse_options(argc, argv);
        return o.check ? run_check(o) : run_format(o);
    });
}
