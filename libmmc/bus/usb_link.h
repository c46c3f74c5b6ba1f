// The USB link a card reader sits on, and the ceiling it puts on a card:
// the negotiated speed as the kernel reports it (sysfs `speed`,
// Mbit/s), its name, and what it can carry, each figure with where it comes
// from. Pure arithmetic, so every figure is unit-tested against its source.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mmc::bus {

// How SCSI commands travel over USB: bulk-only transport (usb-storage; one
// command at a time: command, data, status) or USB Attached SCSI (uas;
// commands queued and streamed).
enum class UsbTransport { bulk_only, uas, unknown };
std::string_view to_string(UsbTransport); // "usb-storage bulk-only", "uas", "unknown transport"

// One figure and the arithmetic or the document it comes from.
struct SourcedFigure {
    double mb_s = 0;    // 10^6 bytes per second
    std::string source; // "USB 2.0 spec Table 5-10: 13 x 512-byte bulk packets per 125 us microframe"
};

struct UsbCeiling {
    std::string link;                        // "USB 2.0 high speed, 480 Mbit/s"
    std::string short_name;                  // "USB 2.0"
    std::optional<SourcedFigure> raw;        // what the link carries at most (bulk data)
    std::optional<SourcedFigure> practical;  // what mass storage reaches on it in practice, when known
    // The figure a card is held to: practical when known, else raw.
    std::optional<double> ceiling_mb_s() const;
};

// The ceiling of a link of `speed_mbit` (1.5, 12, 480, 5000, 10000, 20000)
// for the transport. An unknown speed has a name and no figures.
UsbCeiling usb_ceiling(double speed_mbit, UsbTransport transport);

// The short name of a speed: "USB 1.1 low speed", "USB 1.1 full speed",
// "USB 2.0", "USB 3.0", "USB 3.1 Gen 2", "USB 3.2 Gen 2x2"; "USB" unknown.
std::string usb_generation(double speed_mbit);

// The pieces of the arithmetic, exposed for the tests that check each figure.
// Bulk payload per second: packets per (micro)frame x payload bytes / frame time.
double bulk_payload_mb_s(int packets_per_frame, int payload_bytes, double frame_seconds);
// Line rate after the encoding: bits x data/coded / 8, in MB/s.
double encoded_payload_mb_s(double signal_mbit, int data_bits, int coded_bits);

} // namespace mmc::bus
