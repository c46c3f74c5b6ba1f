#include "bus/usb_link.h"

#include <fmt/format.h>

namespace mmc::bus {

std::string_view to_string(UsbTransport t)
{
    switch (t) {
    case UsbTransport::bulk_only: return "usb-storage bulk-only";
    case UsbTransport::uas: return "uas";
    case UsbTransport::unknown: break;
    }
    return "unknown transport";
}

std::optional<double> UsbCeiling::ceiling_mb_s() const
{
    if (practical) return practical->mb_s;
    if (raw) return raw->mb_s;
    return std::nullopt;
}

double bulk_payload_mb_s(int packets_per_frame, int payload_bytes, double frame_seconds)
{
    return packets_per_frame * static_cast<double>(payload_bytes) / frame_seconds / 1e6;
}

double encoded_payload_mb_s(double signal_mbit, int data_bits, int coded_bits)
{
    return signal_mbit * data_bits / coded_bits / 8;
}

std::string usb_generation(double mbit)
{
    if (mbit == 1.5) return "USB 1.1 low speed";
    if (mbit == 12) return "USB 1.1 full speed";
    if (mbit == 480) return "USB 2.0";
    if (mbit == 5000) return "USB 3.0";
    if (mbit == 10000) return "USB 3.1 Gen 2";
    if (mbit == 20000) return "USB 3.2 Gen 2x2";
    return "USB";
}

UsbCeiling usb_ceiling(double mbit, UsbTransport transport)
{
    UsbCeiling c;
    c.short_name = usb_generation(mbit);
    if (mbit == 1.5) {
        // USB 2.0 spec 5.8: low-speed devices may not have bulk endpoints, and
        // mass storage moves its data over bulk endpoints.
        c.link = "USB 1.1 low speed, 1.5 Mbit/s";
        c.raw = SourcedFigure{0, "USB 2.0 spec 5.8: a low-speed device has no bulk endpoints"};
    } else if (mbit == 12) {
        c.link = "USB 1.1 full speed, 12 Mbit/s";
        c.raw = SourcedFigure{bulk_payload_mb_s(19, 64, 1e-3),
                              "USB 2.0 spec Table 5-9: at most 19 bulk packets of 64 bytes per 1 ms frame"};
    } else if (mbit == 480) {
        c.link = "USB 2.0 high speed, 480 Mbit/s";
        c.raw = SourcedFigure{bulk_payload_mb_s(13, 512, 125e-6),
                              "USB 2.0 spec Table 5-10: at most 13 bulk packets of 512 bytes per 125 us microframe"};
        // Bulk-only transport adds a command and a status transaction to every
        // transfer and waits for each; host controllers schedule fewer than 13
        // packets a microframe. Measured sequential reads of USB 2.0 disks.
        if (transport != UsbTransport::uas)
            c.practical = SourcedFigure{40, "about 30-42 MB/s measured for reads over USB 2.0 mass storage (CNet's tests, "
                                            "cited in Wikipedia 'USB'; electronics.stackexchange.com/questions/24700); "
                                            "40 taken, near the top"};
    } else if (mbit == 5000) {
        c.link = "USB 3.0 SuperSpeed (USB 3.2 Gen 1), 5 Gbit/s";
        c.raw = SourcedFigure{encoded_payload_mb_s(5000, 8, 10), "USB 3.0 spec 6.3: 5 Gbit/s with 8b/10b encoding"};
    } else if (mbit == 10000) {
        c.link = "USB 3.1 Gen 2 SuperSpeedPlus, 10 Gbit/s";
        c.raw = SourcedFigure{encoded_payload_mb_s(10000, 128, 132), "USB 3.1 spec 6.3: 10 Gbit/s with 128b/132b encoding"};
    } else if (mbit == 20000) {
        c.link = "USB 3.2 Gen 2x2, 20 Gbit/s";
        c.raw = SourcedFigure{2 * encoded_payload_mb_s(10000, 128, 132),
                              "USB 3.2 spec: two lanes of 10 Gbit/s with 128b/132b encoding"};
    } else {
        c.link = fmt::format("USB at {} Mbit/s (a speed this table does not know)", mbit);
    }
    return c;
}

} // namespace mmc::bus
