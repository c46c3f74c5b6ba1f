#include "probe/read_cache.h"

#include "cli/size.h"
#include "probe/measure.h"

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace mmc::probe {

namespace {

constexpr uint64_t KiB = 1024;
constexpr uint64_t region_align = MiB;
constexpr unsigned places = 8;
constexpr uint64_t first_flood = 64 * KiB;

uint64_t aligned(uint64_t v) { return v / region_align * region_align; }

// Where floods read: an eighth and five eighths into the device; the one
// not holding `avoid` (the read the flood prepares).
uint64_t flood_offset(uint64_t size, uint64_t bytes, uint64_t avoid)
{
    const uint64_t a = aligned(size / 8), b = aligned(size / 8 * 5);
    return avoid >= a && avoid < a + bytes ? b : a;
}

bool stopped(const std::atomic<bool>* stop) { return stop && stop->load(); }

} // namespace

uint64_t max_read_cache_bytes(uint64_t device_size) { return std::min<uint64_t>(64 * MiB, device_size / 8); }

void read_range(ReadTimer& dev, uint64_t offset, uint64_t length)
{
    const uint64_t piece = dev.max_read_bytes() / dev.block() * dev.block();
    const uint64_t end = std::min(offset + length, dev.size() / dev.block() * dev.block());
    for (uint64_t at = offset; at < end; at += piece)
        dev.read_ns(at, static_cast<uint32_t>(std::min(piece, end - at)));
}

ReadCacheFinding find_read_cache(ReadTimer& dev, const std::atomic<bool>* stop)
{
    ReadCacheFinding f;
    const uint32_t rb = 2 * dev.block();
    const uint64_t size = dev.size();
    if (size < 16 * MiB || stopped(stop)) return f;
    // Places three eighths in and beyond, clear of the flood regions' starts.
    std::vector<double> first, again;
    for (unsigned i = 0; i < places; ++i) {
        const uint64_t at = aligned(size / 16 * (6 + i)) + 3 * 4096;
        first.push_back(dev.read_ns(at, rb));
        again.push_back(dev.read_ns(at, rb));
    }
    f.first_ns = median(first);
    f.again_ns = median(again);
    if (!(f.again_ns < f.first_ns / 2)) return f;
    f.detected = true;
    // Each step: three fresh blocks read, the flood, then each re-read
    // beside a cold read of another fresh block. Emptied when the re-reads
    // take at least three quarters of the cold reads' time (medians): cold
    // reads made under the same conditions, so a host that is slower after
    // a large transfer (QEMU's EHCI under TCG is) slows both alike.
    const uint64_t most = max_read_cache_bytes(size);
    const uint64_t base = aligned(size / 16 * 6) + 7 * 4096;
    uint64_t fresh = 0;
    const auto emptied_by = [&](uint64_t n) {
        std::vector<uint64_t> blocks;
        for (int k = 0; k < 3; ++k) blocks.push_back(base + ++fresh * 64 * KiB);
        for (uint64_t at : blocks) dev.read_ns(at, rb);
        read_range(dev, flood_offset(size, n, blocks[0]), n);
        std::vector<double> reread, cold;
        for (uint64_t at : blocks) {
            reread.push_back(dev.read_ns(at, rb));
            cold.push_back(dev.read_ns(base + ++fresh * 64 * KiB, rb));
        }
        return median(reread) >= 0.75 * median(cold);
    };
    uint64_t n = first_flood;
    while (n <= most && !stopped(stop) && !emptied_by(n)) n *= 2;
    // The confirming pass: the same test again on fresh blocks. A size that
    // does not hold is doubled and confirmed again, within the limit.
    while (n <= most && !stopped(stop) && !emptied_by(n)) {
        f.passes_disagreed = true;
        n *= 2;
    }
    if (n <= most && !stopped(stop)) f.bytes = n;
    auto us = [](double ns) { return fmt::format("{:.0f} us", ns / 1e3); };
    f.evidence = f.bytes ? fmt::format("a read cache in front of the card (a USB reader's bridge?): re-reads took {} against {} "
                                       "for first reads; reading {} elsewhere empties it, so each timed re-read was "
                                       "preceded by that{}",
                                       us(f.again_ns), us(f.first_ns), cli::format_bytes(*f.bytes),
                                       f.passes_disagreed ? " (a second sizing pass found the first one's size too small: "
                                                            "the timing was disturbed, so the size is less sure)"
                                                          : "")
                         : fmt::format("a read cache in front of the card (a USB reader's bridge?): re-reads took {} against {} "
                                       "for first reads, and reading {} elsewhere did not empty it: the re-reads may be the "
                                       "cache's, not the card's",
                                       us(f.again_ns), us(f.first_ns), cli::format_bytes(most));
    return f;
}

Confidence ReadCacheFinding::confidence() const
{
    if (!detected) return Confidence::high;
    if (!bytes) return Confidence::low;
    return passes_disagreed ? Confidence::medium : Confidence::high;
}

ColdReads::ColdReads(ReadTimer& device, uint64_t flood_bytes) : dev_(device), flood_bytes_(flood_bytes) {}

double ColdReads::read_ns(uint64_t offset, uint32_t length)
{
    const uint32_t bs = dev_.block();
    const bool in_flood = offset >= flooded_ && offset + length <= flooded_end_;
    bool all_seen = length > 0;
    for (uint64_t b = offset / bs; all_seen && b < (offset + length + bs - 1) / bs; ++b) all_seen = seen_.contains(b);
    if (all_seen || in_flood) flood(offset);
    for (uint64_t b = offset / bs; b < (offset + length + bs - 1) / bs; ++b) seen_.insert(b);
    return dev_.read_ns(offset, length);
}

void ColdReads::flood(uint64_t avoid_offset)
{
    flooded_ = flood_offset(dev_.size(), flood_bytes_, avoid_offset);
    flooded_end_ = flooded_ + flood_bytes_;
    read_range(dev_, flooded_, flood_bytes_);
    seen_.clear();
    ++floods_;
}

} // namespace mmc::probe
