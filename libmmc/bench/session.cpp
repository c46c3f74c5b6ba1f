#include "bench/session.h"

#include "bench/calibration.h"
#include "bench/engines/engine.h"
#include "dev/contents.h"
#include "dev/discovery.h"
#include "dev/system.h"
#include "dev/uevent.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <set>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace mmc::bench {

namespace {

namespace fs = std::filesystem;

std::string block_name(dev_t d, const dev::SysRoots& roots)
{
    std::error_code ec;
    const fs::path p = fs::canonical(roots.sysfs / "dev" / "block" / fmt::format("{}:{}", major(d), minor(d)), ec);
    return ec ? std::string() : p.filename().string();
}

bool device_present(dev_t d, const dev::SysRoots& roots)
{
    std::error_code ec;
    return fs::exists(roots.sysfs / "dev" / "block" / fmt::format("{}:{}", major(d), minor(d)), ec);
}

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

std::string device_path_of(const std::string& name, const dev::SysRoots& roots)
{
    std::error_code ec;
    if (name.find('/') != std::string::npos || fs::exists(name, ec)) return name;
    if (fs::exists(roots.dev / name, ec)) return (roots.dev / name).string();
    try {
        const auto t = dev::resolve(name, roots);
        if (!t.partition.empty()) return (roots.dev / t.partition).string();
        if (t.card && t.card->is_storage()) return t.card->device_path(roots);
    } catch (const dev::ResolveError&) {
    }
    return name;
}

RunReport run_session(const SessionOptions& o, const SessionHooks& hooks)
{
    RunReport rep;
    rep.suite = o.custom ? "custom" : o.suite;
    const auto kernel = dev::kernel_info();
    rep.kernel = kernel.release;
    rep.hostname = kernel.nodename;
    auto phase = [&](const std::string& s) { if (hooks.phase) hooks.phase(s); };
    auto note = [&](const std::string& s) {
        rep.notes.push_back(s);
        if (hooks.note) hooks.note(s);
    };
    const bool on_file = o.file.has_value();
    const bool state_suite = !o.custom && o.suite == "state";
    const PreconditionMethod precondition =
        o.precondition.value_or(state_suite ? PreconditionMethod::fragment : PreconditionMethod::none);
    if (on_file && state_suite) throw SessionUsage("--suite state erases its region: it needs a raw device, not --file");
    if (on_file && precondition != PreconditionMethod::none)
        throw SessionUsage("--precondition applies to a raw device; a test file is written once when it is created");

    // --- the target's identity ------------------------------------------
    std::string path;
    dev_t dev = 0;
    if (on_file) {
        path = *o.file;
        std::error_code ec;
        fs::path dir = fs::is_directory(path, ec) ? fs::path(path) : fs::path(path).parent_path();
        if (dir.empty()) dir = ".";
        struct stat st{};
        if (::stat(dir.c_str(), &st) != 0) throw SessionRefused(fmt::format("--file {}: {}", path, std::strerror(errno)));
        dev = st.st_dev;
    } else {
        path = device_path_of(o.device, o.roots);
        struct stat st{};
        if (::stat(path.c_str(), &st) != 0) throw SessionRefused(fmt::format("{}: {}", o.device, std::strerror(errno)));
        if (!S_ISBLK(st.st_mode))
            throw SessionRefused(fmt::format("{}: not a block device", path), "use --file PATH to measure a file on a mounted filesystem");
        dev = st.st_rdev;
    }
    phase("reading the card's registers");
    rep.context = gather_context(dev, o.roots, o.use_ioctl);
    const auto& card = rep.context.card;
    if (card && !card->notes.empty())
        for (const auto& n : card->notes)
            if (n.find("failed") != std::string::npos) rep.notes.push_back(n);

    // --- the jobs ----------------------------------------------------------
    SuiteOptions so = o.suite_options;
    if (o.au_bytes) so.au_bytes = *o.au_bytes;
    else if (card && card->claims.au_bytes) so.au_bytes = card->claims.au_bytes;
    else if (!on_file && ((o.suite == "class" && !o.custom) || state_suite || precondition == PreconditionMethod::fragment))
        rep.notes.push_back(fmt::format("the card's AU is unknown; {} MiB assumed (--au sets it)", so.au_bytes >> 20));
    if (rep.context.queueing.cq_enabled == true)
        so.queue_depth = card && card->claims.cq_depth > 0 ? std::min(32, card->claims.cq_depth) : 32;
    std::vector<Job> jobs;
    try {
        if (o.custom) {
            Job j = *o.custom;
            if (o.suite_options.offset) j.offset = o.suite_options.offset;
            if (o.suite_options.length) j.length = o.suite_options.length;
            jobs.push_back(j);
        } else {
            jobs = suite_jobs(o.suite, so);
        }
        for (const auto& j : jobs) validate(j);
    } catch (const std::invalid_argument& e) {
        throw SessionUsage(e.what());
    }

    // --- who may write -----------------------------------------------------
    const bool precondition_writes = precondition != PreconditionMethod::none;
    bool any_write = precondition_writes;
    for (const auto& j : jobs) any_write = any_write || j.writes();
    if (!on_file && any_write && !o.destructive) {
        if (state_suite)
            throw SessionRefused(fmt::format("{}: the state suite writes to and erases its region, destroying the data there", path),
                                 "add --destructive to allow it");
        if (o.custom || precondition_writes)
            throw SessionRefused(fmt::format("{}: {} destroys the data on it", path,
                                             precondition_writes ? fmt::format("--precondition {}", to_string(precondition))
                                                                 : std::string("a write test")),
                                 "add --destructive to allow it");
        std::vector<Job> kept;
        for (auto& j : jobs) {
            if (j.writes()) rep.skipped.push_back({j.name, "write test skipped: read-only run (add --destructive to run it)"});
            else kept.push_back(j);
        }
        jobs = kept;
        any_write = false;
    }
    if (!on_file && any_write) {
        try {
            check_destructive(path, o.roots, o.any_device);
        } catch (const WriteRefused& e) {
            throw SessionRefused(e.what(), e.hint);
        }
        const std::string what = card ? fmt::format("{} ({} \"{}\", {:.1f} GB)", path, card->identity.type, card->identity.product,
                                                    static_cast<double>(card->identity.capacity_bytes) / 1e9)
                                       : path;
        // What is there now, so that nobody confirms without seeing it.
        std::error_code ec;
        const std::string name = fs::weakly_canonical(path, ec).filename().string();
        const std::string holds = dev::volumes_text(dev::volumes_in_range(name, 0, UINT64_MAX, o.roots));
        const auto answer = hooks.confirm ? hooks.confirm(fmt::format("mmc-bench will write to {} and destroy data on it.\n"
                                                                      "It holds: {}.",
                                                                      what, holds))
                                          : cli::Confirmation::no_terminal;
        if (answer == cli::Confirmation::no_terminal)
            throw SessionRefused(fmt::format("{}: refusing to write without confirmation: no terminal to ask on", path),
                                 "add --yes to confirm on the command line");
        if (answer == cli::Confirmation::declined) throw SessionRefused(fmt::format("{}: not confirmed; nothing written", path));
    }

    // --- open ----------------------------------------------------------------
    uint64_t file_bytes = o.file_bytes;
    if (on_file && o.suite_options.length) file_bytes = *o.suite_options.length + o.suite_options.offset.value_or(0);
    std::optional<Target> target;
    if (on_file) {
        phase(fmt::format("writing a {} MiB test file", file_bytes >> 20));
        target.emplace(Target::create_file(path, file_bytes, hooks.stop, byte_progress(hooks)));
        if (hooks.job_done) hooks.job_done();
        if (!target->direct()) note("the filesystem does not support O_DIRECT: the page cache is not bypassed and reads may be cached");
    } else {
        target.emplace(Target::open_block(path, any_write));
    }
    rep.target.path = target->path();
    rep.target.kind = target->kind();
    rep.target.size_bytes = target->size();
    rep.target.logical_block = target->logical_block();
    rep.target.direct = target->direct();
    rep.target.writable = target->writable();
    if (on_file) rep.target.device = block_name(dev, o.roots);

    // Regions: aligned to the AU on a raw device, to the logical block in a file.
    const uint64_t align = on_file ? target->logical_block() : std::max<uint64_t>(so.au_bytes, target->logical_block());
    std::vector<Region> regions;
    std::vector<Job> runnable;
    for (auto& j : jobs) {
        if (j.block_size < target->logical_block() || j.block_size % target->logical_block()) {
            rep.skipped.push_back({j.name, fmt::format("block size {} is not a multiple of the device's {}-byte logical block",
                                                       j.block_size, target->logical_block())});
            continue;
        }
        try {
            regions.push_back(plan_region(j, target->size(), align));
        } catch (const std::invalid_argument& e) {
            throw SessionUsage(fmt::format("{}: {}", j.name, e.what()));
        }
        if (j.one_pass) j.ios = regions.back().length / j.block_size;
        runnable.push_back(j);
    }

    // --- calibration -----------------------------------------------------------
    phase("calibrating");
    rep.cpu = pin_to_cpu(o.cpu);
    if (o.cpu && !rep.cpu.cpu) note("not pinned to a CPU: " + rep.cpu.pin_error);
    MonotonicClock clock;
    rep.clock = calibrate_clock(clock);
    rep.ci_target_pct = o.custom ? o.custom->ci_target_pct : o.suite_options.ci_target_pct.value_or(2);
    std::set<std::pair<std::string, unsigned>> engines{{"psync", 1}};
    for (const auto& j : runnable) engines.insert({j.runner, j.iodepth});
    for (const auto& [runner, depth] : engines) {
        try {
            rep.null_target.push_back(calibrate_null_target(runner, depth, clock));
        } catch (const std::exception& e) {
            note(fmt::format("null-target calibration of {} QD{} failed: {}", runner, depth, e.what()));
        }
    }

    // --- precondition ------------------------------------------------------------
    Region all;
    if (!regions.empty()) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (const auto& r : regions) lo = std::min(lo, r.offset), hi = std::max(hi, r.offset + r.length);
        all = {lo, hi - lo};
    }
    rep.precondition.method = precondition;
    rep.precondition.region = all;
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
        auto r = erase_region(path, all, pc);
        target.emplace(Target::open_block(path, true));
        return r;
    };
    if (precondition != PreconditionMethod::none && all.length) {
        phase(fmt::format("precondition: {} of {} MiB", to_string(precondition), all.length >> 20));
        if (precondition == PreconditionMethod::fill) rep.precondition = fill_region(*target, all, pc);
        else if (precondition == PreconditionMethod::fragment) rep.precondition = fragment_region(*target, all, so.au_bytes, pc);
        else rep.precondition = erase_all();
        if (hooks.job_done) hooks.job_done();
        if (rep.precondition.partial) {
            rep.partial = true;
            rep.partial_why = fmt::format("precondition {} stopped: {}", to_string(precondition), rep.precondition.error);
        }
    } else {
        rep.precondition.how = "as found";
    }

    // --- the jobs ----------------------------------------------------------------
    RemovalWatch watch(card ? card->identity.name : "", card ? card->block : block_name(dev, o.roots),
                       card ? card->partition : "");
    if (!watch.error().empty()) note("card removal is noticed by I/O errors only: uevents unavailable (" + watch.error() + ")");
    RunControl rc;
    rc.clock = &clock;
    rc.stop = hooks.stop;
    rc.check = [&]() -> std::optional<std::string> {
        if (auto why = watch.poll()) return why;
        if (!on_file && !device_present(dev, o.roots)) return std::string("the device is gone");
        return std::nullopt;
    };
    for (std::size_t i = 0; i < runnable.size() && !rep.partial; ++i) {
        const Job& j = runnable[i];
        if (hooks.stop && hooks.stop->load()) {
            rep.partial = true;
            rep.partial_why = "interrupted";
            break;
        }
        if (j.erase_first && all.length) {
            phase(fmt::format("erasing {} MiB between the states", all.length >> 20));
            rep.state_erase = erase_all();
            if (hooks.job_done) hooks.job_done();
            if (rep.state_erase->partial) {
                rep.partial = true;
                rep.partial_why = fmt::format("the erase between the states stopped: {}", rep.state_erase->error);
                break;
            }
        }
        if (hooks.progress)
            rc.on_progress = [&, i](const Progress& p) { hooks.progress(i + 1, runnable.size(), p); };
        std::unique_ptr<Engine> engine;
        try {
            engine = make_engine(j.runner, target->fd(), j.iodepth, j.block_size);
        } catch (const std::exception& e) {
            rep.skipped.push_back({j.name, fmt::format("{} unavailable: {}", j.runner, e.what())});
            continue;
        }
        rep.jobs.push_back(run_job(*engine, j, regions[i], rc));
        if (hooks.job_done) hooks.job_done();
        const JobResult& r = rep.jobs.back();
        if (r.partial) {
            rep.partial = true;
            // An error may be the first sign of a removal: give the kernel's
            // remove event a moment to arrive, and look at the device itself.
            std::optional<std::string> removed;
            if (r.stop_reason == "error") {
                removed = watch.poll(std::chrono::milliseconds(500));
                if (!removed && !on_file && !device_present(dev, o.roots)) removed = "the device is gone";
                if (!removed && !on_file && current_size(target->fd()) == 0) removed = "the device's capacity dropped to 0";
                if (!removed && (r.error_errno == ENODEV || r.error_errno == ENOMEDIUM || r.error_errno == ENXIO))
                    removed = std::strerror(r.error_errno);
            }
            if (r.stop_reason == "interrupted") {
                rep.partial_why = fmt::format("interrupted during {}", j.name);
            } else if (r.stop_reason == "removed" || removed) {
                rep.partial_why = fmt::format("the card was removed during {} ({}{}); results so far are partial", j.name,
                                              r.error, removed && *removed != r.error ? "; " + *removed : "");
            } else {
                rep.partial_why = fmt::format("{} failed: {} (the card may be failing); results so far are partial", j.name, r.error);
            }
        }
    }

    // --- verdicts ------------------------------------------------------------------
    if (!o.custom) {
        Outcomes oc;
        for (const auto& r : rep.jobs) oc.ran[r.job.name] = &r;
        for (const auto& s : rep.skipped) oc.skipped[s.job] = s.why;
        SuiteFacts f;
        f.sd_card = card && (card->identity.type == "SD" || card->identity.type == "SDcombo");
        if (card) {
            f.claims = card->claims;
            f.claims_missing_why = card->claims_missing_why;
        }
        if (const auto& b = rep.context.bus) {
            f.bus.mode = b->mode;
            f.bus.ceiling_mb_s = b->ceiling_mb_s;
            f.bus.clock_hz = b->actual_clock_hz ? b->actual_clock_hz : b->clock_hz;
            f.bus.controller = b->controller;
        }
        f.host = rep.context.queueing;
        rep.verdicts = suite_verdicts(o.suite, oc, f);
    }
    return rep;
}

} // namespace mmc::bench
