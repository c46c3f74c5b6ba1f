// Putting an image into an eMMC boot partition (mmc-tune emmc's boot
// images): the plan checks each image against the partition it goes to
// (a regular, non-empty file no larger than BOOT_SIZE_MULT x 128 KiB) and
// against the partition's write protection (BOOT_WP_STATUS [174], BOOT_WP
// [173]: power-on or permanent protection of one area or both, JESD84-B51
// 7.4.66/7.4.67), and drops an image the partition already holds. Pure: the
// file facts and what the partition holds are read by the caller
// (boot_image_write.h reads and writes).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmc::tune {

// "1=FILE" or "2=FILE": the boot area (1 is boot0, 2 boot1) and the image.
struct BootImageRequest {
    int area = 1;
    std::string file;
    bool operator==(const BootImageRequest&) const = default;
};
// Throws std::invalid_argument with what was expected.
BootImageRequest parse_boot_image(std::string_view value);

// What the caller found about the file and the partition.
struct BootImageFacts {
    std::string error;                   // why the file could not be read ("" when it was)
    bool regular = false;                // a regular file (not a device, FIFO or directory)
    uint64_t bytes = 0;
    std::optional<bool> already_there;   // the partition starts with these bytes (nullopt: not read)
};

struct BootImageJob {
    int area = 1;
    std::string file;
    uint64_t bytes = 0;
    uint64_t partition_bytes = 0;
};

struct BootImageRefusal {
    int area = 1;
    std::string reason;
};

struct BootImagePlan {
    std::vector<BootImageJob> jobs;
    std::vector<BootImageRefusal> refusals;
    std::vector<std::string> notes;
    bool empty() const { return jobs.empty(); }
};

// The boot area's write protection, from BOOT_WP_STATUS (eMMC 4.5 and
// later) or else BOOT_WP: nullopt when it can be written, else why not.
std::optional<std::string> boot_area_protected(std::span<const uint8_t> ext_csd, int area);

// facts: one per request, in the same order.
BootImagePlan plan_boot_images(std::span<const uint8_t> ext_csd, const std::vector<BootImageRequest>& requests,
                               const std::vector<BootImageFacts>& facts);

} // namespace mmc::tune
