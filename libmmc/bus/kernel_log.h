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
    timeout,               // "Timeout waiting for hardware interrupt", "card never left busy"
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

// `names` are what lines about this host contain: its name ("mmc1") and its
// controller's device name ("fe320000.mmc"). A line naming another mmcN is
// skipped; a line naming no host counts only when `names` is empty (a log
// the user gave for this one host). "mmcblkN:" lines count for the host the
// log itself ties mmcblkN to ("mmcblk1: mmc1:aaaa SD32G").
KernelLog parse_kernel_log(std::string_view text, const std::vector<std::string>& names);

// The lines of `text` that tie a disk to its host ("mmcblk0: mmc0:4567 SD32G
// 29.7 GiB"), one per line: a window of a log cut after the card was added
// keeps them in front, so the disk's own lines ("mmcblk0: error -84
// transferring data") still count for the host.
std::string disk_host_lines(std::string_view text);

std::string_view log_event_name(LogEventKind kind); // "tuning failed", ...

} // namespace mmc::bus
