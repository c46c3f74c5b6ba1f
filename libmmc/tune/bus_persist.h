// The persistent form of a bus mode (and clock) that a trial found clean,
// or that the plan proposes: what makes it hold after a reboot, per kind of
// host. A device-tree board: an overlay on the host's node (and what an
// overlay cannot say: a property cannot be deleted by one). A Raspberry Pi:
// the config.txt lines its firmware documents. A PCI host: the sdhci
// module option, which is global to every SDHCI host of the machine. Pure:
// text out; compiling and checking the overlay is the caller's (dtc).
#pragma once

#include "bus/doctor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mmc::tune {

struct PersistentForm {
    std::string kind;           // "dt-overlay", "config.txt", "module-option"
    std::string text;           // the file or lines to add
    std::string scope;          // what it applies to
    std::string cannot_express; // what this form cannot say, and what to edit instead ("" when it says it all)
};

struct PersistTarget {
    regs::CardFamily family = regs::CardFamily::sd;
    bus::Mode mode = bus::Mode::hs;           // the mode to keep
    std::optional<uint64_t> clock_hz;         // a clock below the mode's own, to keep too
    bus::Mode mode_in_use = bus::Mode::hs;    // what runs without it
};

// The forms that apply to this host (none when nothing is to change: the
// mode in use at the kernel's own clock).
std::vector<PersistentForm> persistent_forms(const bus::Evidence& evidence, const PersistTarget& target);

// Raspberry Pi SD hosts, by compatible: bcm2835-sdhost, the Pi 3's
// sdhci-iproc ("brcm,bcm2835-sdhci") and the Pi 4's EMMC2.
bool is_raspberry_pi_host(const bus::DeviceTree& dt);

} // namespace mmc::tune
