#include "probe/sampler.h"

#include "cli/size.h"
#include "probe/measure.h"
#include "probe/words_view.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <system_error>
#include <time.h>
#include <unistd.h>

namespace mmc::probe {

BlockReadTimer::BlockReadTimer(const std::string& path) : path_(path)
{
    fd_ = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), path);
    unsigned long long bytes = 0;
    int lb = 0;
    if (ioctl(fd_, BLKGETSIZE64, &bytes) != 0 || ioctl(fd_, BLKSSZGET, &lb) != 0) {
        const int e = errno;
        ::close(fd_);
        throw std::system_error(e, std::generic_category(), path + ": not a block device");
    }
    size_ = bytes;
    block_ = lb > 0 ? static_cast<uint32_t>(lb) : 512;
    // Room for the largest read: the sampler's are two blocks, reads past a
    // read cache (read_cache.h) up to 1 MiB; page aligned.
    if (posix_memalign(&buf_, 4096, std::max<uint32_t>(buffer_bytes, 2 * block_)) != 0) {
        ::close(fd_);
        throw std::system_error(ENOMEM, std::generic_category(), path);
    }
}

BlockReadTimer::~BlockReadTimer()
{
    if (fd_ >= 0) ::close(fd_);
    std::free(buf_);
}

double BlockReadTimer::read_ns(uint64_t offset, uint32_t length)
{
    if (offset + length > size_ || length > max_read_bytes() || length % block_)
        throw std::system_error(EINVAL, std::generic_category(),
                                fmt::format("{}: read of {} at {} is beyond the device or the buffer", path_, length, offset));
    const double start = monotonic_now_ns();
    const ssize_t n = ::pread(fd_, buf_, length, static_cast<off_t>(offset));
    const double end = monotonic_now_ns();
    if (n < 0) throw std::system_error(errno, std::generic_category(), fmt::format("{}: read at {}", path_, offset));
    if (static_cast<uint32_t>(n) != length)
        throw std::system_error(EIO, std::generic_category(), fmt::format("{}: short read at {}", path_, offset));
    return end - start;
}

std::vector<uint64_t> ladder_aligns(uint64_t read_bytes, uint64_t max_align)
{
    std::vector<uint64_t> out;
    for (uint64_t a = read_bytes; a <= max_align; a *= 2) {
        out.push_back(a);
        const uint64_t three = a / 2 * 3; // between a and 2a
        if (a >= 2048 && three % read_bytes == 0 && three <= max_align) out.push_back(three);
    }
    return out;
}

std::vector<uint64_t> row_positions(uint64_t align, uint64_t device_size, uint32_t read_bytes, unsigned most)
{
    std::vector<uint64_t> out;
    if (device_size < read_bytes || align < read_bytes || most == 0) return out;
    const uint64_t multiples = (device_size - read_bytes) / align; // the last multiple with room for the post read
    const uint64_t odd = (multiples + 1) / 2;                      // 1, 3, 5, ... <= multiples
    const uint64_t n = std::min<uint64_t>(odd, most);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t k = n == 1 ? 0 : i * (odd - 1) / (n - 1); // spread over the odd multiples
        out.push_back(align * (2 * k + 1));
    }
    return out;
}

