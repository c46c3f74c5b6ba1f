// The persistent form of a bus mode (and clock) that a trial found clean,
// or, untested, that the doctor's evidence supports: what makes it hold
// after a reboot, per kind of host. A device-tree board: an overlay on the
// host's node (by its label where the tree has one), and where a property
// must go, the edit of the board's .dts (an overlay applied at boot cannot
// delete one). A Raspberry Pi: the config.txt lines its firmware documents.
// A PCI host: the sdhci module option, which is global to every SDHCI host
// of the machine. A host an sdhci debug quirk on the kernel command line
// holds back: the option removed (or its other bits kept), and where the
// board's boot firmware reads the command line. Pure: text out; compiling and checking the overlay is the
// caller's (dtc).
#pragma once

#include "bus/doctor.h"
#include "tune/bus_plan.h"
#include "tune/bus_trial.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::tune {

struct PersistentForm {
    std::string kind;           // "dt-overlay", "dts-edit", "config.txt", "module-option", "kernel-cmdline"
    std::string text;           // the file or lines to add
    std::string scope;          // what it applies to
    std::string cannot_express; // what this form cannot say, and what to edit instead ("" when it says it all)
};

struct PersistTarget {
    regs::CardFamily family = regs::CardFamily::sd;
    bus::Mode mode = bus::Mode::hs;           // the mode to keep
    std::optional<uint64_t> clock_hz;         // max-frequency to set: a clock below the mode's own, or the doctor's raise
    bus::Mode mode_in_use = bus::Mode::hs;    // what runs without it
    std::vector<bus::DtChange> changes;       // the doctor's other changes to the node (properties to delete)
};

// The forms that apply to this host (none when nothing is to change: the
// mode in use at the kernel's own clock).
std::vector<PersistentForm> persistent_forms(const bus::Evidence& evidence, const PersistTarget& target);

// What to keep after a reboot, from the trials (a mode trialled clean) or,
// without trials, from the evidence alone: a mode the host and board can
// run while the doctor names the board's device tree as the limit, with the
// doctor's changes to it. `for_what` is empty exactly when `forms` is, and
// `none` says why then.
struct Persistent {
    std::vector<PersistentForm> forms;
    std::string for_what;   // "SDR104 (untested on this card: trial it with --apply first)"
    bool tested = false;    // a trial found it clean on this card
    std::string none;       // why there is no form
};
Persistent persistent_result(const bus::Evidence& evidence, const bus::Diagnosis& diagnosis, const BusPlan& plan,
                             const std::optional<TrialRun>& run);

// Raspberry Pi SD hosts, by compatible: bcm2835-sdhost, the Pi 3's
// sdhci-iproc ("brcm,bcm2835-sdhci") and the Pi 4's EMMC2.
bool is_raspberry_pi_host(const bus::DeviceTree& dt);

} // namespace mmc::tune
