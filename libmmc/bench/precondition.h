// The card's state before the jobs: as found (none), erased, or filled
// (the region written sequentially once). Recorded with every result:
// flash cards are faster when erased and slower once every block is mapped.
#pragma once

#include "bench/clock.h"
#include "bench/job.h"
#include "bench/target.h"
#include "dev/sysfs.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>

namespace mmc::bench {

enum class PreconditionMethod { none, erase, fill };
std::optional<PreconditionMethod> parse_precondition(std::string_view text);
std::string_view to_string(PreconditionMethod m);

struct PreconditionResult {
    PreconditionMethod method = PreconditionMethod::none;
    std::string how;   // "BLKDISCARD", "sequential 4 MiB writes"
    Region region;
    double seconds = 0;
    double mb_s = 0;   // fill only
    bool partial = false;
    std::string error;
};

struct PreconditionControl {
    const Clock* clock = nullptr;
    const std::atomic<bool>* stop = nullptr;
    std::function<void(uint64_t done, uint64_t total)> progress;
    bool any_device = false;   // erase: accept a block device that is not a card
    dev::SysRoots roots;       // erase: where the device is found
};

// Fills `region` of `target` (opened for writing) with fresh data, written
// sequentially once.
PreconditionResult fill_region(Target& target, const Region& region, const PreconditionControl& control);

// Erases `region` of the block device `device` with libmmc/erase (the
// card's own ERASE where its registers allow, else discard, else zeroout:
// mmc-erase's automatic choice). The caller must not hold the device open
// with O_EXCL: the erase opens it exclusively itself.
PreconditionResult erase_region(const std::string& device, const Region& region, const PreconditionControl& control);

} // namespace mmc::bench
