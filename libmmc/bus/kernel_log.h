// What the kernel log says about one MMC host: the card announcement, and
// the events that explain a bus running below what both sides offer -
// tuning failures, failed voltage switches, a card refusing a function,
// CRC errors and the driver stepping the bus down after them. Pure: the
// text is dmesg as printed (with or without timestamps) or a saved file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mmc::bus {

enum class LogEventKind {
    tuning_failed,         // "mmc1: tuning execution failed: -5", "All phases bad!"
    voltage_switch_failed, // "Switching to 1.8V signalling voltage failed", regulator not stable
    card_unsupported,      // "card does not support ...", "problem reading switch capabilities"
    mode_switch_failed,    // "mmc0: mmc_select_hs400 failed, error -110"
    crc_error,             // "error -84" (EILSEQ), "CRC error"
    step_down,             // the driver lowering the clock or mode after errors ("reducing overclock due to errors")
    timeout,               // "Timeout waiting for hardware interrupt", "error -110 whilst initialising SD card"
    cqe_recovery,          // "running CQE recovery", "cqhci: timeout for tag 3": the command queue stalled and was reset
};

struct LogEvent {
    LogEventKind kind;
    std::size_t line = 0; // 1-based line in the text
    std::string text;     // the line, without its timestamp (first 200 characters)
};

struct KernelLog {
    std::string card_message;     // newest "mmcN: new ... card at address RRRR"
    std::vector<LogEvent> events; // in log order
    std::optional<std::string> pci_address; // the log names this host a PCI device: "0000:00:1e.6", or "" unnamed
};

// Every "mmcN" the log's lines name, in the order first named.
std::vector<std::string> hosts_in_log(std::string_view text);

// The kind of card a "new ... card at address" line names.
enum class CardKind { unknown, sd, mmc, sdio };

// What the doctor knows when it picks one host's lines out of a log that
// may name several (every real dmesg does: the SD slot, the eMMC, the SDIO
// Wi-Fi).
struct LogHostQuery {
    std::string host;  // the evidence's own host ("mmc0"); "" when a pasted dump names none
    std::string asked; // the host the user asked for; "" none
    std::vector<std::string> devices; // the controller's device name or DT unit address: "fe320000.mmc", "fe320000"
    CardKind card_kind = CardKind::unknown; // what the dump shows in the slot
};

// One host's part of a log, or why the log was not read.
struct HostLog {
    std::optional<KernelLog> log;   // nullopt: not read (note says why)
    std::vector<std::string> hosts; // every host the log names
    std::string host;               // the host whose lines were read; "" when the log names none
    std::string note;               // how the host was chosen, or why the log was not read (a sentence)
    bool needs_host = false;        // several hosts and nothing to choose by: the user can name one
};

// Splits the log by host (a line names its host, or a disk or controller
// the log ties to one) and reads the lines of the host the query points
// at: the asked one, else the evidence's own, else the log's only host,
// else the one host whose controller or card the evidence matches. A log
// it cannot tie to one host is not read, and the note says so.
HostLog read_host_log(std::string_view text, const LogHostQuery& query);

// The card a "new ... card at address" line names.
CardKind card_kind_of(std::string_view card_message);

// `names` are what lines about this host contain: its name ("mmc1") and its
// controller's device name ("fe320000.mmc"). A line naming another mmcN is
// skipped; a line naming no host counts only when `names` is empty (a log
// the user gave for this one host). "mmcblkN:" lines count for the host the
// log itself ties mmcblkN to ("mmcblk1: mmc1:aaaa SD32G").
KernelLog parse_kernel_log(std::string_view text, const std::vector<std::string>& names);

// The lines of `text` that tie a disk or a controller to its host
// ("mmcblk0: mmc0:4567 SD32G 29.7 GiB", "mmc0: SDHCI controller on
// fe330000.mmc [fe330000.mmc] using ADMA"), one per line: a window of a log
// cut after the card was added keeps them in front, so the disk's and the
// controller's own lines ("mmcblk0: error -84 transferring data") still
// count for the host.
std::string disk_host_lines(std::string_view text);

std::string_view log_event_name(LogEventKind kind); // "tuning failed", ...

} // namespace mmc::bus
