// mmc-tune emmc: options, the device or the pasted EXT_CSD, the
// confirmation and the write; the catalogue, the plan, the writes with
// their read-back, the configuration file and the views are libmmc/tune's.
#include "emmc.h"
#include "emmc_target.h"
#include "tool.h"

#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/device_sources.h"
#include "cli/file_out.h"
#include "cli/input.h"
#include "cli/json_out.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/resolver.h"
#include "regs/ext_csd_order.h"
#include "regs/hex.h"
#include "tune/apply.h"
#include "tune/catalogue.h"
#include "tune/config_file.h"
#include "tune/emmc_jobs.h"
#include "tune/emmc_extra.h"
#include "tune/plan.h"
#include "tune/user_wp_view.h"
#include "tune/view.h"
#include "version.h"

#include <algorithm>
#include <fmt/format.h>
#include <getopt.h>
#include <iostream>
#include <optional>
#include <tuple>
#include <unistd.h>

namespace mmc_tune {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
namespace tune = mmc::tune;
namespace fs = std::filesystem;

void emmc_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} emmc [options] DEVICE
 {0} emmc [options] --decode ext_csd=HEX|@FILE

Show an eMMC's configuration (no setting named), or change it: each
setting is checked against what the device says it supports and its
grouping, the plan (each EXT_CSD field, old -> new, and what it means) is
shown, and nothing is written without confirmation (or --yes). Writes are
CMD6 SWITCH commands through the kernel's MMC ioctl, read back field by
field. A one-time change needs --permanent as well. DEVICE is the eMMC:
/dev/mmcblk0, mmcblk0, mmc0, mmc0:0001.

Settings:
     --volatile-cache on|off  the device's volatile cache (CACHE_CTRL)
     --bkops auto|off|manual  background operations (BKOPS_EN); manual is one-time
     --boot-partition 1|2|user|none  what the boot ROM boots from (PARTITION_CONFIG)
     --boot-ack on|off        the boot acknowledge (PARTITION_CONFIG)
     --boot-bus WIDTH[,MODE][,retain|reset]  boot bus width 1, 4 or 8, mode
                              sdr, hs or ddr, kept after boot or not
                              (BOOT_BUS_CONDITIONS)
     --rst-n on|off           the RST_n signal, for good (RST_n_FUNCTION; one-time)
     --boot-wp power-on|permanent[,1|2]  write-protect both boot partitions
                              (or boot partition 1 or 2 alone) until the next
                              power cycle, or for good (BOOT_WP)
     --enhanced-area OFFSET,SIZE  an enhanced (pSLC) user area (one-time)
     --gp N,SIZE              general purpose partition N, 1 to 4 (one-time)
     --write-reliability PARTS  reliable write for user, gp1 ... gp4, comma
                              separated (WR_REL_SET; one-time)
     --sanitize               purge the unmapped blocks (SANITIZE_START), alone
     --sector-emulation on|off  512-byte emulation of a 4 KiB sector device
                              (USE_NATIVE_SECTOR; after power cycle)
     --extcsd-write OFFSET=VALUE  write one EXT_CSD byte no setting above
                              covers, as given (may be repeated)
     --user-wp temporary|power-on|permanent|none  protect the user area's
                              write protect groups from --offset for --size
                              (CMD28), or clear temporary protection (CMD29);
                              permanent is one-time; repeatable
     --offset SIZE            where the last --user-wp range starts (default 0)
     --size SIZE              how long the last --user-wp range is
     --boot-image 1=FILE|2=FILE  write FILE into boot partition 1 or 2, read it
                              back, force_ro put back as it was; repeatable
     --from-config FILE       the settings of a file written by --save, for a
                              device of the same model

Options:
     --permanent              mean the one-time changes asked for
     --save FILE              write the current configuration to FILE
 -d, --decode KIND=HEX        plan against a pasted EXT_CSD (ext_csd=HEX or
                              ext_csd=@FILE); nothing is written
 -y, --yes                    do not ask before writing
 -n, --dry-run                print the plan and write nothing
 -J, --json                   print JSON (see mmc-tune(1))
     --sysfs-root DIR         read sysfs from DIR (default /sys)
 -h, --help                   display this help
 -V, --version                display version

Examples:
 {0} emmc /dev/mmcblk0
 {0} emmc -n --boot-partition 1 --boot-ack on /dev/mmcblk0
 {0} emmc --permanent --gp 1,512M --enhanced-area 0,1G /dev/mmcblk0
 {0} emmc -n --decode ext_csd=@ext_csd.txt --volatile-cache off
 {0} emmc --boot-wp power-on,1 --boot-bus 8,retain /dev/mmcblk0
)",
               tool);
}

