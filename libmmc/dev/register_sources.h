// Gather a card's register images from every source that can give them, and
// record which one did: live ioctls first (current, complete), then sysfs and
// debugfs (what the kernel read at initialisation; the SSR there can be stale
// or zero). Where an ioctl fails the fallback is taken and a note says why.
#pragma once

#include "dev/card.h"
#include "regs/card_registers.h"

#include <string>
#include <vector>

namespace mmc::dev {

struct SourceOptions {
    bool use_ioctl = true; // --no-ioctl: sysfs and debugfs only
};

struct RegisterGathering {
    std::vector<regs::RawRegister> registers;
    std::vector<std::string> notes; // "ssr: ACMD13 failed (Operation not permitted); sysfs used"
};

RegisterGathering gather_registers(const Card& card, const SysRoots& roots, const SourceOptions& options);

} // namespace mmc::dev
