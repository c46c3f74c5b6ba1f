// The erase plan: which bytes a request covers, how they line up with the
// device's erase unit, what happens to the unaligned head and tail, and the
// chunks the work proceeds in. Pure: numbers in, a plan out, no device.
#pragma once

#include "cli/errors.h"

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::erase {

// How a range is destroyed. Block-layer methods go through the kernel's
// ioctls; the others are raw card commands through MMC_IOC_MULTI_CMD.
enum class Method {
    automatic,    // "auto": the best the card and host support (see select_method)
    discard,      // BLKDISCARD
    secure,       // BLKSECDISCARD
    zeroout,      // BLKZEROOUT
    erase,        // SD CMD32/33/38 or eMMC CMD35/36/38, argument ERASE (0)
    sd_discard,   // SD CMD38 DISCARD (1)
    fule,         // SD CMD38 FULE (2): the whole user area
    trim,         // eMMC CMD38 TRIM (0x1)
    emmc_discard, // eMMC CMD38 DISCARD (0x3)
    secure_erase, // eMMC CMD38 0x80000000
    secure_trim,  // eMMC CMD38 0x80000001 then 0x80008000
    sanitize,     // eMMC: TRIM (or ERASE) the range, then CMD6 SANITIZE_START
};

std::string_view to_string(Method m); // "auto", "discard", ..., "emmc-discard"
std::optional<Method> method_from_string(std::string_view name);
std::span<const Method> all_methods(); // every method but auto, in the order above
bool is_block_layer(Method m);         // discard, secure, zeroout
bool is_raw(Method m);                 // the card-command methods

// A byte range [offset, offset + length).
struct Extent {
    uint64_t offset = 0;
    uint64_t length = 0;
    uint64_t end() const { return offset + length; }
    bool empty() const { return length == 0; }
    friend bool operator==(const Extent&, const Extent&) = default;
};

// What the user asked for, relative to the named device. No length: to the end.
struct Range {
    uint64_t offset = 0;
    std::optional<uint64_t> length;
};

enum class EdgeAction { none, left_alone, zeroed };
std::string_view to_string(EdgeAction a); // "none", "left alone", "zeroed"

// The part of the range before the first (head) or after the last (tail)
// whole erase unit.
struct Edge {
    Extent extent;
    EdgeAction action = EdgeAction::none;
};

struct PlanInput {
    uint64_t device_bytes = 0;  // size of the named device (a partition or a disk)
    uint64_t device_start = 0;  // its first byte on the disk: units align on the disk
    Range range;
    uint64_t erase_unit = 512;  // alignment in bytes (at least logical_block)
    uint64_t logical_block = 512;
    uint64_t max_chunk = 0;     // at most this many bytes per chunk (0: no bound)
    bool zero_unaligned = false;
};

struct Plan {
    Extent range;   // the request, relative to the device
    Extent aligned; // the whole erase units inside it (may be empty)
    uint64_t erase_unit = 0;
    uint64_t chunk_bytes = 0; // the chunk size used (a multiple of erase_unit)
    Edge head, tail;
    std::vector<Extent> chunks; // cover `aligned` in order, each a multiple of erase_unit
};

// A request that cannot be planned (zero length, outside the device); the
// message says which and why: a usage error (cli/errors.h).
struct PlanError : cli::Error {
    explicit PlanError(const std::string& message) : cli::Error(cli::ErrorKind::usage, message) {}
};

Plan make_plan(const PlanInput& in);

// Whether a method leaves the flash it covers erased (discarded, trimmed,
// erased): then aligning to the AU decides which AUs come back clean. Not
// zeroout (it writes) nor FULE (the whole user area at once).
bool restores_clean(Method m);

// The cost of a plan's edges when its unit is the AU: the AUs the request
// touches without covering them whole, and the bytes of the request inside
// them, which the erase leaves as they were (not restored to the clean
// state; their next write still merges the AU's old data).
struct PartialAus {
    unsigned count = 0;   // 0, 1 or 2 (one AU holding both edges counts once)
    uint64_t bytes = 0;   // of the request, in those AUs
};
PartialAus partial_aus(const Plan& plan, uint64_t device_start = 0);

// The chunk size for a unit and a bound: the largest multiple of unit not
// above max_chunk, at least one unit (max_chunk 0: unbounded, returns 0).
uint64_t chunk_size(uint64_t unit, uint64_t max_chunk);

} // namespace mmc::erase
