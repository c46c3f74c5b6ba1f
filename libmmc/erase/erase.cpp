#include "erase/erase.h"

#include "regs/units.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace mmc::erase {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string join_problems(const std::vector<dev::SafetyProblem>& problems)
{
    std::string out;
    for (const auto& p : problems) out += (out.empty() ? "" : "; ") + p.what;
    return out;
}

// Zero an edge: BLKZEROOUT for its whole logical blocks, pwrite for the
// ragged ends, then fdatasync.
void zero_extent(int fd, const Extent& e, uint64_t lb)
{
    const uint64_t a = (e.offset + lb - 1) / lb * lb;
    const uint64_t b = e.end() / lb * lb;
    auto write_zeros = [&](uint64_t from, uint64_t to) {
        static const std::vector<uint8_t> zeros(1 << 16, 0);
        while (from < to) {
            const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(zeros.size(), to - from));
            const ssize_t w = ::pwrite(fd, zeros.data(), n, static_cast<off_t>(from));
            if (w <= 0) throw ExecError(fmt::format("pwrite at offset {} failed: {}", from, std::strerror(errno)));
            from += static_cast<uint64_t>(w);
        }
    };
    if (b > a) {
        uint64_t range[2] = {a, b - a};
        if (::ioctl(fd, BLKZEROOUT, range) != 0) {
            if (errno != EOPNOTSUPP && errno != EINVAL)
                throw ExecError(fmt::format("BLKZEROOUT at offset {} length {} failed: {}", a, b - a, std::strerror(errno)));
            write_zeros(a, b);
        }
        write_zeros(e.offset, a);
        write_zeros(b, e.end());
    } else {
        write_zeros(e.offset, e.end());
    }
    if (::fdatasync(fd) != 0) throw ExecError(fmt::format("fdatasync failed: {}", std::strerror(errno)));
}

// Raw commands bypass the page cache: write back what is dirty before, drop
// what is cached after, so nothing stale is read or written over the erase.
// The disk and its other partitions cache the same blocks under their names.
void flush_cache(int fd, const Target& t, std::vector<std::string>& warnings)
{
    auto flush = [&](int f, const std::string& name) {
        ::fsync(f);
        if (::ioctl(f, BLKFLSBUF, 0) != 0)
            warnings.push_back(fmt::format("BLKFLSBUF on {} failed ({}); cached pages may hide the erase until dropped",
                                           name, std::strerror(errno)));
    };
    flush(fd, t.name);
    for (const auto& name : t.siblings) {
        const std::string path = (fs::path(t.path).parent_path() / name).string();
        const int f = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (f < 0) continue;
        flush(f, name);
        ::close(f);
    }
}

} // namespace

