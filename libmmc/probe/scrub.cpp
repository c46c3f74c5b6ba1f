#include "probe/scrub.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <stdexcept>
#include <system_error>

namespace mmc::probe {

namespace {

// Nearest rank over an exact, small sample: the smallest value with at
// least p% of the values at or below it.
double nearest_rank(std::vector<double> values, double p)
{
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
    return values[std::max<std::size_t>(rank, 1) - 1];
}

bool is_read_error(const std::system_error& e) { return e.code().value() == EIO; }

} // namespace

ScrubResult run_scrub(ReadTimer& device, const ScrubOptions& o)
{
    const uint32_t block = device.block();
    if (o.request_bytes == 0 || o.request_bytes % block || o.region_bytes % o.request_bytes || o.request_bytes > device.max_read_bytes())
        throw std::invalid_argument("scrub: a read is whole blocks, at most the largest read, and a region whole reads");
    ScrubResult r;
    const uint64_t size = device.size() / block * block;
    std::vector<double> all;        // every whole request's time, ns
    std::vector<double> region_ns;  // this region's
    auto unreadable = [&](uint64_t offset) {
        if (r.read_errors.size() < o.max_read_errors) r.read_errors.push_back(offset);
        ++r.read_error_count;
    };
    for (uint64_t region = 0; region < size && !r.interrupted; region += o.region_bytes) {
        const uint64_t end = std::min(size, region + o.region_bytes);
        region_ns.clear();
        for (uint64_t at = region; at < end; at += o.request_bytes) {
            if (o.stop && o.stop->load()) {
                r.interrupted = true;
                break;
            }
            const auto length = static_cast<uint32_t>(std::min(o.request_bytes, end - at));
            try {
                const double ns = device.read_ns(at, length);
                r.read_seconds += ns / 1e9;
                region_ns.push_back(ns);
                if (length == o.request_bytes) all.push_back(ns);
            } catch (const std::system_error& e) {
                if (!is_read_error(e)) throw;
                for (uint64_t b = at; b < at + length; b += block) { // which blocks
                    try {
                        r.read_seconds += device.read_ns(b, block) / 1e9;
                    } catch (const std::system_error& again) {
                        if (!is_read_error(again)) throw;
                        unreadable(b);
                    }
                }
            }
            r.bytes_read += length;
            if (o.progress) o.progress(r.bytes_read, size);
        }
        if (region_ns.empty()) continue;
        r.regions.push_back({region, end - region, nearest_rank(region_ns, 50) / 1e3, nearest_rank(region_ns, 99) / 1e3});
    }
    r.median_us = nearest_rank(all, 50) / 1e3;
    for (const ScrubRegion& g : r.regions) {
        if (r.median_us <= 0 || g.p50_us < o.slow_factor * r.median_us) continue;
        const double factor = g.p50_us / r.median_us;
        if (!r.slow_regions.empty() && r.slow_regions.back().offset + r.slow_regions.back().size == g.offset) {
            r.slow_regions.back().size += g.size;
            r.slow_regions.back().factor = std::max(r.slow_regions.back().factor, factor);
        } else {
            r.slow_regions.push_back({g.offset, g.size, factor});
        }
    }
    return r;
}

} // namespace mmc::probe
