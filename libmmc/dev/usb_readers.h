// Every USB card reader's slot on the machine: the disks whose
// USB facts make them a reader (dev/usb_storage.h), for the lists that name
// every card (mmc-info without arguments).
#pragma once

#include "dev/usb_storage.h"

#include <cstdint>
#include <vector>

namespace mmc::dev {

struct ReaderSlot {
    UsbStorage usb;
    std::string device;      // "/dev/sdb"
    uint64_t capacity_bytes = 0;
};

// The reader slots among <sysfs>/block's disks, by name.
std::vector<ReaderSlot> list_reader_slots(const SysRoots& roots);

} // namespace mmc::dev
