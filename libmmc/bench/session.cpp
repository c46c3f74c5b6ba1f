#include "bench/session.h"

#include "bench/calibration.h"
#include "bench/engines/engine.h"
#include "bench/session_phases.h"
#include "cli/printable.h"
#include "cli/size.h"
#include "dev/contents.h"
#include "dev/resolver.h"
#include "dev/system.h"
#include "dev/uevent.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <thread>

namespace mmc::bench {

namespace {

namespace fs = std::filesystem;

// The block device's name by its number ("mmcblk0p1"); empty once it is gone.
std::string block_name(dev_t d, const dev::SysRoots& roots)
{
    const auto p = dev::block_syspath(d, roots);
    return p ? p->filename().string() : std::string();
}

bool device_present(dev_t d, const dev::SysRoots& roots) { return dev::block_syspath(d, roots).has_value(); }

// Watches kernel uevents for the removal of the card or its block device.
class RemovalWatch {
public:
    RemovalWatch(std::string card, std::string block, std::string partition)
        : card_(std::move(card)), block_(std::move(block)), partition_(std::move(partition))
    {
        try {
            listener_.emplace();
        } catch (const std::exception& e) {
            error_ = e.what();
        }
    }
    const std::string& error() const { return error_; }

    // Removal events so far; waits up to `wait` for one to arrive.
    std::optional<std::string> poll(std::chrono::milliseconds wait = std::chrono::milliseconds(0))
    {
        if (!listener_) return std::nullopt;
        const auto until = std::chrono::steady_clock::now() + wait;
        try {
            for (;;) {
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
                auto ev = listener_->next(std::max(left, std::chrono::milliseconds(0)));
                if (!ev) break;
                if (ev->action != "remove") continue;
                const bool ours = (!ev->devname.empty() && (ev->devname == block_ || ev->devname == partition_)) ||
                                  (!card_.empty() && ev->devpath.size() >= card_.size() &&
                                   ev->devpath.compare(ev->devpath.size() - card_.size(), card_.size(), card_) == 0);
                if (ours)
                    return fmt::format("card removed (kernel uevent: remove {})", ev->devname.empty() ? ev->devpath : ev->devname);
            }
        } catch (const std::exception&) {
        }
        return std::nullopt;
    }

private:
    std::string card_, block_, partition_;
    std::optional<dev::UeventListener> listener_;
    std::string error_;
};

// The block device's size now: 0 once the card behind it is gone.
uint64_t current_size(int fd)
{
    uint64_t size = 0;
    return ::ioctl(fd, BLKGETSIZE64, &size) == 0 ? size : 0;
}

// A byte-counted step before the jobs (writing the test file, the fill
// precondition) shown through the jobs' progress hook: a warm-up whose share
// done is bytes done over bytes in all.
std::function<void(uint64_t, uint64_t)> byte_progress(const SessionHooks& hooks)
{
    return [&hooks](uint64_t done, uint64_t total) {
        if (!hooks.progress || !total) return;
        Progress p;
        p.warming = true;
        p.elapsed_s = static_cast<double>(done) / static_cast<double>(total);
        p.budget_s = 1;
        p.bytes = done;
        hooks.progress(0, 0, p);
    };
}

} // namespace

namespace {

// The target as named: the block device, or the filesystem a test file goes
// on, and its device number.
struct TargetId {
    std::string path;
    dev_t dev = 0;
};

// DEVICE through the one resolver, for `purpose`; a refusal is the
// session's, with the resolver's words and remedy.
dev::Device resolve_target(const SessionOptions& o, dev::Purpose purpose)
{
    dev::ResolveOptions ro;
    ro.roots = o.roots;
    ro.any_device = o.any_device;
    ro.file_alternative = true; // --file measures a file instead
    try {
        dev::Device d = dev::resolve_device(o.device, purpose, ro);
        d.require_allowed();
        return d;
    } catch (const dev::DeviceError& e) {
        throw SessionRefused(e.what(), e.remedy);
    }
}

TargetId identify_target(const SessionOptions& o)
{
    TargetId id;
    if (o.file) {
        id.path = *o.file;
        std::error_code ec;
        fs::path dir = fs::is_directory(id.path, ec) ? fs::path(id.path) : fs::path(id.path).parent_path();
        if (dir.empty()) dir = ".";
        struct stat st{};
        if (::stat(dir.c_str(), &st) != 0) throw SessionRefused(fmt::format("{}: {}", id.path, std::strerror(errno)));
        id.dev = st.st_dev;
    } else {
        id.path = resolve_target(o, dev::Purpose::read).path;
        struct stat st{};
        if (::stat(id.path.c_str(), &st) != 0) throw SessionRefused(fmt::format("{}: {}", o.device, std::strerror(errno)));
        id.dev = st.st_rdev;
    }
    return id;
}

// The safety checks of a write to a block device (asked again now: it may
// have been mounted since), and the person's word.
void confirm_writes(const SessionOptions& o, const std::string& path, const Context& context, const SessionHooks& hooks)
{
    const dev::Device d = resolve_target(o, dev::Purpose::write);
    // What is there now, so that nobody confirms without seeing it.
    const std::string holds = cli::printable(dev::volumes_text(dev::volumes_in_range(d.name, 0, UINT64_MAX, o.roots)));
    require_confirmation(hooks.confirm ? hooks.confirm(write_question(path, context.card, holds)) : cli::Confirmation::no_terminal,
                         path);
}

void describe_target(const Target& target, RunReport& rep)
{
    rep.target.path = target.path();
    rep.target.kind = target.kind();
    rep.target.size_bytes = target.size();
    rep.target.logical_block = target.logical_block();
    rep.target.direct = target.direct();
    rep.target.writable = target.writable();
}

// What a run and a dry run share, before any I/O: the target named, the
// card and bus read, the jobs chosen (writes only with --destructive).
struct Start {
    TargetId id;
    JobPlan plan;
};

Start start_session(const SessionOptions& o, const SessionHooks& hooks, RunReport& rep)
{
    rep.suite = suite_of(o);
    const auto kernel = dev::kernel_info();
    rep.kernel = kernel.release;
    rep.hostname = kernel.nodename;
    check_usage(o);
    Start start{identify_target(o), {}};
    if (hooks.phase) hooks.phase("reading the card's registers");
    rep.context = gather_context(start.id.dev, o.roots, o.use_ioctl);
    const auto& card = rep.context.card;
    if (card && !card->notes.empty())
        for (const auto& n : card->notes)
            if (n.find("failed") != std::string::npos) rep.notes.push_back(n);
    start.plan = plan_jobs(o, rep.context, o.file.has_value(), rep);
    keep_reads_unless_destructive(start.plan, o, start.id.path, o.file.has_value(), rep);
    return start;
}

} // namespace

DryRun plan_session(const SessionOptions& o, const SessionHooks& hooks)
{
    DryRun dry;
    auto& rep = dry.report;
    const Start start = start_session(o, hooks, rep);
    const bool on_file = o.file.has_value();
    dry.writes = start.plan.writes;
    dry.precondition = start.plan.precondition;
    // A write is checked as the run would check it (mounted, held, not a
    // card), without the question; a refusal is the run's.
    if (!on_file && start.plan.writes) resolve_target(o, dev::Purpose::write);
    if (on_file) { // no file is made: the regions are those asked, in the file to be made
        const uint64_t size = o.suite_options.length.value_or(o.file_bytes) + o.suite_options.offset.value_or(0);
        rep.target.path = start.id.path;
        rep.target.kind = TargetKind::file;
        rep.target.device = block_name(start.id.dev, o.roots);
        rep.target.size_bytes = size;
        for (const auto& job : start.plan.jobs) {
            JobResult planned;
            planned.job = job;
            planned.region = {job.offset.value_or(0), job.length.value_or(size - job.offset.value_or(0))};
            rep.jobs.push_back(std::move(planned));
        }
        return dry;
    }
    // The device opened to read its size and block (a read-only open), as the run places its jobs.
    const Target target = Target::open_block(start.id.path, false);
    describe_target(target, rep);
    const uint64_t align = std::max<uint64_t>(start.plan.suite_options.au_bytes, target.logical_block());
    const Placement placement = place_jobs(start.plan.jobs, target.size(), target.logical_block(), align, rep);
    for (std::size_t i = 0; i < placement.jobs.size(); ++i) {
        JobResult planned;
        planned.job = placement.jobs[i];
        planned.region = placement.regions[i];
        rep.jobs.push_back(std::move(planned));
    }
    return dry;
}

RunReport run_session(const SessionOptions& o, const SessionHooks& hooks)
{
    RunReport rep;
    auto phase = [&](const std::string& s) { if (hooks.phase) hooks.phase(s); };
    auto note = [&](const std::string& s) {
        rep.notes.push_back(s);
        if (hooks.note) hooks.note(s);
    };
    const bool on_file = o.file.has_value();
    Start start = start_session(o, hooks, rep);
    const std::string& path = start.id.path;
    const dev_t dev = start.id.dev;
    JobPlan& plan = start.plan;
    const auto& card = rep.context.card;
    if (!on_file && plan.writes) confirm_writes(o, path, rep.context, hooks);

    // --- open ----------------------------------------------------------------
    uint64_t file_bytes = o.file_bytes;
    if (on_file && o.suite_options.length) file_bytes = *o.suite_options.length + o.suite_options.offset.value_or(0);
    std::optional<Target> target;
    if (on_file) {
        phase(fmt::format("writing a {} test file", cli::format_bytes(file_bytes)));
        target.emplace(Target::create_file(path, file_bytes, hooks.stop, byte_progress(hooks)));
        if (hooks.job_done) hooks.job_done();
        if (!target->direct()) note("the filesystem does not support O_DIRECT: the page cache is not bypassed and reads may be cached");
    } else {
        target.emplace(Target::open_block(path, plan.writes));
    }
    describe_target(*target, rep);
    if (on_file) rep.target.device = block_name(dev, o.roots);

    // Regions: aligned to the AU on a raw device, to the logical block in a file.
    const uint64_t align =
        on_file ? target->logical_block() : std::max<uint64_t>(plan.suite_options.au_bytes, target->logical_block());
    const Placement placement = place_jobs(plan.jobs, target->size(), target->logical_block(), align, rep);

    phase("calibrating");
    rep.cpu = pin_to_cpu(o.cpu, o.roots);
    if (o.cpu && !rep.cpu.cpu) note("not pinned to a CPU: " + rep.cpu.pin_error);
    MonotonicClock clock;
    calibrate(placement.jobs, clock, rep, note);

    PreconditionControl pc;
    pc.clock = &clock;
    pc.stop = hooks.stop;
    pc.any_device = o.any_device;
    pc.roots = o.roots;
    pc.au_bytes = o.au_bytes;
    pc.progress = byte_progress(hooks);
    // libmmc/erase opens the device exclusively itself: let go of it meanwhile.
    auto erase_all = [&] {
        target.reset();
        auto r = erase_region(path, placement.all, pc);
        target.emplace(Target::open_block(path, true));
        return r;
    };
    apply_precondition(plan.precondition, placement.all, [&] {
        switch (plan.precondition) {
        case PreconditionMethod::fill: return fill_region(*target, placement.all, pc);
        case PreconditionMethod::fragment: return fragment_region(*target, placement.all, plan.suite_options.au_bytes, pc);
        default: return erase_all();
        }
    }, hooks, rep);

    RemovalWatch watch(card ? card->identity.name : "", card ? card->block : block_name(dev, o.roots),
                       card ? card->partition : "");
    if (!watch.error().empty()) note("card removal is noticed by I/O errors only: uevents unavailable (" + watch.error() + ")");
    JobDevice device;
    device.engine = [&](const Job& j) { return make_engine(j.runner, target->fd(), j.iodepth, j.block_size); };
    device.check = [&]() -> std::optional<std::string> {
        if (auto why = watch.poll()) return why;
        if (!on_file && !device_present(dev, o.roots)) return std::string("the device is gone");
        return std::nullopt;
    };
    // Give the kernel's remove event a moment to arrive, and look at the device itself.
    device.removed = [&](const JobResult& r) -> std::optional<std::string> {
        std::optional<std::string> removed = watch.poll(std::chrono::milliseconds(500));
        if (!removed && !on_file && !device_present(dev, o.roots)) removed = "the device is gone";
        if (!removed && !on_file && current_size(target->fd()) == 0) removed = "the device's capacity dropped to 0";
        if (!removed && (r.error_errno == ENODEV || r.error_errno == ENOMEDIUM || r.error_errno == ENXIO))
            removed = std::strerror(r.error_errno);
        return removed;
    };
    device.erase_all = erase_all;
    device.idle = [&](double seconds) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        while (std::chrono::steady_clock::now() < until && !(hooks.stop && hooks.stop->load()))
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    };
    run_jobs(placement, device, clock, hooks, rep);

    draw_verdicts(o, rep);
    return rep;
}

} // namespace mmc::bench
