// Erasing a range of an SD/MMC card (or, with any_device, any block device):
// the API mmc-erase and mmc-bench share. device_to_erase() finds the
// device and checks it is safe to touch; prepare() chooses the method and plans the work without
// touching anything; execute() does it chunk by chunk, stopping between
// chunks when `stop` becomes true, then verifies (the phases of
// erase/phases.h on the device opened by erase/open_device.h). erase_range()
// is both.
#pragma once

#include "erase/device.h"
#include "erase/methods.h"
#include "erase/plan.h"
#include "dev/block_safety.h"
#include "dev/contents.h"
#include "erase/verify.h"

#include <atomic>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::erase {

struct Options {
    bool zero_unaligned = false; // zero the head and tail outside whole erase units
    bool any_device = false;     // accept a block device that is not on an MMC host
    bool use_ioctl = true;       // card commands for registers and raw methods
    uint64_t max_chunk = 0;      // at most this many bytes per chunk (0: the method's own bound)
    std::optional<uint64_t> au_bytes; // the AU: for cards whose registers give none, or to override them
    std::string au_source = "the caller"; // where au_bytes came from, as the plan names it (mmc-erase: its option)
    VerifyMode verify = VerifyMode::none;
    dev::SysRoots roots;         // sysfs, debugfs, /dev
    dev::SafetyRoots safety; // /proc for the in-use checks (sysfs is roots.sysfs)
};

// Nothing was touched: the device is unsafe, the method is not supported by
// the card's registers, the range holds no whole erase unit, or the device
// cannot be opened exclusively. what() says why, the remedy what to do.
struct Refused : cli::Error {
    explicit Refused(const std::string& what, cli::Remedy r = cli::Remedy::none)
        : cli::Error(cli::ErrorKind::failure, what, r) {}
};

// Everything decided before anything is destroyed.
struct Prepared {
    std::string device;   // as given
    Target target;
    Selection selection;  // the method and why
    EraseUnit unit;
    Plan plan;
    bool au_aligned = false; // the plan's unit is the AU: whole AUs come back clean
    PartialAus partial;      // with au_aligned: what the edges leave unclean
    Outcome outcome;      // what the erased range should read back as
    std::string command;  // "BLKDISCARD", "CMD32/CMD33 CMD38 ERASE (0x0), block addresses"
    std::vector<std::string> warnings;
    std::vector<dev::Volume> contents; // what is on the range now (the plan shows it before anything goes)
    Options options;
};

struct Progress {
    uint64_t done_bytes = 0, total_bytes = 0;
    std::size_t chunks_done = 0, chunks_total = 0;
    double seconds = 0;
};
using ProgressFn = std::function<void(const Progress&)>;

// What a timed piece of the erase was: an aligned chunk, or a zeroed edge.
enum class ChunkKind { chunk, head, tail };
std::string_view to_string(ChunkKind k); // "chunk", "head", "tail" (the JSON's "what")

struct ChunkTime {
    Extent extent;
    double seconds = 0;
    ChunkKind kind = ChunkKind::chunk;
};

struct Report {
    Prepared prepared;
    std::vector<ChunkTime> chunks; // what was done, in order
    Extent erased;                 // contiguous: exactly what was destroyed
    bool interrupted = false;
    std::string error;             // set when a chunk failed (erased says how far it got)
    std::optional<VerifyReport> verify;
    std::vector<std::string> warnings;
    double seconds = 0;            // erase time (not verification)
};

// The device a name leads to, resolved for erasing and allowed (not in use;
// a card, or any block device with options.any_device). Throws TargetError
// with the resolver's words, less the name, which the caller puts first.
dev::Device device_to_erase(const std::string& typed, const Options& options);

// The plan for a device device_to_erase gave and its card as dev::identify
// gave it (nullptr: no card), so a caller that resolved and identified once
// can plan again (mmc-erase --au measure) without reading the card again.
// Throws Refused, PlanError (a bad range: a usage error).
Prepared prepare(const dev::Device& device, const dev::Identified* card, const Range& range, Method method,
                 const Options& options);
// The same from a name, for callers holding no record yet: resolves and
// identifies through dev/ once, then plans. Also throws TargetError (no such
// device, not a card without any_device, in use: mounted, swap, held).
Prepared prepare(const std::string& device, const Range& range, Method method, const Options& options);

// Throws Refused when the device cannot be opened exclusively; failures
// after that are in Report::error.
Report execute(const Prepared& prepared, const ProgressFn& progress, const std::atomic<bool>& stop);

Report erase_range(const std::string& device, const Range& range, Method method, const Options& options,
                   const ProgressFn& progress, const std::atomic<bool>& stop);

} // namespace mmc::erase
