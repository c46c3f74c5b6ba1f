// The bus-mode doctor: given what the kernel negotiated (ios), what the host
// offers (caps, caps2, device-tree properties) and what the card supports
// (OCR S18A, SSR UHS grade, CMD6 switch status, EXT_CSD DEVICE_TYPE and
// STROBE_SUPPORT), say which mode runs, its ceiling, the best each side can
// do, and which side limits throughput, with the evidence in plain words.
// Pure: the evidence is gathered elsewhere (libmmc/dev), so pasted dumps and
// fixture trees diagnose the same way as live hosts.
#pragma once

#include "bus/device_tree.h"
#include "bus/ios.h"
#include "bus/kernel_cmdline.h"
#include "bus/kernel_log.h"
#include "bus/modes.h"
#include "regs/register.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bus {

struct Evidence {
    std::string host;                  // "mmc0"
    Ios ios;
    std::optional<uint32_t> caps;      // debugfs caps
    std::optional<uint32_t> caps2;     // debugfs caps2
    std::string kernel_version;        // "6.1.0-57-amd64"; decides the caps layout
    std::optional<regs::CardFamily> card; // nullopt: not known (the doctor deduces it), or SDIO
    bool sdio = false;                     // an SDIO function (Wi-Fi...): not storage, card stays nullopt
    std::string controller;            // "sdhci-pci (PCI 1b36:0007 at ...)"
    std::optional<std::string> pci_id; // the host is a PCI controller (mmc-bus --pci): "1217:8621", or "" unnamed
    std::optional<DeviceTree> dt;      // the host's device-tree node, when read
    bool dt_absent = false;            // the host has no device-tree node (PCI, ACPI): caps are the controller's alone
    std::string kernel_message;        // "mmc0: new high speed SDHC card at address 4567"
    std::optional<KernelLog> log;      // the kernel log's events for this host, when read
    std::string log_note;              // how a given log's host was chosen, or why the log was not read
    bool log_needs_host = false;       // the log names several hosts and nothing chose one: the user can name it
    std::optional<KernelCmdline> cmdline; // the kernel command line's sdhci options, when read

    // SD card capabilities.
    std::optional<bool> s18a;                          // OCR bit 24 (only meaningful in a raw R3 OCR)
    std::optional<uint64_t> capacity_bytes;            // the card's size: 2 GB or less is standard capacity
    std::optional<int> uhs_speed_grade;                // SSR
    std::vector<Mode> sd_bus_speeds_supported;         // CMD6 group 1: SDR12, SDR25, SDR50, SDR104, DDR50
    // eMMC capabilities.
    std::optional<uint8_t> device_type;                // EXT_CSD[196]
    std::optional<bool> strobe_support;                // EXT_CSD[184]
};

// What limits the bus: "host" (controller, driver, SoC limit), "board"
// (device-tree property, wiring, regulator), "card", "tuning" (a fallback
// after tuning, switch or CRC errors), "none", "unknown", "not storage" (an
// SDIO function), "powered off". The views print to_string's words.
enum class Limit { host, board, card, tuning, none, unknown, not_storage, powered_off };
// How the cause acts.
enum class Mechanism { none, mode, clock, bus_width, signal_voltage };
// A finding: the reason for the limit, a note, or a warning about the evidence.
enum class Severity { limit, info, warning };

std::string_view to_string(Limit);     // "host", ..., "not storage", "powered off"
std::string_view to_string(Mechanism); // "" for none, "mode", "clock", "bus width", "signal voltage"
std::string_view to_string(Severity);  // "limit", "info", "warning"

struct Finding {
    Severity severity;
    std::string text; // plain words with the evidence
};

// Why a mode cannot run on this host, board and card: the card does not
// offer it, the SoC table's row for the controller stops below it, the
// board cannot signal at 1.8 V, or the bus has too few data lines.
enum class RuledOutBy { card, soc_table, signal_voltage, bus_width };
std::string_view to_string(RuledOutBy); // "card", "SoC table", "signal voltage", "bus width"

// A change to the host's device-tree node that a limit the board owns
// calls for: a clock property raised, a property that masks modes deleted.
enum class DtProperty { max_frequency, max_sd_hs_hz, sdhci_caps_mask };
std::string_view to_string(DtProperty); // "max-frequency", "max-sd-hs-hz", "sdhci-caps-mask"