struct Options {
    std::optional<std::string> device;
    std::optional<std::string> ext_csd_text; // --decode ext_csd=
    tune::Request request;
    std::vector<std::string> given;          // the settings named, for "given twice"
    tune::EmmcJobs jobs;                           // --user-wp ranges, --boot-image files
    std::optional<std::string> save, from_config;
    bool yes = false, dry_run = false, json = false;
    dev::SysRoots roots;
    fs::path proc = "/proc";
};

enum EmmcOption { volatile_cache = 256, bkops, boot_partition, boot_ack, boot_bus, rst_n, boot_wp, enhanced_area, gp,
                  write_reliability, sanitize, permanent, partitioning_has_no_option, extcsd_write, sector_emulation,
                  save = 512, from_config, user_wp, wp_offset, wp_size, boot_image };
static_assert(bkops - volatile_cache == static_cast<int>(tune::Setting::bkops) &&
                  gp - volatile_cache == static_cast<int>(tune::Setting::gp) &&
                  permanent - volatile_cache == static_cast<int>(tune::Setting::permanent) &&
                  sector_emulation - volatile_cache == static_cast<int>(tune::Setting::sector_emulation),
              "the settings' getopt values follow tune::Setting's order");
// getopt's table: the one place the options are spelled. The settings'
// values follow tune::Setting's order from 256, so a setting finds its
// option by its value (long_name).
const std::vector<option>& emmc_options()
{
    static const auto longopts = cli::with_device_sources({
        {"volatile-cache", required_argument, nullptr, volatile_cache},
        {"bkops", required_argument, nullptr, bkops},
        {"boot-partition", required_argument, nullptr, boot_partition},
        {"boot-ack", required_argument, nullptr, boot_ack},
        {"boot-bus", required_argument, nullptr, boot_bus},
        {"rst-n", required_argument, nullptr, rst_n},
        {"boot-wp", required_argument, nullptr, boot_wp},
        {"enhanced-area", required_argument, nullptr, enhanced_area},
        {"gp", required_argument, nullptr, gp},
        {"write-reliability", required_argument, nullptr, write_reliability},
        {"sanitize", no_argument, nullptr, sanitize},
        {"extcsd-write", required_argument, nullptr, extcsd_write},
        {"sector-emulation", required_argument, nullptr, sector_emulation},
        {"permanent", no_argument, nullptr, permanent},
        {"save", required_argument, nullptr, save},
        {"from-config", required_argument, nullptr, from_config},
        {"user-wp", required_argument, nullptr, user_wp},
        {"offset", required_argument, nullptr, wp_offset},
        {"size", required_argument, nullptr, wp_size},
        {"boot-image", required_argument, nullptr, boot_image},
        {"decode", required_argument, nullptr, 'd'},
        {"yes", no_argument, nullptr, 'y'},
        {"dry-run", no_argument, nullptr, 'n'},
        {"json", no_argument, nullptr, 'J'},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    }, {.no_ioctl = false}); // it sends its own commands
    return longopts;
}

// The option that asks for each setting: the one place that names them
// (the library words by tune::Setting; its views and messages are named
// through setting_name).
const char* long_name(tune::Setting s)
{
    if (s == tune::Setting::partitioning) return ""; // the partitioning as a whole: no option
    const int value = volatile_cache + static_cast<int>(s);
    for (const auto& o : emmc_options())
        if (o.name && o.val == value) return o.name;
    return "";
}

// "--volatile-cache", "--gp 2", "--boot-partition/--boot-ack"; the
// partitioning as a whole, which no option asks for: "(partitioning)".
std::string setting_name(const tune::SettingName& n)
{
    if (n.setting == tune::Setting::partitioning) return "(partitioning)";
    std::string name = std::string("--") + long_name(n.setting);
    if (n.with) name += std::string("/--") + long_name(*n.with);
    if (n.partition) name += fmt::format(" {}", n.partition);
    return name;
}

// A size as it could have been typed: "0", "8M", "1G", "12345".
std::string typed_size(uint64_t b)
{
    for (const auto& [unit, suffix] : {std::pair<uint64_t, const char*>{uint64_t{1} << 30, "G"}, {uint64_t{1} << 20, "M"}, {1024, "K"}})
        if (b && b % unit == 0) return fmt::format("{}{}", b / unit, suffix);
    return std::to_string(b);
}

