#include "probe/open_aus.h"

#include "cli/size.h"
#include "probe/measure.h"
#include "probe/words_view.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <map>
#include <random>
#include <sys/ioctl.h>
#include <system_error>
#include <time.h>
#include <unistd.h>

namespace mmc::probe {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw std::system_error(errno, std::generic_category(), fmt::format("{}: {}", path, what));
}


uint64_t triangle(unsigned n) { return uint64_t{n} * (n + 1) / 2; }

uint64_t start_of_trials(uint64_t au) { return (std::max(16 * MiB, 2 * au) + au - 1) / au * au; }

unsigned pages_touched(const OpenAuOptions& o)
{
    const uint64_t ppa = o.au_bytes / o.page_bytes;
    return static_cast<unsigned>(std::min<uint64_t>(o.rounds + 1, ppa));
}

constexpr unsigned max_rechecks = 3; // per sweep

} // namespace

BlockWriteDevice::BlockWriteDevice(const std::string& path) : path_(path)
{
    fd_ = ::open(path.c_str(), O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
    if (fd_ < 0) fail(path, "open for writing");
    unsigned long long bytes = 0;
    if (ioctl(fd_, BLKGETSIZE64, &bytes) != 0) {
        const int e = errno;
        ::close(fd_);
        throw std::system_error(e, std::generic_category(), path + ": not a block device");
    }
    size_ = bytes;
}

BlockWriteDevice::~BlockWriteDevice()
{
    if (fd_ >= 0) ::close(fd_);
    std::free(buf_);
}

uint8_t* BlockWriteDevice::buffer(std::size_t bytes)
{
    if (bytes > buf_bytes_) {
        std::free(buf_);
        buf_ = nullptr;
        buf_bytes_ = 0;
        if (posix_memalign(&buf_, 4096, bytes) != 0) throw std::bad_alloc();
        buf_bytes_ = bytes;
    }
    return static_cast<uint8_t*>(buf_);
}

void BlockWriteDevice::read(uint64_t offset, std::span<uint8_t> out)
{
    uint8_t* b = buffer(out.size());
    const ssize_t n = ::pread(fd_, b, out.size(), static_cast<off_t>(offset));
    if (n < 0) fail(path_, fmt::format("read at {}", offset));
    if (static_cast<std::size_t>(n) != out.size()) fail(path_, fmt::format("short read at {}", offset));
    std::memcpy(out.data(), b, out.size());
}

double BlockWriteDevice::write_ns(uint64_t offset, std::span<const uint8_t> data)
{
    uint8_t* b = buffer(data.size());
    std::memcpy(b, data.data(), data.size());
    const double start = monotonic_now_ns();
    const ssize_t n = ::pwrite(fd_, b, data.size(), static_cast<off_t>(offset));
    const double end = monotonic_now_ns();
    if (n < 0) fail(path_, fmt::format("write at {}", offset));
    if (static_cast<std::size_t>(n) != data.size()) fail(path_, fmt::format("short write at {}", offset));
    return end - start;
}

double BlockWriteDevice::flush_ns()
{
    const double start = monotonic_now_ns();
    if (::fdatasync(fd_) != 0) fail(path_, "flush");
    return monotonic_now_ns() - start;
}

WritePlan plan_open_aus(uint64_t size, const OpenAuOptions& o)
{
    WritePlan p;
    if (!o.au_bytes || !o.page_bytes || o.au_bytes < 2 * o.page_bytes) return p;
    const uint64_t start = start_of_trials(o.au_bytes);
    unsigned n = o.max_open + 1;
    while (n > 0 && start + triangle(n) * o.au_bytes > size) --n;
    if (n == 0) return p;
    p.max_trial = n;
    p.first = 0; // the start-area case writes at the card's first AUs
    p.end = start + triangle(n) * o.au_bytes;
    p.aus = triangle(n) + n;
    // Two modes over the trial AUs, their rechecks, then the start-area case.
    p.bytes = (2 * triangle(n) + 2 * max_rechecks * n + n) * pages_touched(o) * o.page_bytes;
    return p;
}

OpenAuResult measure_open_aus(WriteDevice& dev, const OpenAuOptions& o)
{
    OpenAuResult r;
    const WritePlan plan = plan_open_aus(dev.size(), o);
    if (!plan.max_trial) {
        r.notes.push_back(fmt::format("no room for an open-AU trial of {} AUs after the first {}",
                                      cli::format_bytes(o.au_bytes), cli::format_bytes(start_of_trials(o.au_bytes))));
        r.restored = true;
        return r;
    }
    const uint64_t ppa = o.au_bytes / o.page_bytes;
    const unsigned k = pages_touched(o);
    const uint64_t start = start_of_trials(o.au_bytes);
    std::mt19937_64 rng(o.seed);
    std::vector<uint8_t> data(o.page_bytes);
    for (auto& b : data) b = static_cast<uint8_t>(rng());

    std::map<uint64_t, std::vector<uint8_t>> backup; // offset -> what was there
    auto keep = [&](uint64_t off) {
        if (backup.count(off)) return;
        std::vector<uint8_t> old(o.page_bytes);
        dev.read(off, old);
        backup.emplace(off, std::move(old));
    };
    auto stopped = [&] { return o.stop && o.stop->load(); };

    // One trial: the AUs from `first`, each written at `k` pages; the first
    // write to each AU untimed (it opens the AU), then round-robin rounds,
    // each ended by a flush so a write cache counts what its flash work
    // costs. The trial's time per write is its fastest round's: rounds a
    // busy machine delayed do not make a cliff. Pass 1 writes other pages
    // of the same AUs: the recheck of a cliff.
    auto pages_for = [&](bool random, unsigned pass) -> std::optional<std::pair<uint64_t, uint64_t>> {
        const uint64_t half = ppa / 2;
        if (!random) {
            if ((pass + 1) * k > std::max<uint64_t>(half, k)) return std::nullopt;
            return std::make_pair(uint64_t{pass} * k, uint64_t{pass} * k + k);
        }
        if (half / 2 >= k) return std::make_pair(half + pass * (half / 2), half + pass * (half / 2) + half / 2);
        if (pass == 0) return half >= k ? std::make_pair(half, ppa) : std::make_pair(uint64_t{0}, ppa);
        return std::nullopt;
    };
    auto trial = [&](OpenAuMode mode, uint64_t first, unsigned n, unsigned pass) -> std::optional<double> {
        const bool random = mode != OpenAuMode::linear;
        const auto range = pages_for(random, pass);
        if (!range) return std::nullopt;
        std::vector<std::vector<uint64_t>> pages(n);
        for (unsigned i = 0; i < n; ++i) {
            std::vector<uint64_t> cand;
            for (uint64_t p = range->first; p < range->second; ++p) cand.push_back(p);
            // Random: the AU is opened at the range's first page, then
            // written at random pages of it (a log block fills from its
            // start; opening it high up would copy the pages below).
            if (random) std::shuffle(cand.begin() + 1, cand.end(), rng);
            cand.resize(k);
            pages[i] = cand;
        }
        auto at = [&](unsigned i, unsigned j) { return first + i * o.au_bytes + pages[i][j] * o.page_bytes; };
        for (unsigned i = 0; i < n; ++i)
            for (unsigned j = 0; j < k; ++j) keep(at(i, j));
        if (o.progress)
            o.progress(fmt::format("{} open-AU trial{}: {} AU{}", open_au_mode_name(mode), pass ? " (recheck)" : "", n, n == 1 ? "" : "s"));
        for (unsigned i = 0; i < n; ++i) {
            dev.write_ns(at(i, 0), data);
            r.bytes_written += o.page_bytes;
        }
        dev.flush_ns();
        // What a flush costs with nothing to write back (on a loop device,
        // a trip through the whole stack: milliseconds on a busy machine):
        // taken off each round's, so a round of one write is not dearer per
        // write than a round of eight.
        std::vector<double> empty;
        for (int i = 0; i < 3; ++i) empty.push_back(dev.flush_ns());
        std::sort(empty.begin(), empty.end());
        const double empty_flush = empty[1];
        std::vector<double> per_write;
        for (unsigned j = 1; j < k; ++j) {
            double round = 0;
            for (unsigned i = 0; i < n; ++i) {
                if (stopped()) return std::nullopt;
                data[0] = static_cast<uint8_t>(j + pass * k); // no two writes alike
                round += dev.write_ns(at(i, j), data);
                r.bytes_written += o.page_bytes;
            }
            round += std::max(0.0, dev.flush_ns() - empty_flush);
            per_write.push_back(round / n);
        }
        // The fastest round: a busy machine only ever adds time, and past the
        // open count every write of every round evicts an AU.
        const double ns = *std::min_element(per_write.begin(), per_write.end());
        r.trials.push_back({mode, n, first, ns, static_cast<double>(o.page_bytes) * 1e9 / ns, pass == 1});
        return ns;
    };

    // n = 1, 2, ... on fresh AUs each; the cliff is a trial twice as slow as
    // the fastest before it (an eviction costs an erase at least, a write
    // into an open AU a page program), confirmed on other pages of the same
    // AUs: past the open count those were evicted too, below it they are
    // still open.
    auto sweep = [&](OpenAuMode mode) -> std::optional<unsigned> {
        double fastest = 0;
        uint64_t first = start;
        unsigned rechecks = 0;
        for (unsigned n = 1; n <= plan.max_trial; ++n) {
            auto ns = trial(mode, first, n, 0);
            if (!ns) return std::nullopt;
            if (n > 1 && *ns > 2 * fastest) {
                const auto again = rechecks < max_rechecks ? trial(mode, first, n, 1) : std::nullopt;
                ++rechecks;
                if (stopped()) return std::nullopt;
                if (!again || *again > 2 * fastest) return n - 1;
                ns = again; // a busy moment, not a cliff
            }
            first += n * o.au_bytes;
            fastest = n == 1 ? *ns : std::min(fastest, *ns);
        }
        return std::nullopt;
    };

    std::exception_ptr error;
    try {
        r.tried_up_to = plan.max_trial;
        r.linear = sweep(OpenAuMode::linear);
        if (!stopped()) r.random = sweep(OpenAuMode::random);
        // The start area: one AU more than the card keeps open, at its first
        // AUs. Special when that does not hit the cliff there.
        if (!stopped() && r.random && *r.random + 1 <= plan.max_trial) {
            const unsigned n = *r.random + 1;
            double open = 0; // the fastest random trial within the open count
            for (const auto& t : r.trials)
                if (t.mode == OpenAuMode::random && t.aus <= *r.random) open = open ? std::min(open, t.ns_per_write) : t.ns_per_write;
            // The sweep's own criterion: no cliff there is a special area.
            if (const auto ns = trial(OpenAuMode::start_random, 0, n, 0)) r.start_area_special = *ns <= 2 * open;
        } else if (!stopped()) {
            r.notes.push_back("start area not measured: it needs the random open-AU count and one AU more");
        }
    } catch (...) {
        error = std::current_exception();
    }
    r.interrupted = stopped();

    // Put every block back, whatever happened above.
    try {
        for (const auto& [off, old] : backup) {
            dev.write_ns(off, old);
            r.bytes_written += old.size();
        }
        dev.flush_ns();
        r.restored = true;
    } catch (const std::exception& e) {
        r.restore_error = e.what();
    }
    if (error) std::rethrow_exception(error);
    return r;
}

} // namespace mmc::probe
