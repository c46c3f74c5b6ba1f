// Typed facts read out of a card's decoded registers: the values the card's
// identity, the erase planner, the benchmark and the probe need (AU, erase
// group, erased byte, capacity), each read here once. Pure, like the
// decoders; a value the registers do not give stays empty, never guessed.
#pragma once

#include "regs/card_registers.h"
#include "regs/register_facts.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace mmc::regs {

// The by-name readers below serve regs/ itself (and its tests): code outside
// regs/ reads the typed facts here and in regs/register_facts.h, so a
// misspelt name fails to compile (tests/cli/library-words.sh checks).
// A spec field's raw value; nullopt when the register or the field is absent.
std::optional<uint64_t> field_value(const DecodedRegister* r, std::string_view name);
// A derived integer (a derived bool reads as 0 or 1); nullopt when absent or
// not a number.
std::optional<int64_t> derived_int(const DecodedRegister* r, std::string_view key);
// A derived size or count, only when it is positive.
std::optional<uint64_t> derived_positive(const DecodedRegister* r, std::string_view key);

// SD: SSR AU_SIZE in bytes; nullopt without an SSR or when AU_SIZE is 0
// (not defined).
std::optional<uint64_t> au_bytes(const CardRegisters& regs);

// What an erased block reads as, 0x00 or 0xff: SD SCR DATA_STAT_AFTER_ERASE,
// MMC EXT_CSD ERASED_MEM_CONT (by the family the registers were decoded as).
std::optional<uint8_t> erased_byte(const CardRegisters& regs);

// MMC: the CSD's erase group, (ERASE_GRP_SIZE + 1) x (ERASE_GRP_MULT + 1)
// write blocks (512 bytes when WRITE_BL_LEN gives none).
std::optional<uint64_t> csd_erase_group_bytes(const CardRegisters& regs);
// MMC: EXT_CSD HC_ERASE_GRP_SIZE x 512 KiB (JESD84-B51 7.4.72); nullopt when 0.
std::optional<uint64_t> hc_erase_group_bytes(const CardRegisters& regs);
// The three register facts that decide an MMC's erase group.
struct EraseGroupRegisters {
    uint64_t hc_bytes = 0;  // EXT_CSD HC_ERASE_GRP_SIZE x 512 KiB (0: not given)
    bool hc_in_use = false; // EXT_CSD ERASE_GROUP_DEF [175] bit 0
    uint64_t csd_bytes = 0; // CSD (ERASE_GRP_SIZE + 1) x (ERASE_GRP_MULT + 1) x write block (0: no CSD)
};
struct EraseGroup {
    uint64_t bytes = 0;
    std::string_view source; // the register field the size came from
};
// MMC: the erase group the card erases in, by Linux's rule
// (drivers/mmc/core/mmc.c, mmc_set_erase_size): the high-capacity group when
// ERASE_GROUP_DEF is set, else the CSD's. Linux sets ERASE_GROUP_DEF only
// when the partitioning is completed or the host declares
// MMC_CAP2_HC_ERASE_SZ, so an eMMC with an HC group may still erase by the
// CSD's. With no CSD group known, the HC group is the only one there is.
// The one rule every caller uses (identify, erase, format).
std::optional<EraseGroup> erase_group_in_use(const EraseGroupRegisters& r);
// MMC: erase_group_in_use over the decoded CSD and EXT_CSD, and its size alone.
std::optional<EraseGroup> erase_group(const CardRegisters& regs);
std::optional<uint64_t> erase_group_bytes(const CardRegisters& regs);

// The user area's size from the registers: EXT_CSD SEC_COUNT, else the
// CSD's C_SIZE (not an MMC CSD's placeholder for cards over 2 GB).
std::optional<uint64_t> capacity_bytes(const CardRegisters& regs);

} // namespace mmc::regs
