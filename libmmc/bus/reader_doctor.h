// The bus doctor for a card in a USB reader: what is known through
// the reader (its USB link and transport, and the ceiling that follows), what
// is not (the SD bus mode between the reader and the card: no ios, no
// registers), and which of them limits. Pure, like bus/doctor.h.
#pragma once

#include "bus/usb_link.h"

#include <optional>
#include <string>
#include <vector>

namespace mmc::bus {

struct ReaderEvidence {
    std::string disk;                  // "sdb"
    std::string reader;                // "Genesys Logic GL827L"
    std::optional<double> speed_mbit;  // the negotiated USB link
    UsbTransport transport = UsbTransport::unknown;
    bool card_present = true;
};

// Whether the reader's link is what caps the card.
enum class ReaderLimit {
    link,    // the USB link is below what a UHS-I card's bus carries
    card_side, // the link carries more than any UHS-I bus: the reader's SD side or the card decides
    unknown, // the link speed is not known
};
std::string_view to_string(ReaderLimit); // "the reader's USB link", "the card side", "unknown"

struct ReaderDiagnosis {
    std::string disk;
    std::string reader;
    UsbTransport transport = UsbTransport::unknown;
    UsbCeiling ceiling;
    ReaderLimit limit = ReaderLimit::unknown;
    std::string verdict;            // one sentence with the figures
    std::vector<std::string> notes; // what cannot be known through the reader, and what would tell
};

ReaderDiagnosis diagnose_reader(const ReaderEvidence& evidence);

} // namespace mmc::bus
