// `mmc-probe geometry` on a device, for any tool: the ladder read and
// analyzed, the card's register claims beside it, and when asked the
// open-AU test (or what a dry run of it would write). No options, prompts
// or printing: the caller resolves the device, approves the writes and
// shows the report (geometry_view.h). mmc-probe and mmc-qualify call it.
#pragma once

#include "dev/resolver.h"
#include "probe/geometry_view.h"
#include "probe/open_aus.h"
#include "probe/read_timer.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace mmc::probe {

struct GeometryRunOptions {
    unsigned repeats = 3;          // reads per place, the fastest kept
    unsigned positions = 8;        // places per boundary
    bool again_if_unclear = true;  // a second, longer reading when the first is not clear (sampler.h)
    bool open_aus = false;         // also the open-AU test: it writes
    bool dry_run = false;          // instead, a note of what that test would write
    unsigned max_open = 8;         // the open-AU test tries up to this many + 1 AUs
    const std::atomic<bool>* stop = nullptr; // set asynchronously: stop, put back what was written, return interrupted
    std::function<void(const std::string&)> progress; // what it is doing now, one line
    // Asked with the open-AU test's plan and the ladder's geometry (its page
    // and AU known) before the test writes (max_trial 0: the device is too
    // small for it); false: nothing is written and the report has no
    // open-AU result. Absent: the writes are refused.
    std::function<bool(const WritePlan&, const Geometry&)> approve_writes;
};

// The device the ladder reads, as the resolver gave it (Purpose::read),
// with its card identified. Throws cli::UsageError for a partition: the
// boundaries are counted from the whole device's start.
ProbedDevice probed_device(const dev::Device& resolved, const dev::SysRoots& roots, bool use_ioctl);

// Throws std::runtime_error with a whole message (the device's path where it
// helps) when the ladder cannot be read, when the open-AU test has no page
// and AU to work with, or when it fails (the message then says the blocks
// written were put back unless said otherwise).
// The device's two seams (a unit test hands it a simulated card): `reader`
// times the ladder's reads; `open_writer` opens the device for the open-AU
// test's writes, called only when that test runs (a block device is then
// opened exclusively, so no sooner).
GeometryReport probe_geometry(const ProbedDevice& device, ReadTimer& reader,
                              const std::function<std::unique_ptr<WriteDevice>()>& open_writer, const GeometryRunOptions& options);
// The same on device.path: BlockReadTimer and BlockWriteDevice.
GeometryReport probe_geometry(const ProbedDevice& device, const GeometryRunOptions& options);

} // namespace mmc::probe
