#include "sim/counters.h"

#include <algorithm>

namespace mmc::sim {

namespace {
nlohmann::json to_json(const RequestCounters& r)
{
    return {{"requests", r.requests}, {"bytes", r.bytes}, {"busy_ns", r.busy_ns}};
}

nlohmann::json to_json(const GcStall& s)
{
    return {{"at_ns", s.at_ns}, {"offset", s.offset}, {"bytes_before", s.bytes_before}, {"ns", s.ns}};
}
} // namespace

void GcStalls::record(const GcStall& s)
{
    ++count;
    total_ns += s.ns;
    if (s.ns > longest.ns) longest = s;
    if (first.size() < kept) first.push_back(s);
}

nlohmann::json to_json(const Counters& c)
{
    nlohmann::json j;
    j["read"] = to_json(c.reads);
    j["write"] = to_json(c.writes);
    j["discard"] = to_json(c.discards);
    j["flush"] = to_json(c.flushes);
    j["busy_ns"] = c.busy_ns;
    j["pages_read"] = c.pages_read;
    j["pages_programmed"] = c.pages_programmed;
    j["pages_copied"] = c.pages_copied;
    j["merges"] = c.merges;
    j["erases"] = c.erases;
    j["au_crossings"] = c.au_crossings;
    j["cache_wait_ns"] = c.cache_wait_ns;
    j["limbo_bytes_written"] = c.limbo_bytes_written;
    j["limbo_bytes_read"] = c.limbo_bytes_read;
    j["blocks_made_free"] = c.blocks_made_free;
    j["slc_cache"] = {{"bytes_cached", c.slc.bytes_cached},
                      {"bytes_native", c.slc.bytes_native},
                      {"bytes_folded", c.slc.bytes_folded},
                      {"used_bytes", c.slc.used_bytes},
                      {"first_full_at_bytes", c.slc.first_full_at_bytes ? nlohmann::json(c.slc.first_full_at_bytes) : nlohmann::json(nullptr)}};
    nlohmann::json list = nlohmann::json::array();
    for (const auto& s : c.gc_stalls.first) list.push_back(to_json(s));
    j["gc_stalls"] = {{"count", c.gc_stalls.count},
                      {"total_ns", c.gc_stalls.total_ns},
                      {"longest", c.gc_stalls.count ? to_json(c.gc_stalls.longest) : nlohmann::json(nullptr)},
                      {"kept", GcStalls::kept},
                      {"first", std::move(list)}};
    j["aus"] = {{"total", c.aus.total},
                {"open", c.aus.open},
                {"erased", c.aus.erased},
                {"fragmented", c.aus.fragmented},
                {"valid_pages", c.aus.valid_pages}};
    // Erase counts as runs of neighbouring blocks with the same count: a
    // large card's thousands of blocks stay a few lines while most are alike.
    nlohmann::json runs = nlohmann::json::array();
    const auto& counts = c.wear.erase_counts;
    uint64_t most = 0;
    for (std::size_t i = 0; i < counts.size();) {
        std::size_t end = i;
        while (end < counts.size() && counts[end] == counts[i]) ++end;
        runs.push_back({{"block", i}, {"blocks", end - i}, {"erases", counts[i]}});
        most = std::max(most, counts[i]);
        i = end;
    }
    j["wear"] = {{"erase_counts", std::move(runs)},
                 {"max_erases", most},
                 {"read_retries", c.wear.read_retries},
                 {"read_errors", c.wear.read_errors},
                 {"remapped_blocks", c.wear.remapped_blocks},
                 {"spare_blocks_left", c.wear.spare_blocks_left},
                 {"end_of_life", c.wear.end_of_life},
                 {"lost_writes", c.wear.lost_writes},
                 {"lost_write_bytes", c.wear.lost_write_bytes},
                 {"refused_writes", c.wear.refused_writes}};
    j["pages_stored"] = c.pages_stored;
    return j;
}

} // namespace mmc::sim