struct DtChange {
    DtProperty property;
    std::optional<uint64_t> value; // the value to set; nullopt: delete the property
    // For a delete: a value an overlay can set that means what the
    // property's absence means (its binding's default), "" when none.
    std::string neutral;
    std::string why;               // the evidence, in plain words
};

// A change to the kernel command line that a limit the boot configuration
// owns calls for: an sdhci debug quirk option removed, or set to the bits
// that remain.
struct CmdlineChange {
    std::string option;            // "sdhci.debug_quirks2"
    std::string written;           // "sdhci.debug_quirks2=4", as the line has it
    std::optional<uint32_t> value; // nullopt: remove the option; else set it to this
    std::vector<Mode> frees;       // the modes the host offers again, fastest first
    std::string why;               // the evidence, in plain words
};

struct RuledOut {
    Mode mode;
    std::vector<RuledOutBy> by;  // every reason, the first the strongest
    std::string reason;          // the evidence in plain words, one clause per reason
    // Only the SoC table's row says no: a row can be wrong for one board
    // (mmc-tune bus --force may trial it, never keep it).
    bool table_only() const { return by.size() == 1 && by.front() == RuledOutBy::soc_table; }
};

struct Diagnosis {
    std::string host;
    std::optional<regs::CardFamily> card; // nullopt: unknown, or SDIO
    bool sdio = false;                     // an SDIO function, not storage
    Ios ios;
    std::optional<Mode> mode;                 // what runs; off when powered off; nullopt when ios names none
    std::optional<double> mode_ceiling_mb_s;  // from the mode table, 10^6 bytes/s
    std::optional<double> clock_ceiling_mb_s; // clock x width (x2 for DDR) / 8
    std::optional<double> ceiling_mb_s;       // the smaller of the two
    std::optional<Mode> card_best_mode;       // best the card supports (nullopt unknown)
    std::optional<Mode> host_best_mode;       // best the host offers (nullopt unknown)
    std::vector<Mode> card_modes;             // every mode the card offers, slowest first (empty: unknown)
    std::vector<Mode> host_modes;             // every mode the host offers, slowest first (empty: unknown)
    Limit limit = Limit::unknown;             // the cause
    Mechanism mechanism = Mechanism::none;    // how it acts
    std::vector<std::string> decided_by;      // the evidence that decided the cause, one line each
    std::string would_decide;                 // for "unknown": what evidence would decide it
    std::vector<Finding> findings;
    std::vector<std::string> suggestions;     // what a user can try
    std::vector<std::string> caps_names;      // decoded caps and caps2 flags
    // The modes of the card's family this host, board and card cannot run,
    // fastest first, with why; a mode the bus has run is never among them.
    // Empty when the family or the mode in use is unknown.
    std::vector<RuledOut> ruled_out;
    // The changes to the host's device-tree node that the limits the board
    // owns call for (empty when the board owns none, or no tree was read).
    std::vector<DtChange> board_changes;
    // The changes to the kernel command line the boot configuration's limit
    // calls for (empty when no sdhci debug quirk holds this host back).
    std::vector<CmdlineChange> cmdline_changes;
};

Diagnosis diagnose(const Evidence& evidence);

// Which modes may this host, board and card run: nullptr when the doctor
// allows `mode`, else why not. mmc-bus's advice and mmc-tune bus's plan
// both ask here, so they cannot disagree.
const RuledOut* ruled_out(const Diagnosis& diagnosis, Mode mode);

// caps/caps2 bit names; `kernel_version` like "4.9.140" selects the layout
// used before v4.11 for caps bits 10 and up.
std::vector<std::string> decode_caps(uint32_t caps, std::string_view kernel_version);
std::vector<std::string> decode_caps2(uint32_t caps2, std::string_view kernel_version);
// True when `kernel_version` ("4.4.0-rc1", "6.1.0-57-amd64") is older than
// major.minor; false when empty or not a version (the current layout).
bool kernel_before(std::string_view kernel_version, int major, int minor);
// A release as uname prints it: MAJOR.MINOR, then anything made of digits,
// letters and ".-+~_" ("6.1.0-57-amd64", "4.4.0-rc1", "6.12.3+rpt-rpi-v8").
bool is_kernel_version(std::string_view text);

} // namespace mmc::bus
