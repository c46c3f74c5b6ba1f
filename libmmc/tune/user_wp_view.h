// The views of mmc-tune emmc's user-area write protection and boot images:
// the protected groups as they are, and the plans of both, as text and
// JSON. Pure: strings and documents out.
#pragma once

#include "tune/boot_image.h"
#include "tune/settings.h"
#include "tune/user_wp.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mmc::tune {

// The listing, or why there is none (`error`).
std::string user_wp_text(const std::optional<UserWpListing>& listing, const std::string& error);
nlohmann::ordered_json user_wp_json(const std::optional<UserWpListing>& listing, const std::string& error);

// The front end's names of a range (by its index) and of a boot image (by its area).
using RangeNames = std::function<std::string(std::size_t)>;
using AreaNames = std::function<std::string(int)>;

std::string user_wp_plan_text(const UserWpPlan& plan, const RangeNames& ranges, const SettingNames& names);
nlohmann::ordered_json user_wp_plan_json(const UserWpPlan& plan, const RangeNames& ranges, const SettingNames& names);
std::string boot_image_plan_text(const BootImagePlan& plan, const AreaNames& areas);
nlohmann::ordered_json boot_image_plan_json(const BootImagePlan& plan, const AreaNames& areas);

} // namespace mmc::tune
