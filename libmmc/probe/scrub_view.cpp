#include "probe/scrub_view.h"

#include "cli/size.h"
#include "version.h"

#include <algorithm>
#include <fmt/format.h>

namespace mmc::probe {

namespace {
double mb_s(const ScrubResult& r) { return r.read_seconds > 0 ? double(r.bytes_read) / r.read_seconds / 1e6 : 0; }
} // namespace

std::string scrub_text(const std::string& target, const ScrubResult& r)
{
    std::string out = fmt::format("{}: {} read in {} regions, {:.2f} MB/s; a read's median {:.0f} us\n", target,
                                  cli::format_bytes_exact(r.bytes_read), r.regions.size(), mb_s(r), r.median_us);
    if (r.slow_regions.empty()) out += " slow regions  none\n";
    for (const SlowRegion& s : r.slow_regions)
        out += fmt::format(" slow region   {} at {} ({}): reads {:.1f} times the card's median\n", cli::format_bytes(s.size),
                           s.offset, cli::format_bytes(s.offset), s.factor);
    if (r.read_error_count == 0) out += " read errors   none\n";
    else {
        out += fmt::format(" read errors   {} blocks, the first at", r.read_error_count);
        for (std::size_t i = 0; i < std::min<std::size_t>(r.read_errors.size(), 8); ++i) out += fmt::format(" {}", r.read_errors[i]);
        out += r.read_errors.size() > 8 ? " ...\n" : "\n";
    }
    return out;
}

nlohmann::ordered_json scrub_document(const std::string& target, const ScrubResult& r)
{
    nlohmann::ordered_json doc;
    doc["tool"] = "mmc-probe";
    doc["version"] = mmc::version;
    doc["command"] = "scrub";
    doc["target"] = target;
    doc["interrupted"] = r.interrupted;
    doc["bytes_read"] = r.bytes_read;
    doc["read_seconds"] = r.read_seconds;
    doc["mb_s"] = mb_s(r);
    doc["median_us"] = r.median_us;
    auto& regions = doc["regions"] = nlohmann::ordered_json::array();
    for (const ScrubRegion& g : r.regions)
        regions.push_back({{"offset", g.offset}, {"size", g.size}, {"p50_us", g.p50_us}, {"p99_us", g.p99_us}});
    auto& slow = doc["slow_regions"] = nlohmann::ordered_json::array();
    for (const SlowRegion& s : r.slow_regions) slow.push_back({{"offset", s.offset}, {"size", s.size}, {"factor", s.factor}});
    auto& errors = doc["read_errors"] = nlohmann::ordered_json::array();
    for (uint64_t offset : r.read_errors) errors.push_back({{"offset", offset}});
    doc["read_error_count"] = r.read_error_count;
    return doc;
}

int scrub_exit_status(const ScrubResult& r) { return r.read_error_count ? 16 : 0; }

} // namespace mmc::probe
