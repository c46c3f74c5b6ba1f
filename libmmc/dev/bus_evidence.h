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

// A device-tree node directory: the live /proc/device-tree/... or a copy of
// one (cp -r). The vqmmc regulator is found by its phandle when the copy
// holds the whole tree. Throws std::runtime_error when `node_dir` is no
// directory; `shown_as` names it in messages and in DeviceTree::source.
bus::DeviceTree read_device_tree_dir(const fs::path& node_dir, const std::string& shown_as);

} // namespace mmc::dev
