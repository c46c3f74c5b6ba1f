// A block device on USB mass storage, and whether it is a card reader's slot.
// Read from sysfs by walking up from the disk to its USB
// interface and device (.../usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb)
// and from udev's database; pure over SysRoots, so fixture trees
// (tests/data/sysfs/usb*) stand in for the machine.
//
// A reader is recognised by any of, each recorded as the basis:
//  - its USB ID in the reader table (dev/usb_reader_table.h),
//  - udev's flash-media drive tags (ID_DRIVE_FLASH_SD, _MS, _CF, _SM, ... set by
//    udisks2's 80-udisks2.rules for known reader models),
//  - a SCSI model or USB product naming a reader ("SD/MMC", "Card Reader", "Multi-Card").
// Anything else on USB mass storage is a USB disk or stick, not a reader.
#pragma once

#include "bus/usb_link.h"
#include "dev/sysfs.h"
#include "dev/usb_reader_table.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::dev {

struct UsbStorage {
    std::string disk;                  // "sdb"
    fs::path usb_device;               // .../usb2/2-1
    fs::path interface;                // .../usb2/2-1/2-1:1.0
    std::string vid, pid;              // "05e3", "0723"
    std::string manufacturer, product; // the USB strings, trimmed
    std::string scsi_vendor, scsi_model; // INQUIRY data, trimmed
    std::string driver;                // "usb-storage", "uas"
    int interface_class = -1;          // 8: mass storage
    int interface_protocol = -1;       // 0x50 bulk-only, 0x62 UAS
    std::optional<double> speed_mbit;  // the negotiated link: 1.5, 12, 480, 5000, 10000, 20000
    bool removable = false;
    bool medium_present = true;        // false: an empty slot (size 0)
    std::vector<std::string> flash_slots; // udev ID_DRIVE_FLASH_*: "SD", "MS", "CF", ...
    std::vector<std::string> flash_media; // udev ID_DRIVE_MEDIA_FLASH_*: what is in the slot
    const ReaderChip* chip = nullptr;  // its row in the reader table
    bool reader = false;
    std::vector<std::string> basis;    // why it is a reader, one line per reason

    bus::UsbTransport transport() const;
    std::string link() const;          // "USB 2.0", or "USB" when the speed is unknown
    std::string usb_id() const;        // "05e3:0723"
    // "Genesys Logic GL827L", "Genesys Logic SD Card Reader and Writer",
    // else the USB strings, else the SCSI ones, else the USB ID.
    std::string model() const;
};

// The USB mass-storage facts of a disk (its sysfs directory, resolved);
// nullopt when it is not on USB.
std::optional<UsbStorage> read_usb_storage(const fs::path& disk_syspath, const SysRoots& roots);

// udev's database file for a device: "E:KEY=VALUE" lines become KEY -> VALUE;
// every other line (S:, L:, W:, I:, G:) is ignored. Outside input: fuzzed.
std::map<std::string, std::string> parse_udev_properties(std::string_view text);

// Whether a SCSI model or USB product string names a card reader.
bool names_a_reader(std::string_view text);

// The device in words, wherever a tool names it:
//   "sdb: SD card in a USB 2.0 reader (Genesys Logic GL827L, usb-storage)"
//   "sdb: empty slot of a USB 2.0 reader (Genesys Logic GL827L, usb-storage): no card in the reader"
//   "sdb: USB disk, not a card reader (SanDisk 3.2Gen1, 0781:5581, USB 3.0, usb-storage)"
std::string describe_usb(const UsbStorage& usb);
// The card in a reader's slot, without the disk's name, with its article:
// "an SD card in a USB 2.0 reader (Genesys Logic GL827L, usb-storage)".
std::string reader_card_words(const UsbStorage& usb);
// The reader alone, with its article: "a USB 2.0 reader (Genesys Logic GL827L, usb-storage)".
std::string reader_words(const UsbStorage& usb);
// A USB disk that is no reader, without its name:
// "USB disk, not a card reader (SanDisk 3.2Gen1, 0781:5581, USB 3.0, usb-storage)".
std::string usb_disk_words(const UsbStorage& usb);

} // namespace mmc::dev