// The options that asked for a --user-wp range and a --boot-image.
tune::JobContext job_names(const tune::EmmcJobs& jobs, tune::JobContext c)
{
    c.names = setting_name;
    c.range_names = [&jobs](std::size_t i) {
        const auto& r = jobs.user_wp.at(i);
        return fmt::format("--user-wp {} --offset {} --size {}", tune::to_string(r.kind), typed_size(r.offset), typed_size(r.size));
    };
    c.area_names = [&jobs](int area) {
        for (const auto& b : jobs.boot_images)
            if (b.area == area) return fmt::format("--boot-image {}={}", area, b.file);
        return fmt::format("--boot-image {}", area);
    };
    c.tool = tool;
    return c;
}

// One value per setting: two would contradict.
void once(Options& o, const tune::SettingName& setting)
{
    const std::string name = setting_name(setting);
    if (std::find(o.given.begin(), o.given.end(), name) != o.given.end())
        throw cli::UsageError(fmt::format("{} given twice; give it once", name));
    o.given.push_back(name);
}

template <typename Parse>
auto setting(Parse&& parse)
{
    try {
        return parse();
    } catch (const tune::SettingError& e) {
        throw cli::UsageError(tune::named(e.what(), setting_name));
    }
}

Options parse_options(int argc, char** argv)
{
    using S = tune::Setting;
    Options o;
    cli::DeviceSources sources;
    auto& r = o.request;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = cli::next_option(argc, argv, ":d:ynJhV", emmc_options().data(), {"gp", "user-wp", "offset", "size", "boot-image", "extcsd-write"})) != -1) {
        const std::string arg = optarg ? optarg : "";
        switch (c) {
        case volatile_cache: once(o, S::volatile_cache); r.cache = setting([&] { return tune::parse_on_off(S::volatile_cache, arg); }); break;
        case bkops: once(o, S::bkops); r.bkops = setting([&] { return tune::parse_bkops(arg); }); break;
        case boot_partition: once(o, S::boot_partition); r.boot_partition = setting([&] { return tune::parse_boot_partition(arg); }); break;
        case boot_ack: once(o, S::boot_ack); r.boot_ack = setting([&] { return tune::parse_on_off(S::boot_ack, arg); }); break;
        case boot_bus: once(o, S::boot_bus); r.boot_bus = setting([&] { return tune::parse_boot_bus(arg); }); break;
        case rst_n: once(o, S::rst_n); r.rst_n = setting([&] { return tune::parse_on_off(S::rst_n, arg); }); break;
        case boot_wp: {
            once(o, S::boot_wp);
            std::tie(r.boot_wp, r.boot_wp_area) = setting([&] { return tune::parse_boot_wp_area(arg); });
            break;
        }
        case enhanced_area: once(o, S::enhanced_area); r.enhanced_area = setting([&] { return tune::parse_area(arg); }); break;
        case gp: {
            const auto [n, size] = setting([&] { return tune::parse_gp(arg); });
            once(o, tune::SettingName(S::gp, std::nullopt, n));
            r.gp[static_cast<std::size_t>(n - 1)] = size;
            break;
        }
        case write_reliability:
            once(o, S::write_reliability);
            r.write_reliability = setting([&] { return tune::parse_rel_parts(arg); });
            break;
        case sanitize: once(o, S::sanitize); r.sanitize = true; break;
        case extcsd_write: {
            // Repeated, one per byte (the planner refuses a byte given twice).
            if (r.extcsd_writes.empty()) o.given.push_back(setting_name(S::extcsd_write));
            r.extcsd_writes.push_back(setting([&] { return tune::parse_extcsd_write(arg); }));
            break;
        }
        case sector_emulation:
            once(o, S::sector_emulation);
            r.sector_emulation = setting([&] { return tune::parse_on_off(S::sector_emulation, arg); });
            break;
        case permanent: r.permanent = true; break;
        case save: o.save = arg; break;
        case from_config: o.from_config = arg; break;
        case user_wp: {
            const auto kind = tune::user_wp_kind(arg);
            if (!kind) throw cli::UsageError(fmt::format("--user-wp {}: expected temporary, power-on, permanent or none", arg));
            o.jobs.user_wp.push_back({*kind, 0, 0});
            break;
        }
        case wp_offset:
        case wp_size: {
            const char* name = c == wp_offset ? "--offset" : "--size";
            if (o.jobs.user_wp.empty()) throw cli::UsageError(fmt::format("{} belongs to a --user-wp range: give --user-wp first", name));
            auto& range = o.jobs.user_wp.back();
            (c == wp_offset ? range.offset : range.size) = cli::size_option(name, arg);
            break;
        }
        case boot_image:
            o.jobs.boot_images.push_back(cli::as_usage([&] {
                try {
                    return tune::parse_boot_image(arg);
                } catch (const std::invalid_argument& e) {
                    throw cli::UsageError(fmt::format("--boot-image {}", e.what()));
                }
            }));
            break;
        case 'd': {
            const auto eq = arg.find('=');
            const auto kind = eq == std::string::npos ? std::nullopt : mmc::regs::reg_kind_from_string(arg.substr(0, eq));
            if (kind != mmc::regs::RegKind::ext_csd)
                throw cli::UsageError(fmt::format("--decode {}: expected ext_csd=HEX or ext_csd=@FILE", arg));
            if (o.ext_csd_text) throw cli::UsageError("--decode given twice; give one EXT_CSD");
            o.ext_csd_text = cli::as_usage([&] { return cli::read_arg_or_file(arg.substr(eq + 1)); });
            break;
        }
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case 'J': o.json = true; break;
        case 'h': emmc_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv);
        }
    }
    o.roots = sources.roots(o.roots);
    if (optind < argc) o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    if (o.device && o.ext_csd_text) throw cli::UsageError("give a DEVICE or --decode, not both");
    if (!o.device && !o.ext_csd_text) throw cli::UsageError("no DEVICE given (or --decode ext_csd=HEX)");
    if (o.from_config && !o.given.empty()) throw cli::UsageError("give settings or --from-config, not both");
    for (const auto& r : o.jobs.user_wp)
        if (r.size == 0) throw cli::UsageError(fmt::format("--user-wp {}: give the range's --size (not 0)", tune::to_string(r.kind)));
    const bool settings = !o.given.empty() || o.from_config || !o.jobs.empty();
    if (o.save && settings) throw cli::UsageError("--save writes the configuration as it is: give it without settings");
    if (r.permanent && !settings) throw cli::UsageError("--permanent qualifies one-time settings: give one");
    return o;
}

