// What one mmc-qualify run is asked to do, as its options say it; every
// step reads its part from here.
#pragma once

#include "bench/suites.h"
#include "dev/sysfs.h"
#include "dev/usb_storage.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::qualify {

enum class EraseScope { card, region }; // the whole card, or the benchmark region only

struct Settings {
    std::string device;                      // as named: /dev/mmcblk0, mmcblk0, mmc0, mmc0:4567
    bool destructive = false;                // erase and write suites (asked once, up front)
    bool any_device = false;                 // a block device that is not an MMC/SD card (tests)
    bool use_ioctl = true;                   // card commands for the registers
    std::vector<bench::Suite> suites;        // mmc-bench suites, one step each
    double runtime_s = 5;                    // each benchmark job's budget
    uint64_t region_bytes = uint64_t{64} << 20; // benchmark region, from the card's start
    EraseScope erase_scope = EraseScope::card;
    bool sustained = false;                  // mmc-bench's sustained suite over the whole card (--destructive)
    double bus_measure_s = 2;                // mmc-bus --measure: a short sequential read
    bool tune = false;                       // --tune: mmc-tune bus (plan) and queue (measured), last
    bool tune_apply = false;                 // --apply: the bus trials, which change the host (asked once)
    bool tune_keep = false;                  // --keep: keep what the trials chose (bus until reboot; queue's udev rule)
    dev::SysRoots roots;
    // Not an option: the USB card reader the device is a slot of, as
    // check_device found it. The steps that need the MMC host are skipped,
    // with the reader named (StepSpec::skip_when); the bus step runs the
    // reader doctor instead.
    std::optional<dev::UsbStorage> reader;
};

// The suites run when none are named: the write suites only with --destructive.
std::vector<bench::Suite> default_suites(bool destructive);

} // namespace mmc::qualify