Prepared prepare(const std::string& device, const Range& range, Method method, const Options& options)
{
    Prepared p;
    p.device = device;
    p.options = options;
    try {
        p.target = find_target(device, {options.roots, options.any_device, options.use_ioctl});
    } catch (const TargetError& e) {
        if (e.why == TargetError::Why::not_mmc)
            throw TargetError(e.why, fmt::format("{}; use --any-device to erase it anyway", e.what()));
        throw;
    }
    const auto& t = p.target;
    const auto& caps = t.caps;

    if (const auto problems = dev::check_safety(t.name, options.safety); !problems.empty())
        throw Refused(fmt::format("refusing to erase: {}", join_problems(problems)));

    const bool whole = !t.is_partition && range.offset == 0 && (!range.length || *range.length == t.size);
    try {
        p.selection = select_method(method, caps, whole);
    } catch (const MethodRefused& e) {
        throw Refused(e.what());
    }
    const Method m = p.selection.method;
    p.unit = erase_unit(m, caps);
    // Only whole AUs come back clean (the card erases or unmaps an AU as one
    // block): a method that erases aligns to the AU, from the SD status or
    // --au, when the AU is a whole number of the method's own unit.
    std::optional<EraseUnit> au;
    if (options.au_bytes) au = EraseUnit{*options.au_bytes, "--au"};
    else if (caps.family == regs::CardFamily::sd && caps.au_bytes) au = EraseUnit{caps.au_bytes, "SSR AU_SIZE"};
    if (options.au_bytes && caps.family == regs::CardFamily::sd && caps.au_bytes && caps.au_bytes != *options.au_bytes)
        p.warnings.push_back(fmt::format("--au {} overrides the SSR's AU_SIZE ({})", regs::bytes_text(*options.au_bytes),
                                         regs::bytes_text(caps.au_bytes)));
    if (au && restores_clean(m)) {
        if (au->bytes % p.unit.bytes == 0) {
            p.unit = *au;
            p.au_aligned = true;
        } else {
            p.warnings.push_back(fmt::format("the AU ({}, from {}) is not a whole number of {}'s {}-byte unit ({}): "
                                             "aligned to that unit, not to the AU",
                                             regs::bytes_text(au->bytes), au->source, to_string(m), p.unit.bytes, p.unit.source));
        }
    }
    uint64_t limit = chunk_limit(m, caps);
    if (options.max_chunk) limit = limit ? std::min(limit, options.max_chunk) : options.max_chunk;
    p.plan = make_plan({t.size, t.start, range, p.unit.bytes, caps.logical_block, limit, options.zero_unaligned});
    if (p.plan.aligned.empty() && !options.zero_unaligned)
        throw Refused(fmt::format("the range {}+{} holds no whole erase unit ({} bytes, from {}); nothing would be "
                                  "erased. Use --zero-unaligned to zero it instead",
                                  p.plan.range.offset, p.plan.range.length, p.unit.bytes, p.unit.source));
    if (m == Method::fule && p.plan.aligned != p.plan.range)
        throw Refused("FULE erases the whole user area, which is not a whole number of erase units here");

    p.outcome = expected_outcome(m, caps);
    p.command = describe(m, caps);
    p.contents = dev::volumes_in_range(t.disk, t.start + p.plan.range.offset, p.plan.range.length, options.roots);
    if (p.au_aligned) {
        p.partial = partial_aus(p.plan, t.start);
        if (p.partial.count)
            p.warnings.push_back(fmt::format(
                "the range leaves {} partial AU{} at its edges: {} of it ({} before the first whole {} AU, {} after "
                "the last) {} {}, and those AUs are not restored to the clean state: their next write still copies "
                "their old data. Align --offset and --length to {} to clean every AU the range touches",
                p.partial.count, p.partial.count > 1 ? "s" : "", regs::bytes_text(p.partial.bytes),
                regs::bytes_text(p.plan.head.extent.length), regs::bytes_text(p.unit.bytes),
                regs::bytes_text(p.plan.tail.extent.length), p.partial.bytes == 1 ? "is" : "are",
                options.zero_unaligned ? "zeroed (written, not erased)" : "left alone", regs::bytes_text(p.unit.bytes)));
    }
    for (const Edge* e : {&p.plan.head, &p.plan.tail}) {
        if (p.au_aligned || e->action != EdgeAction::left_alone) continue;
        p.warnings.push_back(fmt::format("{} {} bytes at offset {} lie outside whole {} erase units and are left alone "
                                         "(--zero-unaligned zeroes them)",
                                         e == &p.plan.head ? "the first" : "the last", e->extent.length,
                                         e->extent.offset, regs::bytes_text(p.unit.bytes)));
    }
    if (caps.family == regs::CardFamily::sd && is_raw(m) && !caps.ssr)
        p.warnings.push_back("the SD status (SSR) could not be read: busy timeouts use 250 ms per AU");
    if (caps.family == regs::CardFamily::sd && is_raw(m) && caps.ssr && caps.au_bytes == 0)
        p.warnings.push_back(fmt::format("SSR AU_SIZE is 0 (not defined): the erase unit is {} from {}",
                                         regs::bytes_text(p.unit.bytes), p.unit.source));
    return p;
}