void print_json(const nlohmann::ordered_json& body) { cli::print_tool_json(body, tool, "emmc"); }

// The pasted EXT_CSD, put in the modern byte order when it reads reversed.
std::vector<uint8_t> pasted_ext_csd(const std::string& text, std::vector<std::string>& notes)
{
    auto bytes = cli::as_usage([&] { return mmc::regs::parse_register_hex(mmc::regs::RegKind::ext_csd, text); });
    if (mmc::regs::looks_reversed(bytes)) {
        std::reverse(bytes.begin(), bytes.end());
        notes.push_back("the pasted EXT_CSD reads as an old kernel's byte-reversed dump; read reversed");
    }
    return bytes;
}

bool confirmed(const tune::Plan& plan, const std::string& where, bool yes)
{
    if (yes) return true;
    if (!isatty(STDIN_FILENO))
        throw cli::Error(cli::ErrorKind::failure,
                         fmt::format("{}: refusing to write without confirmation: stdin is not a terminal; use --yes (or "
                                     "--dry-run to see the plan)",
                                     where));
    const std::string question = plan.one_time        ? fmt::format("Some of this cannot be undone on {}.", where)
                                 : plan.destroys_data ? fmt::format("This destroys data on {} for good.", where)
                                                      : fmt::format("This changes the configuration of {}.", where);
    return cli::confirm(question, "write", false) == cli::Confirmation::yes;
}

} // namespace

