// A device's configuration as a file (mmc-tune emmc --save) that applies to
// another device of the same model (--from-config): the settings in the
// options' own words, and the model they were read from, checked before
// anything is planned. Pure: the caller reads and writes the file.
#pragma once

#include "tune/settings.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

namespace mmc::tune {

// What identifies a model: the CID's manufacturer and product name (from
// sysfs; empty when unknown, as for a pasted EXT_CSD), the EXT_CSD
// revision and the user area's size before any partitioning.
struct Model {
    std::string manfid; // "0x000015"
    std::string name;   // "BJTD4R"
    uint64_t ext_csd_rev = 0;
    uint64_t sec_count = 0;
};

Model model_of(std::span<const uint8_t> ext_csd, std::string manfid, std::string name);

// The settings this device has that mmc-tune can set, as a request that
// would change nothing on it.
Request request_from_device(std::span<const uint8_t> ext_csd);

nlohmann::ordered_json config_json(const Model& model, const Request& settings);

// Reads a file written by config_json; throws SettingError for a file that
// is not one (naming what is wrong) or whose model differs from `device`
// (naming both). A model known on one side only (a pasted EXT_CSD has no
// CID) is compared where both say something.
Request request_from_config(const nlohmann::ordered_json& doc, const Model& device);

} // namespace mmc::tune
