#include "sim/command_joiner.h"

#include "sim/timing.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace mmc::sim {

uint64_t CommandJoiner::read(uint64_t offset, std::span<uint8_t> out, uint64_t arrival_ns)
{
    const uint64_t settled = settle(arrival_ns);
    const bool continues =
        read_end_ && *read_end_ == offset && offset - read_command_start_ < host_request_bytes;
    if (!continues) read_command_start_ = offset;
    read_end_ = offset + out.size();
    const uint64_t done = continues ? card_.read_on(offset, out, arrival_ns) : card_.read(offset, out, arrival_ns);
    return std::max(done, settled);
}

uint64_t CommandJoiner::write(uint64_t offset, std::span<const uint8_t> data, uint64_t arrival_ns)
{
    read_end_.reset();
    uint64_t done = arrival_ns;
    if (!run_.empty() && offset != run_offset_ + run_.size()) done = settle(arrival_ns);
    if (run_.empty()) {
        run_offset_ = offset;
        run_arrival_ = arrival_ns;
        bus_free_ = arrival_ns;
    }
    run_.insert(run_.end(), data.begin(), data.end());
    bus_free_ = std::max(bus_free_, arrival_ns) + bus_ns(card_.params().timing, data.size());
    done = std::max(done, bus_free_);
    if (run_.size() >= host_request_bytes) done = std::max(done, settle(arrival_ns));
    return done;
}

uint64_t CommandJoiner::discard(uint64_t offset, uint64_t length, uint64_t arrival_ns)
{
    settle(arrival_ns);
    read_end_.reset();
    return card_.discard(offset, length, arrival_ns);
}

uint64_t CommandJoiner::flush(uint64_t arrival_ns)
{
    settle(arrival_ns);
    read_end_.reset();
    return card_.flush(arrival_ns);
}

uint64_t CommandJoiner::settle(uint64_t arrival_ns)
{
    if (run_.empty()) return arrival_ns;
    // The card takes the run as one command from its first sector's
    // arrival: its command, bus and flash time, after whatever it was busy with.
    // Taken out first: a worn card may refuse it (RequestFailed), and the
    // run must not be offered again with the next request.
    const std::vector<uint8_t> run = std::exchange(run_, {});
    const uint64_t done = card_.write(run_offset_, run, run_arrival_);
    return std::max(done, arrival_ns);
}

} // namespace mmc::sim
