// User-area write protection of an eMMC, as the registers and the write
// protect queries give it: the group the protection is set in, the USER_WP
// bits that choose what CMD28 sets, and the data blocks CMD30
// (SEND_WRITE_PROT) and CMD31 (SEND_WRITE_PROT_TYPE) return. JESD84-B51
// 6.6.23 (write protect management), 6.10.4 (the commands), 7.3 (CSD
// WP_GRP_SIZE, WP_GRP_ENABLE), 7.4.76 (HC_WP_GRP_SIZE), 7.4.64 (USER_WP).
// Pure: bytes in, numbers out.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace mmc::regs {

// CMD31's two bits per group, as the standard numbers them.
enum class WpType { none = 0, temporary = 1, power_on = 2, permanent = 3 };
std::string_view to_string(WpType t); // "none", "temporary", "power-on", "permanent"

// USER_WP [171] bits.
namespace user_wp_bit {
inline constexpr uint8_t us_pwr_wp_en = 1u << 0;  // CMD28 sets power-on protection
inline constexpr uint8_t us_perm_wp_en = 1u << 2; // CMD28 sets permanent protection
inline constexpr uint8_t us_pwr_wp_dis = 1u << 3; // power-on protection disabled until power cycle
inline constexpr uint8_t us_perm_wp_dis = 1u << 4; // permanent protection disabled for good
} // namespace user_wp_bit

// The group the user area is protected in. With ERASE_GROUP_DEF [175] bit 0
// set it is HC_WP_GRP_SIZE high-capacity erase groups (HC_ERASE_GRP_SIZE x
// 512 KiB); otherwise the CSD's (WP_GRP_SIZE + 1) erase groups of
// (ERASE_GRP_SIZE + 1) x (ERASE_GRP_MULT + 1) write blocks. That is the
// erase group rule of regs::erase_group_in_use, with the same fallback:
// without a CSD the high-capacity group is the only one known.
struct WpGroupSize {
    uint64_t bytes = 0;
    std::string_view source;           // "EXT_CSD HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE", "CSD WP_GRP_SIZE x erase group"
    std::optional<bool> enabled;       // CSD WP_GRP_ENABLE [31]; nullopt without a CSD
};
// ext_csd: 512 bytes; csd: the 16-byte MMC CSD or empty. nullopt when neither
// register gives a group.
std::optional<WpGroupSize> user_wp_group(std::span<const uint8_t> ext_csd, std::span<const uint8_t> csd);

// CMD31's 8 bytes (64 bits, most significant byte first): the last two bits
// belong to the addressed group, the two before them to the next, and so on
// for 32 groups.
std::vector<WpType> wp_types_of(std::span<const uint8_t> cmd31_data);
// CMD30's 4 bytes: bit 0 (of the last byte) is the addressed group, then 31 more.
std::vector<bool> wp_bits_of(std::span<const uint8_t> cmd30_data);

} // namespace mmc::regs