Ladder sample_ladder(ReadTimer& dev, const SampleOptions& o)
{
    const uint32_t rb = 2 * dev.block();
    const uint64_t max_align = o.max_align ? o.max_align : dev.size() / 2;
    const auto aligns = ladder_aligns(rb, max_align);
    const unsigned repeats = std::max(1u, o.repeats);

    std::vector<std::vector<uint64_t>> places;
    uint64_t total = 0, done = 0;
    for (uint64_t a : aligns) {
        places.push_back(row_positions(a, dev.size(), rb, o.positions));
        total += places.back().size() * 3 * repeats;
    }

    Ladder l;
    l.read_bytes = rb;
    l.repeats = repeats;
    // [row][kind][place] -> the time of each repeat; kinds: pre, on, post.
    // Repeats are the outer loop: a busy second (another process, udev
    // scanning a device just attached) then spoils one repeat of a few rows,
    // and the fastest repeat survives it, instead of all repeats of them.
    std::vector<std::vector<std::vector<std::vector<double>>>> t(aligns.size());
    for (std::size_t r = 0; r < aligns.size(); ++r)
        t[r].assign(3, std::vector<std::vector<double>>(places[r].size()));
    for (unsigned rep = 0; rep < repeats; ++rep)
        for (std::size_t r = 0; r < aligns.size(); ++r)
            for (int kind = 0; kind < 3; ++kind)
                for (std::size_t p = 0; p < places[r].size(); ++p) {
                    if (o.stop && o.stop->load()) return l;
                    const uint64_t off = places[r][p] - rb + static_cast<uint64_t>(kind) * rb / 2;
                    t[r][kind][p].push_back(dev.read_ns(off, rb));
                    if (o.progress && ++done % 64 == 0) o.progress(done, total);
                }
    std::vector<double> gaps;
    for (std::size_t r = 0; r < aligns.size(); ++r) {
        if (places[r].empty()) continue;
        LadderRow row;
        row.align = aligns[r];
        row.positions = static_cast<unsigned>(places[r].size());
        double* out[3] = {&row.pre_ns, &row.on_ns, &row.post_ns};
        for (int kind = 0; kind < 3; ++kind) {
            std::vector<double> fastest;
            for (auto& v : t[r][kind]) {
                std::sort(v.begin(), v.end());
                fastest.push_back(v[0]);
                if (v.size() > 1) gaps.push_back(v[1] - v[0]);
            }
            // The fastest place: a row whose places only partly cross a
            // boundary (4 MiB ones on a card with 12 MiB AUs: every third)
            // reads as not crossing it; only a boundary every place
            // crosses raises the row.
            *out[kind] = *std::min_element(fastest.begin(), fastest.end());
        }
        l.rows.push_back(row);
    }
    if (!gaps.empty()) l.noise_ns = median(gaps);
    if (o.progress) o.progress(total, total);
    return l;
}

namespace {

// What a read cache in front of the card does to the reading: said in the
// evidence, and a reading it could have answered is of low confidence.
void note_read_cache(GeometryReading& r)
{
    if (!r.read_cache.detected) return;
    r.geometry.evidence.push_back(r.read_cache.evidence);
    if (!r.read_cache.bytes && r.geometry.confidence != Confidence::none) r.geometry.confidence = Confidence::low;
    // Two sizing passes that disagreed: a high reading is held to medium.
    else if (r.read_cache.passes_disagreed && r.geometry.confidence == Confidence::high) r.geometry.confidence = Confidence::medium;
}

} // namespace

GeometryReading read_geometry(ReadTimer& card, SampleOptions options, bool again_if_unclear)
{
    GeometryReading r;
    r.read_cache = find_read_cache(card, options.stop);
    ColdReads cold(card, r.read_cache.bytes.value_or(0));
    ReadTimer& device = r.read_cache.bytes ? static_cast<ReadTimer&>(cold) : card;
    r.ladder = sample_ladder(device, options);
    r.geometry = analyze(r.ladder);
    const bool stopped = options.stop && options.stop->load();
    if (!again_if_unclear || r.geometry.confidence == Confidence::high || stopped) {
        note_read_cache(r);
        return r;
    }
    auto found = [](const std::optional<uint64_t>& b) { return b ? cli::format_bytes(*b) : std::string("none"); };
    const std::string first = fmt::format("a first reading with {} repeats was not clear (confidence {}: page {}, AU {}); "
                                          "read again with {}",
                                          options.repeats, confidence_name(r.geometry.confidence), found(r.geometry.page_bytes),
                                          found(r.geometry.au_bytes), 3 * options.repeats);
    options.repeats *= 3;
    r.ladder = sample_ladder(device, options);
    r.geometry = analyze(r.ladder);
    r.geometry.evidence.insert(r.geometry.evidence.begin(), first);
    note_read_cache(r);
    return r;
}

} // namespace mmc::probe
