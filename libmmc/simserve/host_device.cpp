#include "simserve/host_device.h"

#include "cli/input.h"
#include "cli/stop_signal.h"
#include "dev/block_queue.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace mmc::simserve {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

void check_host_can_serve()
{
    if (geteuid() != 0)
        throw std::runtime_error("serving a simulated card needs root (losetup and FUSE mounts); run it with sudo");
    for (const char* dev : {"/dev/loop-control", "/dev/fuse"})
        if (access(dev, R_OK | W_OK) != 0)
            throw std::runtime_error(fmt::format("{}: {} (the kernel needs loop and FUSE)", dev, std::strerror(errno)));
    const struct {
        const char* program;
        const char* package;
    } needed[] = {{"nbdkit", "nbdkit"}, {"nbdfuse", "libnbd-bin"}, {"losetup", "mount"}, {"fusermount3", "fuse3"}};
    for (const auto& n : needed)
        if (cli::find_program(n.program).empty())
            throw std::runtime_error(
                fmt::format("{}: not found (install Debian's {}; scripts/install-deps installs everything)", n.program, n.package));
}

namespace {

// A private directory for the socket, the mount point, the card and the logs.
// Unix socket paths are limited to 108 bytes, so a long TMPDIR is not used.
fs::path make_private_dir()
{
    const char* tmpdir = std::getenv("TMPDIR");
    std::string pattern = fmt::format("{}/mmc-sim.XXXXXX", tmpdir && *tmpdir && std::strlen(tmpdir) < 60 ? tmpdir : "/tmp");
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error(fmt::format("{}: cannot create a private directory: {}", pattern, std::strerror(errno)));
    return pattern;
}

std::string read_first_line(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

// What a helper said in its log file: its last lines.
std::string log_tail(const fs::path& log, std::size_t lines = 3)
{
    std::ifstream in(log);
    std::ostringstream text;
    text << in.rdbuf();
    return cli::last_lines(text.str(), lines);
}

// Waits until FILE holds a line (a helper writes its pidfile when it is
// ready); fails early when the helper is gone or a stop signal came.
void wait_for_pidfile(const fs::path& file, const std::string& what, cli::Child& child, const fs::path& log)
{
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    while (read_first_line(file).empty()) {
        if (cli::stop_requested()) throw std::runtime_error("interrupted while starting");
        if (child.wait_for(0ms)) {
            const auto said = log_tail(log);
            throw std::runtime_error(fmt::format("{} exited before it was ready{}{}", what, said.empty() ? "" : ": ", said));
        }
        if (std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error(fmt::format("{} was not ready after 20 s: {}", what, log_tail(log)));
        std::this_thread::sleep_for(5ms);
    }
}

// A helper's output goes to its log file in the private directory; it reads nothing.
cli::SpawnOptions logged_to(const fs::path& log, bool own_process_group = false, const fs::path& output = "/dev/null")
{
    cli::SpawnOptions options;
    options.in = cli::Redirect::null();
    options.out = cli::Redirect::to_file(output);
    options.err = cli::Redirect::to_file(log);
    options.own_process_group = own_process_group;
    return options;
}

bool is_mounted(const fs::path& mountpoint)
{
    std::ifstream mounts("/proc/mounts");
    for (std::string device, dir, rest; mounts >> device >> dir && std::getline(mounts, rest);)
        if (dir == mountpoint.string()) return true;
    return false;
}

} // namespace

HostDevice::HostDevice(const sim::Params& params, const fs::path& plugin, dev::SysRoots roots) : roots_(std::move(roots))
{
    try {
        build(params, plugin);
    } catch (...) {
        stop();
        throw;
    }
}

HostDevice::~HostDevice()
{
    try {
        stop();
    } catch (...) {
    }
}

void HostDevice::build(const sim::Params& params, const fs::path& plugin)
{
    dir_ = make_private_dir();
    std::ofstream(dir_ / "card.json") << sim::to_json(params).dump(2) << '\n';
    start_nbdkit(plugin);
    start_nbdfuse();
    attach_loop();
}

void HostDevice::start_nbdkit(const fs::path& plugin)
{
    // Foreground and in a process group of its own: the terminal's Ctrl-C
    // reaches the command, and the server stays up until we stop it.
    // --exit-with-parent: it does not outlive us even if we are killed.
    const auto log = dir_ / "nbdkit.log";
    const std::vector<std::string> argv = {"nbdkit", "--foreground", "--exit-with-parent", "--unix", (dir_ / "nbd.sock").string(),
                                           "--pidfile", (dir_ / "nbdkit.pid").string(), plugin.string(),
                                           "card=" + (dir_ / "card.json").string(), "stats=" + live_stats().string()};
    nbdkit_.emplace(argv, logged_to(log, true));
    wait_for_pidfile(dir_ / "nbdkit.pid", "nbdkit", *nbdkit_, log);
}

void HostDevice::start_nbdfuse()
{
    // nbdfuse stays in the foreground and writes its pidfile once it serves;
    // it exits when the mount point is unmounted.
    mountpoint_ = dir_ / "mnt";
    fs::create_directory(mountpoint_);
    const auto log = dir_ / "nbdfuse.log";
    const std::vector<std::string> argv = {"nbdfuse", "--connections", "1", "-s", "--pidfile", (dir_ / "nbdfuse.pid").string(),
                                           (mountpoint_ / "card").string(), "--unix", (dir_ / "nbd.sock").string()};
    nbdfuse_.emplace(argv, logged_to(log, true));
    wait_for_pidfile(dir_ / "nbdfuse.pid", "nbdfuse", *nbdfuse_, log);
}

void HostDevice::attach_loop()
{
    const auto log = dir_ / "losetup.log";
    const int status = cli::run({"losetup", "--direct-io=on", "--find", "--show", (mountpoint_ / "card").string()},
                                logged_to(log, false, dir_ / "loop.dev"));
    device_ = read_first_line(dir_ / "loop.dev");
    if (status != 0 || device_.empty())
        throw std::runtime_error(fmt::format("losetup failed (exit {}): {}", status, log_tail(log)));
    // losetup only warns when the kernel refuses direct I/O; the loop device
    // would then read through the page cache, and a cached read never
    // reaches the card's clock: every timing would be wrong, silently.
    const auto dio = dev::loop_direct_io(fs::path(device_).filename().string(), roots_);
    if (dio.value.value_or("") != "1")
        throw std::runtime_error(fmt::format("{}: the kernel did not turn on direct I/O for the card's file ({} reads '{}'); "
                                             "reads would come from the page cache, not the simulated card: {}",
                                             device_, dio.path.string(), dio.value.value_or(""), log_tail(log)));
}

nlohmann::json HostDevice::stop()
{
    if (dir_.empty()) return nullptr;
    if (!device_.empty()) {
        const auto log = dir_ / "losetup.log";
        if (cli::run({"losetup", "--detach", device_}, logged_to(log)) != 0)
            warnings_.push_back(fmt::format("{}: could not detach: {}", device_, log_tail(log, 1)));
        device_.clear();
    }
    if (!mountpoint_.empty() && is_mounted(mountpoint_)) {
        const auto log = dir_ / "fusermount.log";
        if (cli::run({"fusermount3", "-u", mountpoint_.string()}, logged_to(log)) != 0) {
            // Something still holds the file (a loop device that could not be
            // detached): unmount lazily so that nothing is left in the mount table.
            warnings_.push_back(fmt::format("{}: busy, unmounted lazily", mountpoint_.string()));
            cli::run({"fusermount3", "-u", "-z", mountpoint_.string()}, logged_to(log));
        }
    }
    if (nbdfuse_) {
        if (!nbdfuse_->wait_or_kill(10s)) warnings_.push_back("nbdfuse did not exit after the unmount; killed");
        nbdfuse_.reset();
    }
    if (nbdkit_) {
        nbdkit_->send(SIGTERM); // nbdkit unloads the plugin, which writes the final counters
        if (!nbdkit_->wait_or_kill(10s)) warnings_.push_back("nbdkit did not stop on SIGTERM; killed (counters lost)");
        nbdkit_.reset();
    }
    nlohmann::json counters = nullptr;
    std::error_code missing;
    if (fs::exists(live_stats(), missing)) {
        try {
            counters = cli::parse_json_capped(cli::read_file_capped(live_stats(), cli::json_input_cap, "counters file"));
        } catch (const nlohmann::json::exception&) {
            warnings_.push_back("the plugin's counters file is not JSON");
        } catch (const cli::InputError& e) {
            warnings_.push_back(fmt::format("the plugin's counters file: {}", e.what()));
        }
    }
    std::error_code ec;
    if (mountpoint_.empty() || !is_mounted(mountpoint_))
        fs::remove_all(dir_, ec);
    else
        warnings_.push_back(fmt::format("{}: still mounted, left in place", mountpoint_.string()));
    dir_.clear();
    return counters;
}

} // namespace mmc::simserve
