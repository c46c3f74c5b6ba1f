// mmc-tune queue's report, as text and as the JSON of the contract
// (man/mmc-tune.1, "queue -J"): what was in force, what was measured with
// its intervals, the advice and why, the discard policy, the persistent
// form, and what was changed, restored or undone.
#pragma once

#include "tune/queue_apply.h"
#include "tune/queue_discard.h"
#include "tune/queue_race.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::tune {

struct QueuePersistent {
    std::string text;   // the rule; empty when none can be written (why_not says why)
    std::string scope;
    std::string file;   // where --apply writes it
    std::string why_not;
};

struct QueueReport {
    std::string device;                 // the disk's node
    std::string described;              // "loop0 is a loop device"
    QueueSetting start;
    std::vector<std::string> offered;   // the schedulers the kernel offers
    double budget_s = 0, sample_s = 0;
    std::string queued_engine;          // what rand-read/rand-write ran on
    std::optional<RaceResult> race;     // nothing with --undo
    std::optional<DiscardPolicy> discard;
    std::optional<QueuePersistent> persistent;
    bool restored = false;              // the start setting put back after measuring
    std::optional<QueueApplied> applied, undone;
    bool interrupted = false;
    std::vector<std::string> notes;
};

nlohmann::ordered_json queue_json(const QueueReport& r);
std::string queue_text(const QueueReport& r);

} // namespace mmc::tune
