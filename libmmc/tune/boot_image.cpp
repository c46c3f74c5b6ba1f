#include "tune/boot_image.h"

#include "cli/size.h"
#include "regs/ext_csd_config.h"

#include <fmt/format.h>
#include <stdexcept>

namespace mmc::tune {

namespace {

std::string boot_bytes(uint64_t bytes) { return cli::format_bytes_exact(bytes); }

// BOOT_WP [173] bits (JESD84-B51 7.4.67).
constexpr uint8_t b_pwr_wp_en = 1u << 0, b_pwr_wp_sec_sel = 1u << 1, b_perm_wp_en = 1u << 2, b_perm_wp_sec_sel = 1u << 3,
                  b_sec_wp_sel = 1u << 7;

} // namespace

BootImageRequest parse_boot_image(std::string_view value)
{
    if (value.size() < 3 || (value[0] != '1' && value[0] != '2') || value[1] != '=')
        throw std::invalid_argument(fmt::format("'{}': expected 1=FILE or 2=FILE (boot partition 1 or 2)", value));
    return {value[0] - '0', std::string(value.substr(2))};
}

std::optional<std::string> boot_area_protected(std::span<const uint8_t> ext_csd, int area)
{
    using regs::ExtCsdField;
    const auto status = regs::ext_csd_value(ext_csd, ExtCsdField::boot_wp_status);
    const auto two = (status >> (2 * (area - 1))) & 3;
    if (two == 1 || two == 2)
        return fmt::format("boot partition {} is write-protected {} (BOOT_WP_STATUS [174] 0x{:02x})", area,
                           two == 1 ? "until the next power cycle" : "for good", status);
    const auto wp = static_cast<uint8_t>(regs::ext_csd_value(ext_csd, ExtCsdField::boot_wp));
    // With B_SEC_WP_SEL the SEC_SEL bits name the one area each kind
    // protects (0: area 1, 1: area 2); without it both areas are protected.
    auto covers = [&](uint8_t sel_bit) { return !(wp & b_sec_wp_sel) || ((wp & sel_bit) ? 2 : 1) == area; };
    if ((wp & b_perm_wp_en) && covers(b_perm_wp_sec_sel))
        return fmt::format("boot partition {} is write-protected for good (BOOT_WP [173] 0x{:02x}: B_PERM_WP_EN)", area, wp);
    if ((wp & b_pwr_wp_en) && covers(b_pwr_wp_sec_sel))
        return fmt::format("boot partition {} is write-protected until the next power cycle (BOOT_WP [173] 0x{:02x}: B_PWR_WP_EN)",
                           area, wp);
    return std::nullopt;
}

BootImagePlan plan_boot_images(std::span<const uint8_t> ext_csd, const std::vector<BootImageRequest>& requests,
                               const std::vector<BootImageFacts>& facts)
{
    if (facts.size() != requests.size()) throw std::logic_error("plan_boot_images: one fact per request");
    BootImagePlan plan;
    const uint64_t partition = regs::ext_csd_value(ext_csd, regs::ExtCsdField::boot_size_mult) * 128 * 1024;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const auto& r = requests[i];
        const auto& f = facts[i];
        auto refuse = [&](std::string why) { plan.refusals.push_back({r.area, std::move(why)}); };
        for (std::size_t j = 0; j < i; ++j)
            if (requests[j].area == r.area) refuse(fmt::format("boot partition {} is given two images", r.area));
        if (!plan.refusals.empty() && plan.refusals.back().area == r.area) continue;
        if (!f.error.empty()) { refuse(fmt::format("{}: {}", r.file, f.error)); continue; }
        if (!f.regular) { refuse(fmt::format("{}: not a regular file (an image is a file of the bytes to write)", r.file)); continue; }
        if (f.bytes == 0) { refuse(fmt::format("{}: empty; there is nothing to write", r.file)); continue; }
        if (partition == 0) {
            refuse("the device has no boot partitions (BOOT_SIZE_MULT [226] is 0)");
            continue;
        }
        if (f.bytes > partition) {
            refuse(fmt::format("{} is {}, larger than boot partition {} ({}: BOOT_SIZE_MULT [226] x 128 KiB)", r.file,
                               boot_bytes(f.bytes), r.area, boot_bytes(partition)));
            continue;
        }
        if (const auto why = boot_area_protected(ext_csd, r.area)) { refuse(*why); continue; }
        if (f.already_there.value_or(false)) {
            plan.notes.push_back(fmt::format("boot partition {} already holds {} ({}); not written again", r.area, r.file,
                                             boot_bytes(f.bytes)));
            continue;
        }
        plan.jobs.push_back({r.area, r.file, f.bytes, partition});
    }
    if (!plan.refusals.empty()) plan.jobs.clear();
    return plan;
}

} // namespace mmc::tune
