#include "verify.h"
#include "tool.h"
#include "whole_card.h"

#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/device_sources.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/resolver.h"
#include "probe/capacity_view.h"
#include "probe/verify_targets.h"
#include "probe/verify_view.h"

#include <fmt/format.h>
#include <getopt.h>
#include <memory>
#include <unistd.h>

namespace mmc_probe {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
using namespace mmc::probe;

void verify_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} verify [options] DEVICE
 {0} verify [options] --file-system DIR

Write every sector with a pattern naming its own address and this run, read
it all back past the page cache and check it, as f3write and f3read do.
Names the verdict (ok, fake, lost writes, corrupt, read errors), the first
bad address and its kind, and the real capacity.
On a DEVICE (a whole card) everything on it is destroyed: a plan first, then
a confirmation. With --file-system the free space of the file system
mounted at DIR is filled with files of its own, checked and removed (Ctrl-C
removes them too); nothing else is touched.

Options:
     --file-system DIR  verify the free space under DIR instead of a device
 -y, --yes              do not ask for confirmation
 -n, --dry-run          print the plan and touch nothing
     --any-device       allow a block device that is not an MMC/SD card
 -J, --json             print JSON (see mmc-probe(1), VERIFY)
     --no-ioctl         send no card commands (registers from sysfs)
     --sysfs-root DIR   read sysfs from DIR (default /sys)
 -h, --help             display this help
 -V, --version          display version

Exit status: 0 ok, 10 fake, 14 lost writes, 15 corrupt, 16 read errors,
1 failure, 2 usage error, 130 interrupted.

Examples:
 {0} verify --dry-run /dev/mmcblk0
 {0} verify --file-system /media/card
)",
               tool);
}

struct VerifyCommandOptions {
    std::string device, directory;
    bool yes = false, dry_run = false, json = false, any_device = false;
    dev::SysRoots roots;
};

VerifyCommandOptions parse_verify_command(int argc, char** argv)
{
    enum { file_system = 256, any_device };
    static const auto longopts = cli::with_device_sources({
        {"file-system", required_argument, nullptr, file_system},
        {"yes", no_argument, nullptr, 'y'},               {"dry-run", no_argument, nullptr, 'n'},
        {"any-device", no_argument, nullptr, any_device}, {"json", no_argument, nullptr, 'J'},
        {"help", no_argument, nullptr, 'h'},              {"version", no_argument, nullptr, 'V'},
    });
    VerifyCommandOptions o;
    cli::DeviceSources sources;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = cli::next_option(argc, argv, ":ynJhV", longopts.data())) != -1) {
        switch (c) {
        case file_system: o.directory = optarg; break;
        case 'y': o.yes = true; break;
        case 'n': o.dry_run = true; break;
        case any_device: o.any_device = true; break;
        case 'J': o.json = true; break;
        case 'h': verify_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv);
        }
    }
    o.roots = sources.roots(o.roots);
    if (!o.directory.empty()) {
        if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}': --file-system verifies a directory, not a DEVICE", argv[optind]));
        return o;
    }
    if (optind >= argc) throw cli::UsageError("verify: no DEVICE given (or --file-system DIR)");
    o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    return o;
}

std::string progress_text(const VerifyProgress& p)
{
    return fmt::format("{} {} of {} ({:.0f}%)", p.phase == VerifyPhase::write ? "writing" : "verifying", cli::format_bytes(p.done),
                       cli::format_bytes(p.total), p.total ? 100.0 * double(p.done) / double(p.total) : 100.0);
}

