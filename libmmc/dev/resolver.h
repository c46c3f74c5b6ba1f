// The one way a tool turns what the user typed into a device and learns
// whether it may be used for what it wants: /dev/mmcblk0, mmcblk0, mmcblk0p1,
// mmcblk0boot0, mmc0 (a host: its card), mmc0:aaaa (a card), a sysfs path, any
// block device path or a symlink to one (/dev/disk/by-id/...). The answer is
// the disk, the partition and its bounds, the card behind it when it is on an
// MMC host, the USB reader it is in when it is a USB card reader's slot (a
// card, as far as safety goes: allowed without any_device, with the same
// checks), and the verdict for the purpose, with the remedy when refused.
//
// Every failure is worded here, once, keeping the name as the user typed it:
//   "/dev/mmcblk9: no such device"
//   "/tmp: not a block device"
//   "/dev/sda: not an MMC/SD device: sda is on USB (a card reader? ...)"
//   "/dev/sdb: not an MMC/SD device: sdb is a USB disk, not a card reader (...)"
//   "/dev/sdb: no card in the reader: sdb: empty slot of a USB 2.0 reader (...)"
//   "/dev/loop0: in use: loop0 is mounted on /mnt"
// This file also holds the library's one /sys/dev/block/MAJ:MIN lookup.
#pragma once

#include "cli/errors.h"
#include "dev/block_queue.h"
#include "dev/block_safety.h"
#include "dev/card.h"
#include "dev/usb_storage.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace mmc::dev {

// What the caller will do with the device: it decides what is refused and
// which remedy the refusal offers.
enum class Purpose {
    read,  // read only: any block device will do
    write, // write to it (mmc-bench's write jobs)
    erase, // erase it (mmc-erase, preconditioning)
    probe, // write probe patterns to it (mmc-probe)
};

// A resolved device that may not be used for the purpose, or a name that
// resolves to none. A failure (exit 1); the remedy, if any, by meaning.
struct DeviceError : cli::Error {
    enum class Why {
        not_found, // no such device, path, host or card
        not_block, // exists, but is not a block device (a directory, a file, /dev/null)
        not_mmc,   // a block device that is not on an MMC host (without any_device)
        no_card,   // an MMC host with an empty slot, or a USB card reader with none
        no_block,  // a card without a block device (SDIO)
        in_use,    // mounted, swap, held by another driver, read-only
    };
    Why why;
    std::string typed;  // the name as the user typed it
    std::string reason; // the message without "typed: " before it
    DeviceError(Why w, std::string typed_name, std::string why_text, cli::Remedy r = cli::Remedy::none);
};

// The verdict of the purpose: allowed, or why not and what would help.
struct Verdict {
    bool allowed = true;
    DeviceError::Why why = DeviceError::Why::not_mmc; // when refused
    std::string reason;                               // "not an MMC/SD device: ...", "in use: ..."
    cli::Remedy remedy = cli::Remedy::none;
    std::vector<SafetyProblem> problems;              // what stands in the way (in_use)
};

struct Device {
    std::string typed;      // as the user typed it: every message names it so
    std::string path;       // the block device node opened: "/dev/mmcblk0p1", or the typed path
    std::string name;       // "mmcblk0p1", "loop0"
    fs::path syspath;       // its sysfs directory, symlinks resolved
    std::string disk;       // "mmcblk0" (itself when it is a disk)
    std::string disk_path;  // "/dev/mmcblk0"
    fs::path disk_syspath;
    bool is_partition = false;
    uint64_t start = 0;     // its first byte on the disk
    uint64_t size = 0;      // bytes
    uint64_t disk_size = 0; // bytes
    std::vector<std::string> siblings; // the disk and its partitions but this one: they share the blocks
    std::optional<Card> card;          // when on an MMC host
    std::optional<UsbStorage> usb;     // when on USB mass storage: a reader's slot (usb->reader) or a USB disk
    std::string not_mmc;    // "loop0 is a loop device" when not on an MMC host
    BlockQueue queue;       // the disk's request queue limits and write cache
    std::string provisioning_mode; // a USB disk's SCSI provisioning_mode ("full", "unmap"); else empty
    bool is_reader_slot() const { return usb && usb->reader; }
    Verdict verdict;

    // Throws the verdict's DeviceError when the purpose is refused.
    void require_allowed() const;
};

struct ResolveOptions {
    SysRoots roots;
    fs::path proc = "/proc";  // the mount and swap tables for the in-use checks
    bool any_device = false;  // a block device not on an MMC host may be written
    bool file_alternative = false; // the tool can measure a file instead: say so to a file or directory
};

// Throws DeviceError for a name that resolves to no block device (not_found,
// not_block, no_card, no_block). A refusal for the purpose (not_mmc, in_use)
// is returned in the verdict: the caller decides when to enforce it.
Device resolve_device(std::string_view typed, Purpose purpose, const ResolveOptions& options);

// The device in words, wherever a tool names it: a reader's slot as
// describe_usb says it ("sdb: SD card in a USB 2.0 reader (Genesys Logic
// GL827L, usb-storage)"), a card as "mmcblk0: SD card SD16G on mmc0", anything
// else by why it is not a card ("loop0 is a loop device").
std::string describe_device(const Device& device);

// The block device a device number names, as its sysfs directory (symlinks
// resolved): the library's one /sys/dev/block/MAJ:MIN lookup. Nothing when
// sysfs has no such device (it is gone, or a fixture tree lacks it).
std::optional<fs::path> block_syspath(dev_t device, const SysRoots& roots);

} // namespace mmc::dev
