#include "erase/verify.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <memory>
#include <unistd.h>

namespace mmc::erase {

namespace {

constexpr uint64_t KiB = 1024;
constexpr uint64_t window = 64 * KiB;
constexpr uint64_t edge_window = 4 * KiB;
constexpr uint64_t whole_below = 1024 * KiB; // segments this small are read whole
constexpr std::size_t spread_windows = 64;
constexpr std::size_t max_chunk_samples = 4096;
constexpr std::size_t io_bytes = 1024 * KiB;

std::string byte_text(uint8_t b) { return fmt::format("0x{:02x}", b); }

std::string expected_text(const Outcome& o)
{
    if (o.zero_only) return fmt::format("0x00 ({})", o.basis);
    std::string text = o.declared ? fmt::format("{} ({})", byte_text(*o.declared), o.basis)
                                  : fmt::format("0x00 or 0xff ({})", o.basis);
    return text;
}

std::string found_text(const Scan& s)
{
    std::vector<std::string> parts;
    if (s.zeros) parts.emplace_back("0x00");
    if (s.ones) parts.emplace_back("0xff");
    if (s.other) parts.emplace_back("other data");
    if (parts.empty()) return "nothing checked";
    return fmt::format("{}", fmt::join(parts, " and "));
}

void worsen(VerifyResult& r, VerifyResult by)
{
    if (static_cast<int>(by) > static_cast<int>(r)) r = by;
}

struct AlignedFree {
    void operator()(uint8_t* p) const { std::free(p); }
};

} // namespace

std::string_view to_string(VerifyMode m)
{
    switch (m) {
    case VerifyMode::none: return "none";
    case VerifyMode::sampled: return "sampled";
    case VerifyMode::full: return "full";
    }
    return "none";
}

std::string_view to_string(VerifyResult r)
{
    switch (r) {
    case VerifyResult::pass: return "pass";
    case VerifyResult::warning: return "warning";
    case VerifyResult::fail: return "fail";
    }
    return "fail";
}

void Scan::add(const Scan& s)
{
    zeros += s.zeros;
    ones += s.ones;
    other += s.other;
    if (s.first_other && (!first_other || *s.first_other < *first_other)) {
        first_other = s.first_other;
        first_other_value = s.first_other_value;
    }
}

Scan scan(std::span<const uint8_t> bytes, uint64_t base)
{
    Scan s;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const uint8_t b = bytes[i];
        if (b == 0x00)
            ++s.zeros;
        else if (b == 0xff)
            ++s.ones;
        else {
            if (!s.other) {
                s.first_other = base + i;
                s.first_other_value = b;
            }
            ++s.other;
        }
    }
    return s;
}

VerifyReport judge(const std::vector<Segment>& segments, const std::vector<Scan>& scans, VerifyMode mode)
{
    VerifyReport r;
    r.mode = mode;
    Scan all;
    std::vector<std::string> expected;
    for (std::size_t i = 0; i < segments.size() && i < scans.size(); ++i) {
        const auto& seg = segments[i];
        const auto& s = scans[i];
        const uint64_t checked = s.zeros + s.ones + s.other;
        all.add(s);
        r.bytes_checked += checked;
        const std::string want = expected_text(seg.expect);
        if (std::find(expected.begin(), expected.end(), want) == expected.end()) expected.push_back(want);
        if (checked == 0) continue;
        const std::string where = s.first_other ? fmt::format(" (first at offset {}: {})", *s.first_other,
                                                              byte_text(s.first_other_value))
                                                : "";
        if (seg.expect.zero_only) {
            if (s.ones || s.other) {
                worsen(r.result, VerifyResult::fail);
                r.details.push_back(fmt::format("{}: {} of {} bytes checked are not 0x00{}", seg.what, s.ones + s.other,
                                                checked, where));
            }
            continue;
        }
        if (seg.expect.declared) {
            const uint8_t d = *seg.expect.declared;
            const uint64_t other_pattern = d == 0x00 ? s.ones : s.zeros;
            if (d != 0x00 && d != 0xff) {
                worsen(r.result, VerifyResult::fail);
                r.details.push_back(fmt::format("{}: declared pattern {} is neither 0x00 nor 0xff", seg.what, byte_text(d)));
            } else if (other_pattern) {
                worsen(r.result, VerifyResult::warning);
                r.details.push_back(fmt::format(
                    "{}: {} of {} bytes checked read {}, where {} was expected ({}); the card does not behave as its "
                    "register claims",
                    seg.what, other_pattern, checked, byte_text(d == 0x00 ? 0xff : 0x00), byte_text(d), seg.expect.basis));
            }
        }
        if (s.other) {
            if (seg.expect.undefined) {
                worsen(r.result, VerifyResult::warning);
                r.details.push_back(fmt::format("{}: {} of {} bytes checked still hold other data{}, which a DISCARD "
                                                "allows",
                                                seg.what, s.other, checked, where));
            } else {
                worsen(r.result, VerifyResult::fail);
                r.details.push_back(fmt::format("{}: {} of {} bytes checked hold data that is neither 0x00 nor 0xff{}",
                                                seg.what, s.other, checked, where));
            }
        }
    }
    r.expected = fmt::format("{}", fmt::join(expected, "; "));
    r.found = found_text(all);
    return r;
}

