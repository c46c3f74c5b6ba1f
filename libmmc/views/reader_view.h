// Views of a card in a USB reader: what mmc-info and mmc-bus say
// about a reader's slot, where an MMC host's card would show its registers
// and bus mode. Text for people, JSON per man/mmc-info.1 and man/mmc-bus.1.
#pragma once

#include "bus/reader_doctor.h"
#include "dev/usb_storage.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mmc::out {

// Why the registers are missing, and what would read them.
std::string registers_through_reader();

// The reader, its link, the recognition basis and the capacity.
std::string reader_text(const dev::UsbStorage& usb, uint64_t capacity_bytes);
nlohmann::ordered_json reader_json(const dev::UsbStorage& usb, uint64_t capacity_bytes);

struct ReaderBusReport {
    bus::ReaderDiagnosis diagnosis;
    std::optional<double> measured_mb_s;
    std::string measure_error;
};
// The reader doctor on a reader's slot, and with measure_s > 0 a sequential
// read of disk_path for that long (mmc-bus --measure; mmc-qualify's bus step).
ReaderBusReport reader_bus_report(const dev::UsbStorage& usb, const std::string& disk_path, double measure_s);
std::string reader_bus_text(const ReaderBusReport& report);
nlohmann::ordered_json reader_bus_json(const ReaderBusReport& report);

// The reader as a result bundle records it (man/mmc-report.1, "reader"):
// chip, USB ID, driver, transport, negotiated speed, and the link's ceiling
// with its source.
nlohmann::ordered_json reader_record_json(const dev::UsbStorage& usb);

} // namespace mmc::out
