// Views of a card in a USB reader (issue 26): what mmc-info and mmc-bus say
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
std::string reader_bus_text(const ReaderBusReport& report);
nlohmann::ordered_json reader_bus_json(const ReaderBusReport& report);

} // namespace mmc::out
