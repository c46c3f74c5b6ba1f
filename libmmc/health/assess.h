// One card's health, from everything gathered about it: the registers, the
// CMD56 blocks read per layout, the host's facts. Pure: dev/ gathers, this
// decides, out/ shows.
#pragma once

#include "health/canary_result.h"
#include "health/layouts.h"
#include "health/verdict.h"
#include "health/writability.h"
#include "regs/card_registers.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::health {

// What one layout's CMD56 commands returned, or why they did not.
struct Cmd56Read {
    std::string layout;             // a cmd56_layouts() name
    std::vector<Cmd56Block> blocks; // one per read argument that answered
    std::string error;              // the command failed: "CMD56: Connection timed out"
};

struct HealthInput {
    regs::CardRegisters registers; // cid, csd, ext_csd, ssr, status as far as known
    std::vector<Cmd56Read> cmd56;
    HostFacts host;
};

// A source tried that gave no reading, and why.
struct NoData {
    std::string source; // "cmd56:sandisk", "ext_csd", "ssr:swissbit"
    std::string why;
};

struct HealthReport {
    Judgement judgement;
    std::vector<Reading> readings;
    std::vector<NoData> no_data;
    Writability writability;
    // The RPMB partition's size (RPMB_SIZE_MULT x 128 KiB), when the EXT_CSD
    // was read: a secure-storage product needs it, and it never changes.
    std::optional<uint64_t> rpmb_bytes;
    std::vector<std::string> notes; // "no health data known for this card (MID 0x.., OID ..)"
    std::optional<CanaryResult> canary; // with --canary (apply_canary)
};

HealthReport assess(const HealthInput& input);

// The CMD56 layouts to read from a card: the one asked for (--layout), else
// the CID table's rows for it; none without a CID. Never a guess.
std::vector<const Layout*> layouts_to_read(const regs::CardRegisters& registers, std::optional<std::string_view> forced);

} // namespace mmc::health