Report execute(const Prepared& p, const ProgressFn& progress, const std::atomic<bool>& stop)
{
    Report r;
    r.prepared = p;
    r.warnings = p.warnings;
    const auto& t = p.target;
    const auto& plan = p.plan;
    const Method m = p.selection.method;
    r.erased = {plan.aligned.offset, 0};

    const int fd = ::open(t.path.c_str(), O_RDWR | O_EXCL | O_CLOEXEC);
    if (fd < 0) {
        if (errno == EBUSY)
            throw Refused("the device is busy: mounted, or held open exclusively by another program");
        throw Refused(fmt::format("cannot open it: {}", std::strerror(errno)));
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};

    std::unique_ptr<Executor> exec;
    try {
        exec = is_raw(m) ? mmc_executor(t.disk_path, m, t.caps, t.rca, t.start) : block_executor(fd, m, t.name);
    } catch (const ExecError& e) {
        throw Refused(e.what());
    }

    uint64_t total = plan.aligned.length;
    for (const Edge* e : {&plan.head, &plan.tail})
        if (e->action == EdgeAction::zeroed) total += e->extent.length;
    Progress prog{0, total, 0, plan.chunks.size(), 0};
    const auto t0 = Clock::now();
    auto report_progress = [&] {
        prog.seconds = since(t0);
        if (progress) progress(prog);
    };

    if (is_raw(m)) flush_cache(fd, t, r.warnings);
    for (const auto& chunk : plan.chunks) {
        if (stop.load()) {
            r.interrupted = true;
            break;
        }
        const auto c0 = Clock::now();
        try {
            exec->erase(chunk);
        } catch (const ExecError& e) {
            r.error = e.what();
            break;
        }
        r.chunks.push_back({chunk, since(c0), "chunk"});
        r.erased.length += chunk.length;
        prog.done_bytes += chunk.length;
        ++prog.chunks_done;
        report_progress();
    }
    if (!r.interrupted && r.error.empty()) {
        try {
            exec->finish();
        } catch (const ExecError& e) {
            r.error = e.what();
        }
    }
    if (is_raw(m)) flush_cache(fd, t, r.warnings);

    // Zeroed edges last: an interruption before them leaves one contiguous
    // erased range either way.
    for (const Edge* e : {&plan.head, &plan.tail}) {
        if (e->action != EdgeAction::zeroed || !r.error.empty() || r.interrupted) continue;
        if (stop.load()) {
            r.interrupted = true;
            break;
        }
        const auto c0 = Clock::now();
        try {
            zero_extent(fd, e->extent, t.caps.logical_block);
        } catch (const ExecError& err) {
            r.error = err.what();
            break;
        }
        r.chunks.push_back({e->extent, since(c0), e == &plan.head ? "head" : "tail"});
        if (e == &plan.head)
            r.erased = {e->extent.offset, r.erased.length + e->extent.length};
        else
            r.erased.length += e->extent.length;
        prog.done_bytes += e->extent.length;
        report_progress();
    }
    r.seconds = since(t0);
    if (r.erased.length == 0) r.erased.offset = plan.range.offset;

    if (p.options.verify != VerifyMode::none && !r.interrupted && r.error.empty()) {
        std::vector<Segment> segments;
        const Outcome zeroed{0x00, true, false, "zeroed with BLKZEROOUT/pwrite"};
        if (plan.head.action == EdgeAction::zeroed) segments.push_back({plan.head.extent, zeroed, "head (zeroed)"});
        if (!plan.aligned.empty()) segments.push_back({plan.aligned, p.outcome, "erased range"});
        if (plan.tail.action == EdgeAction::zeroed) segments.push_back({plan.tail.extent, zeroed, "tail (zeroed)"});
        r.verify = verify(t.path, segments, plan.chunks, p.options.verify, t.caps.logical_block, stop);
        if (r.verify->result == VerifyResult::warning)
            for (const auto& d : r.verify->details) r.warnings.push_back("verify: " + d);
    }
    return r;
}

Report erase_range(const std::string& device, const Range& range, Method method, const Options& options,
                   const ProgressFn& progress, const std::atomic<bool>& stop)
{
    return execute(prepare(device, range, method, options), progress, stop);
}

} // namespace mmc::erase
