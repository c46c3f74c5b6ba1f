// The erase methods' facts, one row per method (as fio keeps an engine's
// facts in one record): its name, whether it goes through the block layer
// or sends card commands, which card family it is for, what it asks of the
// card's registers, the unit it aligns to, how it is chunked, what it
// leaves behind and what it sends. The functions of methods.h and plan.h
// read their answers here; adding a method is adding a row.
#pragma once

#include "erase/methods.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::erase {

// Where a method works: the choice among the others (auto), the kernel's
// block-layer ioctls, or raw card commands (CMD38 and friends).
enum class Layer { choice, block, card };

// The unit a method aligns to (erase_unit).
enum class UnitRule {
    discard_granularity, // queue/discard_granularity, else the logical block
    logical_block,
    whole_area,          // the logical block: the method takes the whole user area (FULE)
    card,                // the card's own: SSR AU_SIZE or preferred_erase_size (SD), the erase group (eMMC)
};

// The largest chunk a method is given at once (chunk_limit).
enum class ChunkRule {
    discard_max, // queue/discard_max_bytes, bounded so Ctrl-C is answered promptly
    zeroout,     // write-zeroes offload, or the kernel writing zero pages
    whole_area,  // one command for the whole user area (0: no chunks)
    prompt,      // only the prompt bound
    card_busy,   // discard_max_hw_bytes (the host's busy timeout), bounded
};

struct MethodFacts {
    Method method;
    std::string_view name; // as typed: "auto", "sd-discard"
    Layer layer;
    // Card methods of one family: SD (sd-discard, fule) or eMMC (trim,
    // emmc-discard, secure-*, sanitize); none: both, or not a card method.
    std::optional<regs::CardFamily> family = std::nullopt;
    // Block methods: the ioctl, its name, and what a device without it lacks.
    unsigned long ioctl = 0;
    std::string_view ioctl_name = {};
    std::string_view unsupported = {};
    // Card methods: the CMD38 arguments, in order, for this card.
    std::vector<uint32_t> (*cmd38_args)(const Capabilities& caps) = nullptr;
    bool sanitize_after = false; // CMD6 SANITIZE_START after the last chunk
    // Why the card or the block queue rules the method out, from what this
    // method alone needs (the checks all card methods share are refusal's);
    // nullopt when it may be used.
    std::optional<std::string> (*refuse)(const Capabilities& caps, bool whole_device) = nullptr;
    UnitRule unit;
    ChunkRule chunk;
    // What it leaves: `o` comes with the card's declared erased byte and
    // `reg`, the register that declares it; the method sets the rest.
    void (*outcome)(Outcome& o, const Capabilities& caps, const std::string& reg);
    // Whether a later erase returns the range to the card's clean state
    // (restores_clean in plan.h).
    bool restores_clean;
};

// The row of `m`; every Method has one.
const MethodFacts& facts(Method m);
// Every row, auto first, in the order of the Method enum.
const std::vector<MethodFacts>& method_table();

} // namespace mmc::erase
