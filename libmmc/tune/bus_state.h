// The state file of mmc-tune bus: the host as it was before the first
// change (caps, caps2, clock, the card's power/control and
// autosuspend_delay_ms), written before anything is changed, so that
// `mmc-tune bus --undo` can put it back after a crash or a kill -9. It lives
// in /run/mmckit/ (gone at reboot, when the kernel's own settings are back
// anyway); MMCKIT_RUN_DIR moves it, for tests.
#pragma once

#include "tune/bus_trial.h"

#include <filesystem>
#include <string>

namespace mmc::tune {

// MMCKIT_RUN_DIR, else /run/mmckit.
std::filesystem::path run_dir();
// <run_dir>/tune-bus-HOST.json
std::filesystem::path bus_state_path(const std::string& host);

// Written whole or not at all (a temporary file renamed over it). Throws
// std::runtime_error with the path and the reason.
void write_bus_state(const std::filesystem::path& path, const HostSnapshot& start, const std::string& device);
// Throws std::runtime_error when the file is missing or not a state file.
HostSnapshot read_bus_state(const std::filesystem::path& path);

} // namespace mmc::tune
