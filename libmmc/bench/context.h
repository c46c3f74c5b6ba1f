// Who is being measured: the card behind the target (its claims from the SD
// status), the bus it runs on (mode and ceiling from the bus doctor), and
// whether the host lets the card use its cache and command queue.
#pragma once

#include "bench/verdicts.h"
#include "dev/block_queue.h"
#include "dev/identify.h"
#include "dev/sysfs.h"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace mmc::bench {

struct CardInfo {
    dev::Identity identity; // the same as every other tool's (dev::identify)
    dev::CardType type = dev::CardType::unknown; // identity.type's word, typed
    std::string block;      // "mmcblk0"
    std::string partition;  // "mmcblk0p1" for a file on a partition
    CardClaims claims;
    std::string claims_missing_why;
    std::vector<std::string> notes; // how registers were read
};

struct BusInfo {
    std::string host;       // "mmc0"
    std::string controller; // "sdhci-pci (PCI 1b36:0007 at 0000:00:04.0)"
    std::string mode;       // "HS", "SDR104"
    std::string timing;     // the kernel's words: "sd high-speed"
    std::optional<uint64_t> clock_hz;
    std::optional<uint64_t> actual_clock_hz;
    std::optional<int> bus_width_bits;
    std::optional<double> ceiling_mb_s;
    std::string limit;      // the doctor's: "card", "host", "none", "unknown"...
    std::string ceiling_why; // when there is no ceiling: "debugfs ios unreadable"
};

struct Context {
    std::optional<CardInfo> card;
    std::optional<BusInfo> bus;
    HostQueueing queueing;
    std::string not_card_why; // "loop0 is a loop device", "tmpfs has no block device"
};

// From the block device the target is (or lives on). `use_ioctl`: read the
// SD status live (needs root); sysfs otherwise.
Context gather_context(dev_t device, const dev::SysRoots& roots, bool use_ioctl = true);

// The cache and command-queue evidence for one card (see mmc-bench(1)):
//  cache: the disk's queue/write_cache as dev/ read it
//         (<sysfs>/block/<disk>/queue/write_cache), "write back" when the
//         kernel enabled the card's cache;
//  CQ:    a "<host>: Command Queue Engine enabled" line in the kernel log
//         (eMMC CQE, and kernels that queue commands to SD cards); mainline
//         Linux reads an SD card's queue support but never enables it.
HostQueueing host_queueing(const dev::BlockQueue& queue, const std::string& host,
                           const std::optional<std::string>& kernel_log);

} // namespace mmc::bench
