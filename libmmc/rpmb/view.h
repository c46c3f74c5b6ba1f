// The RPMB state as mmc-tune rpmb shows it: text for a person, the JSON
// names scripts rely on (size_bytes, key_programmed, write_counter).
#pragma once

#include "rpmb/operations.h"

#include <nlohmann/json.hpp>
#include <string>

namespace mmc::rpmb {

struct State {
    std::string device;      // /dev/mmcblk0
    std::string rpmb_device; // /dev/mmcblk0rpmb
    uint64_t size_bytes = 0;
    CounterReading counter;
    bool key_given = false;  // the MAC was checked against a key file
};

std::string state_text(const State& s);
// size_bytes, key_programmed, write_counter (null without a key),
// counter_expired, mac_verified (null when no key was given).
nlohmann::ordered_json state_json(const State& s);

} // namespace mmc::rpmb