std::vector<Extent> sample_windows(const Extent& seg, const std::vector<Extent>& chunks, VerifyMode mode)
{
    if (seg.empty() || mode == VerifyMode::none) return {};
    if (mode == VerifyMode::full || seg.length <= whole_below) return {seg};
    std::vector<Extent> w;
    w.push_back({seg.offset, window});
    w.push_back({seg.end() - window, window});
    std::vector<Extent> inside;
    for (const auto& c : chunks)
        if (c.end() > seg.offset && c.offset < seg.end()) inside.push_back(c);
    const std::size_t step = std::max<std::size_t>(1, (inside.size() + max_chunk_samples - 1) / max_chunk_samples);
    for (std::size_t i = 0; i < inside.size(); i += step) {
        const auto& c = inside[i];
        w.push_back({c.offset, std::min(edge_window, c.length)});
        w.push_back({c.end() - std::min(edge_window, c.length), std::min(edge_window, c.length)});
    }
    for (std::size_t i = 0; i < spread_windows; ++i)
        w.push_back({seg.offset + (seg.length - window) * i / (spread_windows - 1), window});

    // Clip to the segment, sort, merge.
    std::vector<Extent> clipped;
    for (const auto& e : w) {
        const uint64_t a = std::max(e.offset, seg.offset), b = std::min(e.end(), seg.end());
        if (b > a) clipped.push_back({a, b - a});
    }
    std::sort(clipped.begin(), clipped.end(), [](const Extent& a, const Extent& b) { return a.offset < b.offset; });
    std::vector<Extent> out;
    for (const auto& e : clipped) {
        if (!out.empty() && e.offset <= out.back().end())
            out.back().length = std::max(out.back().end(), e.end()) - out.back().offset;
        else
            out.push_back(e);
    }
    return out;
}

VerifyReport verify(const std::string& path, const std::vector<Segment>& segments, const std::vector<Extent>& chunks,
                    VerifyMode mode, uint64_t logical_block, const std::atomic<bool>& stop)
{
    std::vector<Scan> scans(segments.size());
    std::vector<std::string> notes;
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0 && errno == EINVAL) {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            notes.push_back(fmt::format("{} refuses O_DIRECT; read through the page cache", path));
        }
    }
    if (fd < 0) {
        VerifyReport r = judge(segments, scans, mode);
        r.result = VerifyResult::fail;
        r.details.push_back(fmt::format("cannot open {} to read back: {}", path, std::strerror(errno)));
        return r;
    }
    const uint64_t lb = std::max<uint64_t>(logical_block, 512);
    std::unique_ptr<uint8_t, AlignedFree> buf(static_cast<uint8_t*>(std::aligned_alloc(4096, io_bytes)));
    bool interrupted = false;
    std::string read_error;

    for (std::size_t i = 0; i < segments.size() && !interrupted && read_error.empty(); ++i) {
        for (const auto& win : sample_windows(segments[i].extent, chunks, mode)) {
            // Read whole logical blocks around the window, check the window.
            uint64_t pos = win.offset / lb * lb;
            const uint64_t end = (win.end() + lb - 1) / lb * lb;
            while (pos < end) {
                if (stop.load()) {
                    interrupted = true;
                    break;
                }
                const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(io_bytes, end - pos));
                const ssize_t got = ::pread(fd, buf.get(), n, static_cast<off_t>(pos));
                if (got != static_cast<ssize_t>(n)) {
                    read_error = got < 0 ? fmt::format("read at offset {} failed: {}", pos, std::strerror(errno))
                                         : fmt::format("short read at offset {}: {} of {} bytes", pos, got, n);
                    break;
                }
                const uint64_t a = std::max(pos, win.offset), b = std::min(pos + n, win.end());
                if (b > a) scans[i].add(scan({buf.get() + (a - pos), static_cast<std::size_t>(b - a)}, a));
                pos += n;
            }
            if (interrupted || !read_error.empty()) break;
        }
    }
    ::close(fd);
    VerifyReport r = judge(segments, scans, mode);
    r.details.insert(r.details.end(), notes.begin(), notes.end());
    if (interrupted) {
        worsen(r.result, VerifyResult::warning);
        r.details.push_back("verification interrupted: only part of the range was read");
    }
    if (!read_error.empty()) {
        r.result = VerifyResult::fail;
        r.details.push_back(read_error);
    }
    return r;
}

} // namespace mmc::erase
