// CMD56 (GEN_CMD), the general-purpose command vendors answer with health
// reports: 512-byte data reads, and for the one layout that needs it a
// 512-byte write of zeros first. Sent only for a layout the caller chose
// (health/cid_table); never CMD62/CMD63 (SanDisk and Samsung eMMC vendor
// modes, reported to hang cards). Every command has a timeout; a command
// that times out or finds the card gone is reported, not retried.
#pragma once

#include "dev/mmc_ioctl.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::dev {

struct GenCmdBlock {
    uint32_t arg = 0;
    std::vector<uint8_t> bytes;
};

struct GenCmdAnswer {
    std::vector<GenCmdBlock> blocks; // one per read that answered, in order
    std::string error;               // the first failure: "CMD56 (arg 0x00000001): Connection timed out"
    bool card_stopped = false;       // timed out or gone: send it nothing more
};

// Command and data timeouts: a health read is one block from the
// controller's RAM; a second is long for it and short for a person.
inline constexpr unsigned gen_cmd_timeout_ms = 1000;

// The optional write, then each read, on an open channel; stops at the first
// failure.
GenCmdAnswer gen_cmd_exchange(MmcChannel& channel, std::optional<uint32_t> write_arg,
                              const std::vector<uint32_t>& read_args);

} // namespace mmc::dev
