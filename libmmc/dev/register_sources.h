// Gather a card's register images from every source that can give them, and
// record which one did: live ioctls first (current, complete), then sysfs and
// debugfs (what the kernel read at initialisation). Where an ioctl fails the
// fallback is taken and a note says why. One rule per source, for every tool:
//  - CID, CSD: CMD9/CMD10 (between CMD7 deselect and reselect), else sysfs;
//  - OCR: sysfs (the card answers it only during initialisation);
//  - SCR: ACMD51, else sysfs; SSR: ACMD13, else sysfs unless all zeros
//    (Linux keeps a zeroed copy when its own ACMD13 failed: no facts there);
//  - switch status: CMD6 mode 0 (query only); EXT_CSD: CMD8, else debugfs;
//  - card status: CMD13, else debugfs.
#pragma once

#include "dev/card.h"
#include "regs/card_registers.h"

#include <string>
#include <vector>

namespace mmc::dev {

struct SourceOptions {
    bool use_ioctl = true; // --no-ioctl: sysfs and debugfs only
};

// commands_error when the caller asked for no card commands (use_ioctl false).
inline constexpr const char* commands_off = "card commands turned off";
// commands_error when the roots are a fixture tree: no card to talk to.
inline constexpr const char* commands_on_fixture = "fixture tree";

struct RegisterGathering {
    std::vector<regs::RawRegister> registers;
    std::vector<std::string> notes; // "ssr: ACMD13 failed (Operation not permitted); sysfs used"
    // A register copy found all zeros and not used (the kernel's sysfs SSR
    // of a card it never asked, e.g. a 6.1 kernel on some hosts): a fact
    // callers act on, so not left to the wording of a note.
    std::vector<std::string> zero_copies; // "ssr from sysfs"
    // Whether card commands get through at all (CMD13 answered), and if not
    // why: raw erase commands need the same channel.
    bool commands_work = false;
    std::string commands_error; // commands_off, commands_on_fixture, "Operation not permitted"
    int commands_errno = 0;     // EPERM/EACCES: not root (CAP_SYS_RAWIO)
};

RegisterGathering gather_registers(const Card& card, const SysRoots& roots, const SourceOptions& options);

} // namespace mmc::dev
