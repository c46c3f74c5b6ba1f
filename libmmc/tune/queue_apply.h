// mmc-tune queue --apply and --undo: the rule written where udev reads it,
// the chosen setting put in force now, and a state file (written before
// anything changes) that lets --undo remove the rule and put back the
// setting that was in force before the first --apply.
#pragma once

#include "tune/queue_race.h"

#include <filesystem>
#include <string>
#include <vector>

namespace mmc::tune {

struct QueueApplyPaths {
    std::filesystem::path rules_dir = "/etc/udev/rules.d"; // MMCKIT_UDEV_RULES_DIR overrides (the tool's)
    std::filesystem::path run_dir = "/run/mmckit";         // MMCKIT_RUN_DIR overrides (the tool's)
};

// One thing changed, for the report and its undo: "queue/scheduler"
// "mq-deadline" -> "none", "udev rule" "(none)" -> its path.
struct QueueChange {
    std::string what, from, to;
};

struct QueueApplied {
    std::vector<QueueChange> changes;
    std::filesystem::path rule_path, state_path;
};

// The state file of a disk: RUN_DIR/tune-queue-<disk>.json.
std::filesystem::path queue_state_path(const QueueApplyPaths& paths, const std::string& disk);

// Writes the state file (keeping the start of an earlier --apply not yet
// undone), then the rule, then puts `chosen` in force through dev/.
// `now` is what is in force at this moment. Throws std::runtime_error
// naming the file or attribute that failed.
QueueApplied apply_queue(const QueueApplyPaths& paths, const std::string& device, const std::string& disk,
                         const std::filesystem::path& disk_syspath, const QueueSetting& now, const QueueSetting& chosen,
                         const std::string& rule_file_name, const std::string& rule_text);

// Removes the rule the state file names and puts its start setting back.
// Throws std::runtime_error when there is no state file, it is not one
// mmc-tune wrote for this disk (a rule path outside the rules directory or
// not named 60-mmckit-queue-*.rules is refused, never removed), or a write
// fails.
QueueApplied undo_queue(const QueueApplyPaths& paths, const std::string& disk, const std::filesystem::path& disk_syspath,
                        const QueueSetting& now);

} // namespace mmc::tune
