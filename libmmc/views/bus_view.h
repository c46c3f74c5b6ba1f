// Views of bus diagnoses: text for people, JSON per the contract in
// man/mmc-bus.1.
#pragma once

#include "bus/doctor.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::out {

struct BusReport {
    bus::Diagnosis diagnosis;
    std::string controller;
    std::string kernel_message;
    std::optional<double> measured_mb_s;
    std::string measure_error; // why --measure gave no figure
    std::optional<bus::DeviceTree> device_tree; // the host's node, when read
    std::vector<bus::LogEvent> log_events;      // the kernel log's events for this host
    std::string log_note;                       // how a given log's host was chosen, or why it was not read
};

std::string bus_text(const BusReport& report, bool verbose);
nlohmann::ordered_json bus_json(const BusReport& report);
// "SD", "MMC", "SDIO" or "unknown", as the text and JSON views name the card.
std::string_view card_type_name(const bus::Diagnosis& d);

} // namespace mmc::out