int run_emmc(int argc, char** argv)
{
    Options o = parse_options(argc, argv);
    std::vector<std::string> notes;
    std::vector<uint8_t> ext_csd;
    std::optional<Target> target;
    tune::Model model;
    if (o.ext_csd_text) {
        ext_csd = pasted_ext_csd(*o.ext_csd_text, notes);
    } else {
        target = resolve_emmc(*o.device, o.roots, o.proc);
        ext_csd = cli::in_context(*o.device, [&] { return tune::IoctlDevice(target->device.disk_path, target->rca).read_ext_csd(); });
    }
    {
        std::string manfid, name;
        if (target) {
            manfid = dev::card_attr(*target->device.card, "manfid").value_or("");
            name = dev::card_attr(*target->device.card, "name").value_or("");
        }
        model = tune::model_of(ext_csd, manfid, name);
    }
    const std::string where = target ? target->device.disk_path : "the pasted EXT_CSD";

    tune::JobContext jobs;
    jobs.device = target ? &target->device : nullptr;
    jobs.rca = target ? target->rca : uint16_t{0};
    jobs.roots = o.roots;
    jobs.ext_csd = ext_csd;
    jobs.where = where;
    jobs.permanent = o.request.permanent;
    jobs.yes = o.yes;
    jobs.dry_run = o.dry_run;
    jobs.json = o.json;
    jobs = job_names(o.jobs, std::move(jobs));
    // No setting: the configuration as it is (and the file of it), with
    // the protected groups of the user area.
    if (o.given.empty() && !o.from_config && o.jobs.empty()) {
        const auto rows = tune::current_configuration(ext_csd);
        const auto wp = tune::read_user_wp(jobs);
        if (o.save) {
            const auto doc = tune::config_json(model, tune::request_from_device(ext_csd));
            cli::write_output_file(*o.save, cli::dump_json(doc).text + "\n");
        }
        if (o.json) {
            nlohmann::ordered_json body;
            body["device"] = target ? nlohmann::ordered_json(target->device.disk_path) : nlohmann::ordered_json();
            body["configuration"] = tune::configuration_json(rows, setting_name);
            body["user_wp"] = tune::user_wp_json(wp.listing, wp.error);
            body["notes"] = notes;
            if (o.save) body["saved"] = *o.save;
            print_json(body);
        } else {
            for (const auto& n : notes) fmt::print("Note: {}\n", n);
            fmt::print("{}", tune::configuration_text(rows, setting_name));
            if (target) fmt::print("\n{}", tune::user_wp_text(wp.listing, wp.error));
            if (o.save) fmt::print("Saved to {}\n", *o.save);
        }
        return cli::ok;
    }

    tune::Request request = o.request;
    if (o.from_config) {
        const std::string text = cli::read_input(*o.from_config, cli::json_input_cap, "configuration");
        request = cli::as_usage([&] { return tune::request_from_config(cli::parse_json_capped(text), model); });
        request.permanent = o.request.permanent;
    }
    tune::Plan plan = tune::make_plan(ext_csd, request);
    for (auto& n : notes) plan.notes.insert(plan.notes.begin(), n);

    const bool write = plan.applicable() && !o.dry_run && target;
    // A change that needs a power cycle or destroys data is never made
    // under a mounted filesystem.
    if (write && (plan.power_cycle || plan.destroys_data) && !target->device.verdict.allowed)
        plan.refuse({std::nullopt, fmt::format("{}: {}: a change that needs a power cycle or destroys data is not made to a "
                                                 "device in use",
                                                 target->device.typed, target->device.verdict.reason)});

    if (!o.jobs.empty()) return tune::run_emmc_jobs(o.jobs, std::move(plan), std::move(jobs));

    nlohmann::ordered_json body;
    body["device"] = target ? nlohmann::ordered_json(target->device.disk_path) : nlohmann::ordered_json();
    body.update(tune::plan_json(plan, setting_name));
    auto report = [&](bool applied, bool verified) {
        if (!o.json) return;
        body["applied"] = applied;
        body["verified"] = verified;
        print_json(body);
    };
    if (!o.json) fmt::print("{}", tune::plan_text(plan, setting_name));
    if (!plan.refusals.empty()) {
        report(false, false);
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: {} setting{} refused; nothing was written", where,
                                                              plan.refusals.size(), plan.refusals.size() == 1 ? "" : "s"));
    }
    if (plan.changes.empty()) {
        report(false, false);
        return cli::ok;
    }
    if (!target || o.dry_run) {
        if (!o.json) fmt::print("{}: nothing was written.\n", target ? "Dry run" : "Pasted EXT_CSD");
        report(false, false);
        return cli::ok;
    }
    // The writes are a few CMD6 each: once started they finish, so a
    // signal never leaves the partition settings written but not
    // completed. It is taken as a request, honoured before the first write.
    const auto& stop = cli::install_stop_signals(cli::SecondSignal::ignored);
    // A JSON plan comes at the end: a person asked to confirm sees it first.
    if (o.json && !o.yes) fmt::print(stderr, "{}", tune::plan_text(plan, setting_name));
    if (!confirmed(plan, where, o.yes)) throw cli::Error(cli::ErrorKind::failure, "not confirmed; nothing was written");
    if (stop.load()) throw cli::Error(cli::ErrorKind::interrupted, "interrupted before anything was written");

    tune::IoctlDevice device(target->device.disk_path, target->rca);
    try {
        const auto result = tune::apply_plan(device, plan, ext_csd);
        (void)result;
    } catch (const tune::ApplyError& e) {
        report(true, false);
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: {}", where, e.what()));
    }
    if (!o.json) {
        fmt::print("Written and read back: every field as planned.\n");
        if (plan.power_cycle) fmt::print("Power-cycle the device for the new configuration to take effect.\n");
    }
    report(true, true);
    return cli::ok;
}

} // namespace mmc_tune
