#include "canary.h"

#include "cli/cli.h"
#include "cli/confirm.h"
#include "cli/size.h"
#include "health/canary.h"
#include "health/canary_place.h"
#include "probe/verify_targets.h"

#include <fmt/format.h>
#include <random>
#include <unistd.h>

namespace mmc_health {

namespace cli = mmc::cli;
namespace dev = mmc::dev;
namespace health = mmc::health;
namespace probe = mmc::probe;

namespace {

// A sequence no earlier run left on the card: stale data must not pass as
// this run's.
uint64_t random_sequence()
{
    std::random_device rd;
    return (uint64_t{rd()} << 32) ^ rd() ^ static_cast<uint64_t>(::getpid());
}

dev::SafetyRoots safety_roots(const dev::SysRoots& roots)
{
    dev::SafetyRoots s;
    s.sysfs = roots.sysfs;
    return s;
}

cli::Error failure(const std::string& text) { return cli::Error(cli::ErrorKind::failure, text); }

health::CanaryResult file_canary(const dev::Device& d, const dev::SysRoots& roots)
{
    const auto place = health::canary_directory(d, safety_roots(roots));
    if (place.dir.empty() && !place.read_only_mount.empty()) {
        // Mounted, and only read-only: a card that turned read-only has its
        // file system remounted so (ext4's errors=remount-ro).
        health::CanaryResult c;
        c.mode = "file";
        c.where = place.read_only_mount;
        c.size = health::canary_default_bytes;
        c.sequence = 0;
        c.state = health::CanaryState::read_only;
        c.error = fmt::format("{}: every file system of {} is mounted read-only", place.read_only_mount, d.disk);
        return c;
    }
    if (place.dir.empty())
        throw failure(fmt::format("{}: no file system of {} is mounted to hold the canary; mount one, or name a raw "
                                  "region with --destructive --offset SIZE --size SIZE",
                                  d.typed, d.disk));
    const uint64_t sequence = random_sequence();
    try {
        probe::FileFill file(place.dir, health::canary_default_bytes, health::canary_default_bytes, "mmc-health-canary",
                             health::canary_default_bytes);
        auto c = health::run_canary(file, sequence);
        c.mode = "file";
        c.where = file.where(0).first.string();
        return c; // the file goes with `file`
    } catch (const std::system_error& e) {
        // The directory could not be written at all (EROFS): the file system
        // refuses writes.
        const int code = e.code().value();
        if (code != EROFS && code != EACCES && code != EPERM) throw failure(e.what());
        health::CanaryResult c;
        c.mode = "file";
        c.where = place.dir.string();
        c.size = health::canary_default_bytes;
        c.sequence = sequence;
        c.state = health::CanaryState::read_only;
        c.error = e.what();
        return c;
    } catch (const std::runtime_error& e) {
        throw failure(e.what());
    }
}

health::CanaryResult region_canary(const dev::Device& d, const CanaryOptions& o, const dev::SysRoots& roots)
{
    std::unique_ptr<probe::DeviceBlocks> io;
    try {
        io = std::make_unique<probe::DeviceBlocks>(d.path, false);
    } catch (const std::runtime_error& e) {
        throw failure(e.what());
    }
    const std::string problem = health::canary_region_problem(d, *o.offset, *o.size, io->block_size(), safety_roots(roots));
    if (!problem.empty())
        throw cli::Error(cli::ErrorKind::failure, fmt::format("{}: the canary's region (--offset {} --size {}): {}", d.typed,
                                                              *o.offset, *o.size, problem));
    const std::string plan = fmt::format("The canary writes {} at bytes {} to {} of {} ({}) on every run,\n"
                                         "destroying what is there.\n",
                                         cli::format_bytes(*o.size), *o.offset, *o.offset + *o.size, d.path,
                                         dev::describe_device(d));
    if (!o.yes) {
        if (!isatty(STDIN_FILENO))
            throw failure(fmt::format("{}: refusing to write the canary's region without confirmation: stdin is not a "
                                      "terminal; use --yes",
                                      d.typed));
        if (cli::confirm(plan, "write the canary", false) != cli::Confirmation::yes)
            throw failure("not confirmed; nothing was written");
    }
    probe::RegionVerifyTarget region(*io, *o.offset, *o.size);
    auto c = health::run_canary(region, random_sequence());
    c.mode = "region";
    c.where = d.path;
    c.offset = *o.offset;
    return c;
}

} // namespace

void check_canary_options(const CanaryOptions& o)
{
    if (!o.on && (o.destructive || o.offset || o.size || o.any_device || o.yes))
        throw cli::UsageError("--destructive, --offset, --size, --any-device and --yes only qualify --canary");
    if (o.destructive != (o.offset && o.size))
        throw cli::UsageError("--canary --destructive writes a raw region: give it with --offset SIZE and --size SIZE, all three");
    if (o.size && *o.size > health::canary_max_region_bytes)
        throw cli::UsageError(fmt::format("--size {}: the canary writes at most {}", *o.size,
                                          cli::format_bytes(health::canary_max_region_bytes)));
}

dev::Device canary_device(const std::string& typed, const CanaryOptions& o, const dev::SysRoots& roots)
{
    dev::ResolveOptions ro;
    ro.roots = roots;
    ro.any_device = o.any_device;
    dev::Device d = dev::resolve_device(typed, dev::Purpose::read, ro);
    d.require_allowed();
    if (!d.card && !d.is_reader_slot() && !o.any_device)
        throw dev::DeviceError(dev::DeviceError::Why::not_mmc, typed, "not an MMC/SD device: " + d.not_mmc,
                               cli::Remedy::any_device_write);
    return d;
}

health::CanaryResult run_device_canary(const dev::Device& d, const CanaryOptions& o, const dev::SysRoots& roots)
{
    return o.destructive ? region_canary(d, o, roots) : file_canary(d, roots);
}

} // namespace mmc_health