// Asks unless --yes; false (with the message said) when the run must not start.
bool confirmed(const VerifyCommandOptions& o, const VerifyWhere& where, uint64_t bytes, int& status)
{
    const std::string plan = verify_plan_text(where, bytes);
    if (o.yes) {
        if (!o.json) {
            fmt::print("{}\n", plan);
            std::fflush(stdout);
        }
        return true;
    }
    if (!isatty(STDIN_FILENO)) {
        cli::error(tool, fmt::format("{}: refusing to write without confirmation: stdin is not a terminal; use --yes "
                                     "(or --dry-run to see the plan)",
                                     where.target));
        status = cli::failure;
        return false;
    }
    const bool yes = cli::confirm(plan, "verify", false) == cli::Confirmation::yes;
    if (cli::stop_requested().load()) {
        fmt::print(stderr, "\n");
        cli::error(tool, "interrupted before anything was written");
        status = cli::interrupted;
        return false;
    }
    if (!yes) {
        cli::error(tool, "not confirmed; nothing was written");
        status = cli::failure;
        return false;
    }
    return true;
}

int run_and_report(const VerifyCommandOptions& o, const VerifyWhere& where, VerifyTarget& target, VerifyOptions options)
{
    cli::ProgressLine line;
    options.pass = mmc::probe::random_pass();
    options.stop = &cli::stop_requested();
    options.progress = [&](const VerifyProgress& p) { line.show(progress_text(p)); };
    VerifyResult r;
    try {
        r = mmc::probe::run_verify(target, options);
    } catch (const std::exception& e) {
        line.clear();
        cli::error(tool, fmt::format("{}: {}", where.target, e.what()));
        return cli::failure;
    }
    line.clear();
    if (o.json) cli::print_json(verify_document(where, r), tool);
    else if (!r.interrupted) fmt::print("{}", verify_result_text(where, r));
    if (r.interrupted) {
        cli::error(tool, fmt::format("{}: interrupted after {} written and {} verified{}", where.target,
                                     cli::format_bytes(r.bytes_written), cli::format_bytes(r.bytes_verified),
                                     where.file_system ? "; our files are removed" : ""));
        return cli::interrupted;
    }
    return verify_exit_status(r.verdict);
}

int verify_file_system(const VerifyCommandOptions& o)
{
    const VerifyWhere where{o.directory, true};
    std::unique_ptr<FileFill> fill;
    try {
        fill = std::make_unique<FileFill>(o.directory, 0);
    } catch (const std::exception& e) {
        cli::error(tool, e.what());
        return cli::failure;
    }
    if (o.dry_run) {
        if (o.json) cli::print_json(verify_dry_run_document(where, fill->size()), tool);
        else fmt::print("{}Dry run: nothing was written.\n", verify_plan_text(where, fill->size()));
        return cli::ok;
    }
    // Our files are removed whatever happens: a second signal is ignored too.
    cli::install_stop_signals();
    VerifyOptions options;
    options.descending = false; // a file system places files where it likes: fill it in order
    const int status = run_and_report(o, where, *fill, options);
    fill->remove_files();
    return status;
}

int verify_device(const VerifyCommandOptions& o)
{
    int refused = cli::failure;
    const auto card = resolve_whole_card(o.device, o.any_device, o.roots, refused);
    if (!card) return refused;
    const dev::Device& d = *card;
    const VerifyWhere where{d.path, false};
    std::unique_ptr<DeviceBlocks> io;
    try {
        io = std::make_unique<DeviceBlocks>(d.path);
    } catch (const std::exception& e) {
        cli::error(tool, e.what());
        return cli::failure;
    }
    DeviceVerifyTarget target(*io);
    if (o.dry_run) {
        if (o.json) cli::print_json(verify_dry_run_document(where, target.size()), tool);
        else fmt::print("{}Dry run: nothing was written.\n", verify_plan_text(where, target.size()));
        return cli::ok;
    }
    cli::install_stop_signals(cli::SecondSignal::kills); // nothing to put back: a second Ctrl-C ends it at once
    int status = cli::ok;
    if (!confirmed(o, where, target.size(), status)) return status;
    return run_and_report(o, where, target, VerifyOptions{});
}

} // namespace

int run_verify(int argc, char** argv)
{
    const VerifyCommandOptions o = parse_verify_command(argc, argv);
    return o.directory.empty() ? verify_device(o) : verify_file_system(o);
}

} // namespace mmc_probe
