// Gather what the bus doctor needs about one host from the live system (or a
// fixture tree): ios and caps from debugfs, the controller's device-tree
// properties, the kernel's card message, and the card's own capabilities
// from its decoded registers.
#pragma once

#include "bus/doctor.h"
#include "dev/card.h"
#include "regs/card_registers.h"

namespace mmc::dev {

// `kernel_version` empty: uname's release on the live system.
bus::Evidence gather_bus_evidence(const Host& host, const Card* card, const regs::CardRegisters* registers,
                                  const SysRoots& roots, std::string kernel_version = {});

// Device-tree properties of a controller (its of_node), when it has one.
std::optional<bus::DeviceTree> read_device_tree(const Controller& controller);

// The kernel's "mmcN: new ... card at address RRRR" line for a host, from the
// kernel log (needs root or kernel.dmesg_restrict=0); empty when unreadable.
std::string kernel_card_message(const std::string& host);

} // namespace mmc::dev
