// mmc-tune rpmb: options, the checks of the key and data files before the
// device is touched, the plan and confirmation before a write; the frames,
// MACs and the device I/O are libmmc/rpmb's.
#include "rpmb.h"
#include "emmc_target.h"
#include "tool.h"

#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/device_sources.h"
#include "cli/file_out.h"
#include "cli/json_out.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/mmc_ioctl.h"
#include "rpmb/inputs.h"
#include "rpmb/ioctl_transport.h"
#include "rpmb/operations.h"
#include "rpmb/view.h"

#include <filesystem>
#include <fmt/format.h>
#include <getopt.h>
#include <optional>
#include <unistd.h>

namespace mmc_tune {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
namespace rpmb = mmc::rpmb;
namespace fs = std::filesystem;

void rpmb_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} rpmb [options] DEVICE

Show an eMMC's replay protected memory block (RPMB): its size, whether the
authentication key is programmed, and the write counter. With a key file,
read or write its blocks: every request carries a MAC made with the key,
and every answer's MAC, nonce and counter are checked before it is used.
Through the kernel's RPMB device (/dev/mmcblkNrpmb). The key is never
printed; give it in a file, never on the command line.
DEVICE is the eMMC: /dev/mmcblk0, mmcblk0, mmc0, mmc0:0001.

Jobs:
     --read-block N[,COUNT]  read COUNT blocks (default 1) of 256 bytes from
                             block N into the --data file, MAC verified
     --write-block N         write the --data file (whole 256-byte blocks)
                             from block N, one authenticated write per block
     --program-key           program the --key-file key into the device:
                             once in its life (needs --permanent)

Options:
     --key-file FILE         the 32-byte authentication key
     --data FILE             the file read into or written from
     --permanent             mean the one-time key programming
 -y, --yes                   do not ask before writing
 -n, --dry-run               print the plan and write nothing
 -J, --json                  print JSON (see mmc-tune(1))
     --sysfs-root DIR        read sysfs from DIR (default /sys)
 -h, --help                  display this help
 -V, --version               display version

Examples:
 {0} rpmb /dev/mmcblk0
 {0} rpmb --key-file key.bin --read-block 0,4 --data out.bin /dev/mmcblk0
 {0} rpmb --key-file key.bin --program-key --permanent /dev/mmcblk0
)",
               tool);
}

enum RpmbOption { key_file = 256, read_block, write_block, program_key, data, permanent };

const std::vector<option>& rpmb_options()
{
    static const auto longopts = cli::with_device_sources({
        {"key-file", required_argument, nullptr, key_file},
        {"read-block", required_argument, nullptr, read_block},
        {"write-block", required_argument, nullptr, write_block},
        {"program-key", no_argument, nullptr, program_key},
        {"data", required_argument, nullptr, data},
        {"permanent", no_argument, nullptr, permanent},
        {"yes", no_argument, nullptr, 'y'},
        {"dry-run", no_argument, nullptr, 'n'},
        {"json", no_argument, nullptr, 'J'},
        {"help", no_argument, nullptr, 'h'},
        {"version", no_argument, nullptr, 'V'},
    }, {.no_ioctl = false}); // it sends its own commands
    return longopts;
}

enum class Job { show, read, write, program_key };

struct Options {
    std::optional<std::string> device, key_file, data;
    Job job = Job::show;
    rpmb::BlockRange range;
    bool permanent = false, yes = false, dry_run = false, json = false;
    dev::SysRoots roots;
    fs::path proc = "/proc";
};

void set_job(Options& o, Job job, const char* name)
{
    if (o.job != Job::show) throw cli::UsageError(fmt::format("--{} and another job given; one job at a time", name));
    o.job = job;
}

Options parse_options(int argc, char** argv)
{
    Options o;
    cli::DeviceSources sources;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = cli::next_option(argc, argv, ":ynJhV", rpmb_options().data())) != -1) {
        const std::string arg = optarg ? optarg : "";
        switch (c) {
        case key_file: o.key_file = arg; break;
        case read_block:
        case write_block:
            set_job(o, c == read_block ? Job::read : Job::write, c == read_block ? "read-block" : "write-block");
            o.range = cli::as_usage([&] { return rpmb::parse_block_range(arg); });
            if (c == write_block && arg.find(',') != std::string::npos)
                throw cli::UsageError(fmt::format("--write-block {}: give the first block only; the --data file's size says how many",
                                                  arg));
            break;
        case program_key: set_job(o, Job::program_key, "program-key"); break;
        case data: o.data = arg; break;
        case permanent: o.permanent = true; break;
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case 'J': o.json = true; break;
        case 'h': rpmb_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv);
        }
    }
    o.roots = sources.roots(o.roots);
    if (optind < argc) o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    if (!o.device) throw cli::UsageError("no DEVICE given");
    const bool blocks = o.job == Job::read || o.job == Job::write;
    if (blocks && !o.data) throw cli::UsageError(o.job == Job::read ? "--read-block needs --data FILE to read into"
                                                                    : "--write-block needs --data FILE to write from");
    if (!blocks && o.data) throw cli::UsageError("--data names the file of --read-block or --write-block: give one");
    if (o.job != Job::show && !o.key_file)
        throw cli::UsageError("this job needs the key: give --key-file FILE (32 bytes; never the key itself)");
    if (o.permanent && o.job != Job::program_key) throw cli::UsageError("--permanent qualifies --program-key: give it");
    return o;
}

