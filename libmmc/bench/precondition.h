// The card's state before the jobs: as found (none), erased, filled (the
// region written sequentially once) or fragmented (small writes scattered
// over every AU of the region, the state of a used card). Recorded with every
// result: flash cards are faster when erased and slower once every block is
// mapped, slower still when their data is scattered.
#pragma once

#include "bench/clock.h"
#include "bench/job.h"
#include "bench/target.h"
#include "dev/sysfs.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mmc::bench {

enum class PreconditionMethod { none, erase, fill, fragment };
std::optional<PreconditionMethod> parse_precondition(std::string_view text);
std::string_view to_string(PreconditionMethod m);

struct PreconditionResult {
    PreconditionMethod method = PreconditionMethod::none;
    std::string how;   // "BLKDISCARD", "sequential 4 MiB writes"
    Region region;
    double seconds = 0;
    double mb_s = 0;   // fill only
    uint64_t writes = 0;      // fragment: small writes issued
    uint64_t aus = 0;         // fragment: AUs of the region, each written `passes` times
    unsigned passes = 0;
    bool partial = false;
    std::string error;
};

struct PreconditionControl {
    const Clock* clock = nullptr;
    const std::atomic<bool>* stop = nullptr;
    std::function<void(uint64_t done, uint64_t total)> progress;
    bool any_device = false;   // erase: accept a block device that is not a card
    dev::SysRoots roots;       // erase: where the device is found
    std::optional<uint64_t> au_bytes; // erase: the AU when the registers give none (--au)
};

// Fills `region` of `target` (opened for writing) with fresh data, written
// sequentially once.
PreconditionResult fill_region(Target& target, const Region& region, const PreconditionControl& control);

// The fragment precondition's writes: `passes` rounds over the AUs of
// `region`, one `block`-byte write at a random block inside each AU (never
// its first block, so no write extends an in-order log), the AUs in the same
// shuffled order every round. Between two writes to one AU come writes to
// every other AU of the region, so a card that keeps fewer AUs open than the
// region holds must close (merge) an AU at every write: the open AUs are
// defeated whatever their number, up to the region's AU count. Pure; the
// same seed gives the same offsets.
struct FragmentPlan {
    uint64_t au_bytes = 0;
    uint64_t aus = 0;
    unsigned passes = 0;
    uint32_t block = 0;
    std::vector<uint64_t> offsets;
};
inline constexpr unsigned fragment_passes = 2;
inline constexpr uint32_t fragment_block = 4096;
FragmentPlan fragment_plan(const Region& region, uint64_t au_bytes, uint32_t block, unsigned passes, uint64_t seed);

// Issues the fragment plan's writes on `target` (opened for writing), QD1.
PreconditionResult fragment_region(Target& target, const Region& region, uint64_t au_bytes,
                                   const PreconditionControl& control);

// Erases `region` of the block device `device` with libmmc/erase (the
// card's own ERASE where its registers allow, else discard, else zeroout:
// mmc-erase's automatic choice). The caller must not hold the device open
// with O_EXCL: the erase opens it exclusively itself.
PreconditionResult erase_region(const std::string& device, const Region& region, const PreconditionControl& control);

} // namespace mmc::bench
