#include "scrub.h"
#include "tool.h"

#include "cli/cli.h"
#include "cli/device_sources.h"
#include "cli/json_out.h"
#include "cli/progress.h"
#include "cli/size.h"
#include "cli/stop_signal.h"
#include "dev/resolver.h"
#include "probe/read_timer.h"
#include "probe/scrub_view.h"

#include <fmt/format.h>
#include <getopt.h>
#include <memory>

namespace mmc_probe {

namespace {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
using namespace mmc::probe;

void scrub_usage(std::FILE* to)
{
    fmt::print(to, R"(Usage:
 {0} scrub [options] DEVICE

Read the whole card once, front to back in 1 MiB reads, each one timed:
per 16 MiB region the median and 99th percentile read time, the regions
reading at least twice as slowly as the card's own median (worn or aged
flash needs read retries long before a read fails), and every block that
cannot be read. Nothing is written.

Options:
     --any-device      allow a block device that is not an MMC/SD card
 -J, --json            print JSON (see mmc-probe(1), SCRUB)
     --no-ioctl        send no card commands (registers from sysfs)
     --sysfs-root DIR  read sysfs from DIR (default /sys)
 -h, --help            display this help
 -V, --version         display version

Exit status: 0 every block read, 16 read errors, 1 failure, 2 usage error,
130 interrupted.

Examples:
 {0} scrub /dev/mmcblk0
 {0} scrub -J mmc0 > surface.json
)",
               tool);
}

struct ScrubCommandOptions {
    std::string device;
    bool json = false, any_device = false;
    dev::SysRoots roots;
};

ScrubCommandOptions parse_scrub_command(int argc, char** argv)
{
    enum { any_device = 256 };
    static const auto longopts = cli::with_device_sources({
        {"any-device", no_argument, nullptr, any_device}, {"json", no_argument, nullptr, 'J'},
        {"help", no_argument, nullptr, 'h'},              {"version", no_argument, nullptr, 'V'},
    });
    ScrubCommandOptions o;
    cli::DeviceSources sources;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = cli::next_option(argc, argv, ":JhV", longopts.data())) != -1) {
        switch (c) {
        case any_device: o.any_device = true; break;
        case 'J': o.json = true; break;
        case 'h': scrub_usage(stdout); std::exit(cli::ok);
        case 'V': cli::print_version_and_exit(tool);
        default:
            if (!sources.take(c, optarg)) cli::throw_getopt_error(c, argv);
        }
    }
    o.roots = sources.roots(o.roots);
    if (optind >= argc) throw cli::UsageError("scrub: no DEVICE given");
    o.device = argv[optind++];
    if (optind < argc) throw cli::UsageError(fmt::format("unexpected argument '{}'; one DEVICE at a time", argv[optind]));
    return o;
}

} // namespace

int run_scrub(int argc, char** argv)
{
    const ScrubCommandOptions o = parse_scrub_command(argc, argv);
    dev::ResolveOptions ro;
    ro.roots = o.roots;
    ro.any_device = o.any_device;
    dev::Device d;
    try {
        d = dev::resolve_device(o.device, dev::Purpose::read, ro);
        d.require_allowed();
    } catch (const dev::DeviceError& e) {
        cli::error(tool, cli::error_text(e));
        return cli::failure;
    }
    std::unique_ptr<BlockReadTimer> timer;
    try {
        timer = std::make_unique<BlockReadTimer>(d.path);
    } catch (const std::exception& e) {
        cli::error(tool, e.what());
        return cli::failure;
    }
    cli::install_stop_signals(cli::SecondSignal::kills); // nothing to undo
    cli::ProgressLine line;
    ScrubOptions options;
    options.stop = &cli::stop_requested();
    options.progress = [&](uint64_t done, uint64_t total) {
        line.show(fmt::format("reading {} of {}", cli::format_bytes(done), cli::format_bytes(total)));
    };
    ScrubResult r;
    try {
        r = mmc::probe::run_scrub(*timer, options);
    } catch (const std::exception& e) {
        line.clear();
        cli::error(tool, fmt::format("{}: {}", d.path, e.what()));
        return cli::failure;
    }
    line.clear();
    if (o.json) cli::print_json(scrub_document(d.path, r), tool);
    else fmt::print("{}", scrub_text(d.path, r));
    if (r.interrupted) {
        cli::error(tool, fmt::format("{}: interrupted after {} read", d.path, cli::format_bytes(r.bytes_read)));
        return cli::interrupted;
    }
    return scrub_exit_status(r);
}

} // namespace mmc_probe
