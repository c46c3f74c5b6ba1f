// What mmc-probe capacity shows: the plan before it touches anything, the
// result as aligned text or JSON (documented in man mmc-probe, CAPACITY),
// and the command that limits the partition table to the usable storage.
#pragma once

#include "dev/identify.h"
#include "probe/capacity.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mmc::probe {

struct CapacityTarget {
    std::string path;                    // "/dev/mmcblk0"
    std::optional<dev::Identity> card;   // none: not an MMC/SD card (--any-device)
    std::string not_mmc;                 // why not, when not
    bool in_reader = false;              // a card in a USB reader: not_mmc says which (dev::Device::is_reader_slot)
    bool behind_usb = false;             // on USB mass storage: a reader's slot or a USB disk (its bridge may cache reads)
};

// The block-device command that makes one partition of exactly the usable
// storage from 1 MiB on (a new DOS table, FAT32 LBA type), or empty when
// there is nothing to shrink (good) or nothing usable past 1 MiB.
std::string shrink_command(const std::string& path, const CapacityResult&, uint32_t block_size);

std::string plan_text(const CapacityTarget&, const CapacityPlan&, bool destructive);
std::string result_text(const CapacityTarget&, const CapacityResult&, uint32_t block_size);
nlohmann::ordered_json result_json(const CapacityTarget&, const CapacityResult&, uint32_t block_size,
                                   bool destructive);
// Why a partition is refused: the capacity is the whole card's.
std::string partition_refusal(const std::string& path, const std::string& disk_path);
// What an interrupted probe left: the card as it was, or the stamps (--destructive).
std::string interrupted_text(const CapacityTarget&, const CapacityResult&);

// What --dry-run -J says: the plan, nothing written.
nlohmann::ordered_json dry_run_json(const CapacityTarget&, const CapacityPlan&);

// The progress line's text for each report of the probe, with an estimate
// of the time left from the time spent in the current phase.
class CapacityProgressText {
public:
    std::string operator()(const CapacityProgress&);

private:
    std::optional<CapacityPhase> phase_;
    std::chrono::steady_clock::time_point phase_start_ = std::chrono::steady_clock::now();
};

// The one mapping from a verdict to the exit status (man mmc-probe, EXIT STATUS).
int exit_status(Verdict);

} // namespace mmc::probe
