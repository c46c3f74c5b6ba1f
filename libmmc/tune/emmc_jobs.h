// mmc-tune emmc's jobs beside the EXT_CSD settings: the user area's write
// protection and the boot images (plans: user_wp.h, boot_image.h). This
// reads the device for them, shows their plans with the EXT_CSD plan,
// confirms once and carries out the boot images first, then the
// protection, then the EXT_CSD writes, so a boot partition is selected only
// after its image verified. The front end names the ranges and images by
// the options that asked for them (JobContext's names).
#pragma once

#include "dev/resolver.h"
#include "tune/boot_image.h"
#include "tune/plan.h"
#include "tune/user_wp.h"
#include "tune/user_wp_view.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace mmc::tune {

// What was asked, in the order given.
struct EmmcJobs {
    std::vector<UserWpRange> user_wp;
    std::vector<BootImageRequest> boot_images;
    bool empty() const { return user_wp.empty() && boot_images.empty(); }
};

struct JobContext {
    const dev::Device* device = nullptr; // nullptr: a pasted EXT_CSD
    uint16_t rca = 0;
    dev::SysRoots roots;
    std::vector<uint8_t> ext_csd;
    std::string where;
    bool permanent = false, yes = false, dry_run = false, json = false;
    SettingNames names;
    RangeNames range_names;   // "--user-wp temporary --offset 0 --size 8M"
    AreaNames area_names;     // "--boot-image 1=u-boot.bin"
    std::string tool;         // for the JSON document
};

// The protected groups of the device, or why they could not be read.
struct WpListingOrError {
    std::optional<UserWpListing> listing;
    std::string error;
};
WpListingOrError read_user_wp(const JobContext& c);

// Plans, shows, confirms and carries out the jobs with the EXT_CSD plan
// `plan` (possibly empty); returns the exit status or throws cli::Error.
int run_emmc_jobs(const EmmcJobs& jobs, Plan plan, JobContext c);

} // namespace mmc::tune
