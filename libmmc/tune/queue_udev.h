// mmc-tune queue's persistent form: a udev rule that sets the chosen
// scheduler and read-ahead on THIS device whenever it appears, matched by
// what identifies it across reboots and renumbering, never by its kernel
// name (mmcblk0 today may be mmcblk1 tomorrow):
//   - an MMC/SD card: its CID, ATTRS{cid} on the card's device above the
//     disk (the serial, name, manufacturer and date are in it), the user
//     area only (not the eMMC boot partitions);
//   - another disk: udev's ID_SERIAL or ID_WWN (a USB reader's is the
//     reader's: any card in it matches, which the scope says);
//   - a loop device (a simulated card): its backing file, whichever loopN
//     it is attached as.
// Nothing that identifies the device stably: no rule, and the reason.
#pragma once

#include "dev/disk_identity.h"
#include "tune/queue_race.h"

#include <optional>
#include <string>
#include <vector>

namespace mmc::tune {

struct RuleKey {
    std::string key;   // "ATTRS{cid}", "ENV{ID_SERIAL}", "ATTR{loop/backing_file}", "KERNEL"
    std::string op;    // "==", "!="
    std::string value;
};

struct DeviceMatch {
    std::vector<RuleKey> keys;
    std::string what;  // "the card's CID (SD16G, serial 0x1234abcd)"
    std::string scope; // what else it matches, and what it does not
    std::string name;  // the rule file's distinguishing part: "cid-0353...", "loop-5f3a9c01"
};

// How the device is matched; nullopt and `why` when nothing identifies it
// stably or a value could not be matched exactly (a udev match value is a
// glob: *, ?, [, | and quotes cannot be written literally).
std::optional<DeviceMatch> device_match(const dev::DiskIdentity& id, bool is_card, std::string& why);

// The rule: a comment naming the device and the measurement, then one line
// (ACTION add|change, block disks, the match keys, the two ATTR{} writes).
std::string udev_rule(const DeviceMatch& match, const QueueSetting& setting, const std::string& comment);

// "60-mmckit-queue-<name>.rules": before 99-default's and after the
// distribution's 60-block.rules, so ours is the last word.
std::string rule_file_name(const DeviceMatch& match);

} // namespace mmc::tune
