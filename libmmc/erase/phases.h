// erase::execute as phases over a device passed in: erase the aligned
// chunks, zero the edges, verify. Each phase reads the Report the one before
// left and adds to it, and none starts after a stop or a failure, so an
// interrupted or failed erase leaves one contiguous erased range. The real
// device (erase/open_device.h) opens the card exclusively; tests drive the
// same phases with a fake one.
#pragma once

#include "erase/erase.h"

#include <functional>

namespace mmc::erase {

// What the phases do to the device.
class EraseDevice {
public:
    virtual ~EraseDevice() = default;
    // Erases whole erase units, one chunk at a time (throws ExecError).
    virtual Executor& executor() = 0;
    // Around raw card commands, which bypass the page cache; warnings say
    // what could not be flushed.
    virtual void flush_cache(std::vector<std::string>& warnings) = 0;
    // Zeroes an unaligned head or tail (throws ExecError).
    virtual void zero(const Extent& extent, uint64_t logical_block) = 0;
    virtual VerifyReport verify(const std::vector<Segment>& segments, const std::vector<Extent>& chunks, VerifyMode mode,
                                uint64_t logical_block, const std::atomic<bool>& stop) = 0;
};

// Seconds from an arbitrary start: the steady clock in the tools, a
// counter in the tests.
using Seconds = std::function<double()>;
double steady_seconds();

// What the phases share while they run.
struct EraseRun {
    const Prepared& prepared;
    EraseDevice& device;
    const ProgressFn& progress;
    const std::atomic<bool>& stop;
    Seconds seconds;
    Progress done;          // bytes and chunks so far, for the progress hook
    double started = 0;     // seconds() when the first phase began
};

// The bytes the phases will touch: the aligned range and the zeroed edges.
uint64_t bytes_to_erase(const Plan& plan);

// Phase 1: the aligned chunks in order, then the executor's finish(). Stops
// before a chunk once `stop` is set (interrupted) or after one that failed
// (error); `erased` grows by each chunk done.
void erase_chunks(EraseRun& run, Report& report);

// Phase 2: the zeroed head and tail, only when phase 1 ended cleanly; the
// head extends `erased` downwards, the tail upwards.
void zero_edges(EraseRun& run, Report& report);

// What verification reads and expects: the zeroed head, the erased range,
// the zeroed tail, in order. Pure.
std::vector<Segment> verify_segments(const Plan& plan, const Outcome& erased);

// Phase 3: with a verify mode, after a clean erase only; a warning's details
// join the report's warnings.
void verify_erase(EraseRun& run, Report& report);

// All three, with the page cache flushed around raw commands.
Report run_phases(const Prepared& prepared, EraseDevice& device, const ProgressFn& progress,
                  const std::atomic<bool>& stop, Seconds seconds = steady_seconds);

} // namespace mmc::erase
