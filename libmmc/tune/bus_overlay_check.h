// The dt-overlay form checked the way a boot loader will use it: compiled
// with `dtc -@`, applied with `fdtoverlay` to a base tree (the running one,
// which dtc reads as a directory, or a .dtb), and every property the
// overlay sets read back from the result with `fdtget`. What each step said
// is kept, one line each, for the report (overlay_check).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mmc::tune {

struct OverlayCheck {
    bool ok = false;                // applied, and every property read back
    std::vector<std::string> lines; // what was done and what came out
};

// `base`: a device-tree directory (dtc -I fs) or a flattened tree (.dtb).
// Not ok, with the reason, when dtc, fdtoverlay or fdtget is not installed
// (Debian's device-tree-compiler), when a step fails, or when the overlay
// names no target (target-path, or target = <&label> that the base tree's
// __symbols__ resolves) or no property.
OverlayCheck check_overlay(const std::string& overlay_source, const std::filesystem::path& base);

// The node path and the properties an overlay source sets: its
// `target-path = "..."` or `target = <&label>`, and the property names
// inside `__overlay__ { }`.
struct OverlayTargets {
    std::string path;
    std::string label;
    std::vector<std::string> properties;
};
OverlayTargets overlay_targets(const std::string& overlay_source);

} // namespace mmc::tune
