// What identifies a disk across reboots and renumbering, for a udev rule
// that must match this device and no other (mmc-tune queue): a card's CID
// and its name and serial (sysfs, on the card's device: ATTRS{cid}), else
// what udev itself recorded (ID_SERIAL, ID_WWN in its database), else a
// loop device's backing file. Read here, in dev/, through SysRoots.
#pragma once

#include "dev/resolver.h"

#include <string>

namespace mmc::dev {

struct DiskIdentity {
    std::string cid;               // a card's sysfs cid (32 hex digits)
    std::string card_name;         // its sysfs name ("SD16G")
    std::string card_serial;       // its sysfs serial ("0x1234abcd")
    std::string id_serial;         // udev's ID_SERIAL (a USB disk or reader, SATA, NVMe)
    std::string id_wwn;            // udev's ID_WWN
    std::string loop_backing_file; // a loop device's loop/backing_file
};

DiskIdentity read_disk_identity(const Device& device, const SysRoots& roots);

} // namespace mmc::dev
