#include "bus/reader_doctor.h"

#include "bus/doctor.h"

#include <fmt/format.h>

namespace mmc::bus {

std::string_view to_string(ReaderLimit l)
{
    switch (l) {
    case ReaderLimit::link: return "the reader's USB link";
    case ReaderLimit::card_side: return "the card side";
    case ReaderLimit::unknown: break;
    }
    return "unknown";
}

ReaderDiagnosis diagnose_reader(const ReaderEvidence& e)
{
    ReaderDiagnosis d;
    d.disk = e.disk;
    d.reader = e.reader;
    d.transport = e.transport;
    d.ceiling = e.speed_mbit ? usb_ceiling(*e.speed_mbit, e.transport) : UsbCeiling{"USB link of unknown speed", "USB", {}, {}};
    // The SD side's figures from the one mode table (bus/modes.cpp).
    const double hs = mode_ceiling_mb_s(Mode::hs).value_or(25);
    const double sdr50 = mode_ceiling_mb_s(Mode::sdr50).value_or(50);
    const double sdr104 = mode_ceiling_mb_s(Mode::sdr104).value_or(104);
    const auto cap = d.ceiling.ceiling_mb_s();
    const std::string about = d.ceiling.practical ? "about " : "at most ";
    if (!cap) {
        d.limit = ReaderLimit::unknown;
        d.verdict = "the reader's USB link speed is not known (sysfs gave no speed), so neither is its ceiling";
    } else if (*cap < sdr104) {
        d.limit = ReaderLimit::link;
        std::string could = fmt::format("a UHS-I card's SDR104 bus could carry {:.0f} MB/s", sdr104);
        if (*cap < sdr50) could += fmt::format(", SDR50 {:.0f} MB/s", sdr50);
        if (*cap < hs) could += fmt::format(", even high speed {:.0f} MB/s", hs);
        d.verdict = fmt::format("the reader's {} link caps this card at {}{:.4g} MB/s; {}", d.ceiling.short_name, about, *cap, could);
        if (*cap >= hs) d.verdict += fmt::format("; a high-speed card ({:.0f} MB/s) is not held back", hs);
    } else {
        d.limit = ReaderLimit::card_side;
        d.verdict = fmt::format("the reader's {} link ({}{:.4g} MB/s) is not the limit: it carries more than a UHS-I "
                                "card's SDR104 bus ({:.0f} MB/s); the reader's SD side and the card decide",
                                d.ceiling.short_name, about, *cap, sdr104);
    }
    d.notes.push_back("the SD bus mode between the reader and the card cannot be seen through USB mass storage "
                      "(no ios, no card registers); an SD slot on an MMC host shows it (mmc-bus there)");
    if (!e.card_present) d.notes.push_back("the slot is empty: no card in the reader");
    if (e.transport == UsbTransport::bulk_only && e.speed_mbit && *e.speed_mbit >= 5000)
        d.notes.push_back("bulk-only transport on a SuperSpeed link: one command at a time; uas, if the reader offers it, queues them");
    return d;
}

} // namespace mmc::bus
