#include "sim/counters.h"

namespace mmc::sim {

namespace {
nlohmann::json to_json(const RequestCounters& r)
{
    return {{"requests", r.requests}, {"bytes", r.bytes}, {"busy_ns", r.busy_ns}};
}
} // namespace

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
    j["aus"] = {{"total", c.aus.total},
                {"open", c.aus.open},
                {"erased", c.aus.erased},
                {"fragmented", c.aus.fragmented},
                {"valid_pages", c.aus.valid_pages}};
    j["pages_stored"] = c.pages_stored;
    return j;
}

} // namespace mmc::sim
