// mmc-tune bus's plan: the bus modes card and host share, fastest first,
// each with what limits it today (the doctor's words) and what a trial of
// it would set; the modes the doctor rules out are listed apart, with its
// reason, and never trialled: caps and caps2 (bus/mode_caps.h), and a clock where the
// kernel log showed signal errors. Pure: the evidence and the diagnosis
// come from the doctor, the live facts (caps writable, card in use) from
// the caller, so a pasted dump plans the same way as a live host.
#pragma once

#include "bus/doctor.h"
#include "bus/mode_caps.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::tune {

struct BusPlanInput {
    bus::Evidence evidence;
    bus::Diagnosis diagnosis;
    bool live = false;                  // a live host (not a pasted dump)
    std::string caps_not_writable;      // why this host's debugfs caps cannot be written (live), empty when they can
    std::string card_in_use;            // "mmcblk0p2 is mounted on /": the card holds a mounted filesystem
    bool force = false;                 // --force: trial faster modes on a card in use too, and modes only the SoC table rules out
    std::vector<bus::Mode> only;        // --mode: trial only these (empty: the default order)
};

struct BusStep {
    bus::Mode mode;
    std::optional<uint64_t> clock_hz;   // a clock written after the switch; nullopt: the kernel's own
    std::optional<bus::CapsPair> caps;  // what a trial sets; nullopt: debugfs cannot ask for it
    bool in_use = false;                // the mode (and clock) running now
    bool above_in_use = false;          // faster than the mode in use
    std::string limited_by;             // why it does not run today, in the doctor's words
    std::string trial;                  // what a trial does, or why none is made
    bool trialled = false;              // --apply trials it (when live trials are possible)
    // --force trials it although the SoC table's row stops below it: its
    // result is never kept (no persistent form).
    bool past_table = false;
};

struct BusPlan {
    std::string host;                   // "mmc0"
    std::string kernel;                 // the kernel's release, "" when not known
    std::optional<regs::CardFamily> family;
    std::optional<bus::Mode> start_mode;
    std::optional<uint64_t> start_clock_hz;
    std::optional<bus::CapsPair> start_caps;
    bool live_trials = false;
    std::string live_trials_reason;     // why not, when live_trials is false
    std::vector<std::string> signal_errors; // the kernel log's lines that called for clock steps
    std::vector<BusStep> steps;         // fastest first
    std::vector<bus::RuledOut> ruled_out; // the doctor's: never trialled (but see past_table) nor kept, fastest first
    std::vector<std::string> notes;
};

// The first kernel whose debugfs caps and caps2 are writable.
inline constexpr int caps_writable_major = 6, caps_writable_minor = 4;

BusPlan plan_bus(const BusPlanInput& input);

// The fractions of a mode's rated clock tried below it when the kernel log
// showed signal errors (CRC, tuning): 3/4 and 1/2.
inline constexpr double clock_step_fractions[] = {0.75, 0.5};

} // namespace mmc::tune
