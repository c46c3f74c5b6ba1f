#include "regs/write_protect_groups.h"

#include "regs/bitfield.h"
#include "regs/ext_csd_config.h"

#include <stdexcept>

namespace mmc::regs {

std::string_view to_string(WpType t)
{
    switch (t) {
    case WpType::none: return "none";
    case WpType::temporary: return "temporary";
    case WpType::power_on: return "power-on";
    case WpType::permanent: return "permanent";
    }
    return "?";
}

std::optional<WpGroupSize> user_wp_group(std::span<const uint8_t> ext_csd, std::span<const uint8_t> csd)
{
    const uint64_t hc = wp_group_bytes(ext_csd);
    const bool hc_in_use = ext_csd_value(ext_csd, ExtCsdField::erase_group_def) & 1;
    std::optional<bool> enabled;
    uint64_t csd_bytes = 0;
    if (csd.size() == 16) {
        // MMC CSD (JESD84-B51 7.3): ERASE_GRP_SIZE [46:42], ERASE_GRP_MULT
        // [41:37], WP_GRP_SIZE [36:32], WP_GRP_ENABLE [31], WRITE_BL_LEN [25:22].
        const uint64_t block = uint64_t{1} << bits(csd, 25, 22);
        const uint64_t erase_group = (bits(csd, 46, 42) + 1) * (bits(csd, 41, 37) + 1) * (block >= 512 ? block : 512);
        csd_bytes = (bits(csd, 36, 32) + 1) * erase_group;
        enabled = bits(csd, 31, 31) == 1;
    }
    if (hc && (hc_in_use || !csd_bytes)) return WpGroupSize{hc, "EXT_CSD HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE", enabled};
    if (csd_bytes) return WpGroupSize{csd_bytes, "CSD (WP_GRP_SIZE + 1) x erase group", enabled};
    return std::nullopt;
}

std::vector<WpType> wp_types_of(std::span<const uint8_t> data)
{
    if (data.size() != 8) throw std::invalid_argument("SEND_WRITE_PROT_TYPE data is 8 bytes");
    std::vector<WpType> out;
    for (int g = 0; g < 32; ++g) out.push_back(static_cast<WpType>(bits(data, 2 * g + 1, 2 * g)));
    return out;
}

std::vector<bool> wp_bits_of(std::span<const uint8_t> data)
{
    if (data.size() != 4) throw std::invalid_argument("SEND_WRITE_PROT data is 4 bytes");
    std::vector<bool> out;
    for (int g = 0; g < 32; ++g) out.push_back(bits(data, g, g) == 1);
    return out;
}

} // namespace mmc::regs