void print_json(const nlohmann::ordered_json& body) { cli::print_tool_json(body, tool, "rpmb"); }

// The kernel names the RPMB character device after the eMMC's block device.
std::string rpmb_node(const Options& o, const Target& t) { return (o.roots.dev / (t.device.card->block + "rpmb")).string(); }

bool confirmed(const std::string& question, bool yes)
{
    if (yes) return true;
    if (!isatty(STDIN_FILENO))
        throw cli::Error(cli::ErrorKind::failure, "refusing to write without confirmation: stdin is not a terminal; use --yes "
                                                  "(or --dry-run to see the plan)");
    return cli::confirm(question, "write", false) == cli::Confirmation::yes;
}

// An RPMB refusal or an answer not believed: a failure naming the job.
template <typename Body>
auto rpmb_step(const std::string& where, Body&& body) -> decltype(body())
{
    try {
        return body();
    } catch (const rpmb::Error& e) {
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: {}", where, e.what()));
    }
}

} // namespace

int run_rpmb(int argc, char** argv)
{
    const Options o = parse_options(argc, argv);
    // The files first: a bad key or data file is refused before any device
    // is opened.
    std::optional<rpmb::Key> key;
    if (o.key_file) key = rpmb::read_key_file(*o.key_file);
    std::vector<uint8_t> to_write;
    if (o.job == Job::write) to_write = rpmb::read_data_file(*o.data, uint64_t{128} * 128 * 1024); // RPMB_SIZE_MULT's most

    const Target target = resolve_emmc(*o.device, o.roots, o.proc);
    const std::string& where = target.device.disk_path;
    rpmb::State state;
    state.device = where;
    state.rpmb_device = rpmb_node(o, target);
    if (!fs::exists(state.rpmb_device))
        throw cli::Error(cli::ErrorKind::failure,
                         fmt::format("{}: no RPMB: {} does not exist (the kernel makes it for an eMMC that has one)", where,
                                     state.rpmb_device));
    const auto ext_csd = cli::in_context(where, [&] { return dev::MmcChannel(where).mmc_ext_csd(); });
    state.size_bytes = rpmb::rpmb_size_bytes(ext_csd);
    if (state.size_bytes == 0)
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: no RPMB partition (EXT_CSD RPMB_SIZE_MULT [168] is 0)", where));
    if (o.job == Job::read || o.job == Job::write) {
        rpmb::BlockRange range = o.range;
        if (o.job == Job::write) range.count = static_cast<uint32_t>(to_write.size() / rpmb::block_bytes);
        cli::as_usage([&] { rpmb::check_range(range, state.size_bytes); });
    }

    rpmb::IoctlTransport device = cli::in_context(state.rpmb_device, [&] { return rpmb::IoctlTransport(state.rpmb_device); });
    // The key checks the counter's MAC only when asked for the state: a write
    // under a wrong key is refused by the device itself (authentication
    // failure), a read by the MAC of its data.
    state.key_given = key.has_value() && o.job == Job::show;
    state.counter = rpmb_step(state.rpmb_device, [&] {
        return rpmb::read_counter(device, rpmb::random_nonce(), state.key_given ? &*key : nullptr);
    });

    nlohmann::ordered_json body = rpmb::state_json(state);
    if (o.job == Job::show) {
        if (o.json) print_json(body);
        else fmt::print("{}", rpmb::state_text(state));
        return cli::ok;
    }
    if (o.job != Job::program_key && !state.counter.key_programmed)
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: no key is programmed: nothing to authenticate with; "
                                                              "program one with --program-key --permanent",
                                                              where));

    if (o.job == Job::read) {
        const auto bytes = rpmb_step(state.rpmb_device, [&] {
            return rpmb::read_blocks(device, *key, static_cast<uint16_t>(o.range.first), static_cast<uint16_t>(o.range.count),
                                     rpmb::random_nonce);
        });
        cli::write_output_file(*o.data, std::string(bytes.begin(), bytes.end()));
        body["read"] = {{"first_block", o.range.first}, {"blocks", o.range.count}, {"file", *o.data}, {"mac_verified", true}};
        if (o.json) print_json(body);
        else fmt::print("Read blocks {} to {} ({}) into {}: MAC verified.\n", o.range.first, o.range.first + o.range.count - 1,
                        cli::format_bytes_exact(bytes.size()), *o.data);
        return cli::ok;
    }

    // The writes: a plan first, then consent.
    std::string plan;
    if (o.job == Job::program_key) {
        if (state.counter.key_programmed)
            throw cli::Error(cli::ErrorKind::failure,
                             fmt::format("{}: a key is already programmed; it can never be changed", where));
        plan = fmt::format("Plan for {}:\n  program the RPMB authentication key from {}\n"
                           "  This can never be changed or undone: the device keeps this key for its whole life, and\n"
                           "  every authenticated read and write needs it. Keep the key file safe.\n",
                           where, *o.key_file);
    } else {
        const auto blocks = to_write.size() / rpmb::block_bytes;
        plan = fmt::format("Plan for {}:\n  write {} ({} block{}) from {} to RPMB blocks {} to {}\n"
                           "  write counter {} -> {} (one authenticated write per block; the counter never goes back)\n",
                           where, cli::format_bytes_exact(to_write.size()), blocks, blocks == 1 ? "" : "s", *o.data,
                           o.range.first, o.range.first + blocks - 1, state.counter.write_counter,
                           uint64_t{state.counter.write_counter} + blocks);
    }
    body["plan"] = plan;
    if (!o.json || !o.yes) fmt::print(o.json ? stderr : stdout, "{}", plan);
    if (o.job == Job::program_key && !o.permanent) {
        if (o.json) print_json(body);
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: programming the key is one-time: give --permanent to "
                                                              "mean it; nothing was written",
                                                              where));
    }
    if (o.dry_run) {
        if (o.json) {
            body["applied"] = false;
            print_json(body);
        } else {
            fmt::print("Dry run: nothing was written.\n");
        }
        return cli::ok;
    }
    const auto& stop = cli::install_stop_signals(cli::SecondSignal::ignored);
    const std::string question = o.job == Job::program_key ? fmt::format("The key can never be changed on {}.", where)
                                                           : fmt::format("This writes the RPMB of {}.", where);
    if (!confirmed(question, o.yes)) throw cli::Error(cli::ErrorKind::failure, "not confirmed; nothing was written");
    if (stop.load()) throw cli::Error(cli::ErrorKind::interrupted, "interrupted before anything was written");

    if (o.job == Job::program_key) {
        rpmb_step(state.rpmb_device, [&] { rpmb::program_key(device, *key); });
        // Read back: the counter now answers under the new key.
        const auto after = rpmb_step(state.rpmb_device, [&] { return rpmb::read_counter(device, rpmb::random_nonce(), &*key); });
        body["key_programmed"] = after.key_programmed;
        body["write_counter"] = after.write_counter;
        body["mac_verified"] = after.mac_verified;
        body["applied"] = true;
        if (o.json) print_json(body);
        else fmt::print("Key programmed; the write counter ({}) answers under it.\n", after.write_counter);
        return cli::ok;
    }
    uint32_t counter = state.counter.write_counter;
    std::size_t written = 0;
    for (; written < to_write.size() / rpmb::block_bytes; ++written) {
        // A block's write is one transaction: a signal ends the job between
        // blocks, never inside one.
        if (stop.load()) break;
        const auto block = std::span<const uint8_t, rpmb::block_bytes>(to_write.data() + written * rpmb::block_bytes,
                                                                       rpmb::block_bytes);
        const auto address = static_cast<uint16_t>(o.range.first + written);
        counter = rpmb_step(state.rpmb_device, [&] { return rpmb::write_block(device, *key, address, block, counter); });
    }
    body["written"] = {{"first_block", o.range.first}, {"blocks", written}, {"file", *o.data}};
    body["write_counter"] = counter;
    body["applied"] = true;
    if (written * rpmb::block_bytes < to_write.size()) {
        body["interrupted"] = true;
        if (o.json) print_json(body);
        throw cli::Error(cli::ErrorKind::interrupted,
                         fmt::format("interrupted after {} of {} blocks", written, to_write.size() / rpmb::block_bytes));
    }
    if (o.json) print_json(body);
    else fmt::print("Written: {} block{}, each acknowledged under the key; the write counter is now {}.\n", written,
                    written == 1 ? "" : "s", counter);
    return cli::ok;
}

} // namespace mmc_tune
