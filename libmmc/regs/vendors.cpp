// Manufacturer ID tables for the CID MID byte.
//
// Neither SD-3C (SD) nor JEDEC (MMC) publishes its list, so every entry here
// is attested in public code or in register dumps of real cards. Sources, by
// the tag used in the comments:
//   [linux]     Linux drivers/mmc/core/card.h CID_MANFID_* (names used by the
//               quirk tables, so each is tied to real cards)
//   [mmc-utils] kernel.org mmc-utils lsmmc.c, sdcard.ids, multimediacard.ids
//               (names like "Toshiba/Kingston/Viking" list resellers too)
//   [cms]       cameramemoryspeed.com "Reading SD card CID" table, as copied
//               in maxkueng/sdcard-cid-decode src/index.ts
//   [hardinfo]  sysobj/hardinfo sd_ids (MID with the OID each vendor uses)
//   [edk2-rk]   edk2-rk3588 PlatformBootDescriptionLib manufacturer tables
//   [vendor]    drivers/mmc/core/mmc_manf_info.h in Android vendor kernels
//               (e.g. webusis/zte-blade-a31) and the eMMC tool cidparser
//   [dump]      CID dumps of labelled cards: ironsheep/P2-uSD-FS DOCs/cards,
//               ThomasKaiser/sbc-bench reports
// Where sources disagree the comment says so and names the choice.
#include "regs/vendors.h"

#include <array>
#include <fmt/format.h>
#include <string_view>

namespace mmc::regs {

namespace {

struct Vendor {
    uint8_t id;
    std::string_view name;
};

constexpr std::array<Vendor, 25> sd_vendors{{
    {0x01, "Panasonic"},              // [mmc-utils] [cms]
    {0x02, "Toshiba (Kioxia)"},       // [cms] "Toshiba"; [mmc-utils] "Toshiba/Kingston/Viking"; OID "TM".
                                      // Not SanDisk and not Kingston: lshw mapped it to Kingston
                                      // until lyonel/lshw PR #115.
    {0x03, "SanDisk"},                // [linux] CID_MANFID_SANDISK_SD, [mmc-utils] [cms]; OID "SD"
    {0x08, "Silicon Power"},          // [mmc-utils]
    {0x09, "ATP"},                    // [linux] CID_MANFID_ATP, [mmc-utils] sdcard.ids
    {0x18, "Infineon"},               // [mmc-utils]
    {0x1b, "Samsung"},                // [cms]; [mmc-utils] "Transcend/Samsung"; OID "SM" [hardinfo]
    {0x1c, "Transcend"},              // [mmc-utils]
    {0x1d, "ADATA"},                  // [cms] "AData"; [mmc-utils] "Corsair/AData"; OID "AD"
    {0x1e, "Transcend"},              // [mmc-utils]
    {0x1f, "Kingston"},               // [mmc-utils]
    {0x27, "Phison"},                 // [cms]; [mmc-utils] "Delkin/Phison"; OID "PH", made for many
                                      // brands (PNY, Delkin, Integral, Verbatim ...)
    {0x28, "Lexar"},                  // [mmc-utils] [cms] (one community list says "Barun"; not used)
    {0x30, "SanDisk"},                // [mmc-utils]
    {0x31, "Silicon Power"},          // [mmc-utils] [cms]; OID "SP"
    {0x33, "STMicroelectronics"},     // [mmc-utils]
    {0x41, "Kingston"},               // [mmc-utils] [cms]; OID "42"
    {0x5d, "Swissbit"},               // [linux] CID_MANFID_SWISSBIT (SD quirk for the S46-u series)
    {0x6f, "STMicroelectronics"},     // [mmc-utils] only; sbc-bench sees 0x6f mostly on no-name
                                      // "SMI" cards with OID 0x0013
    {0x74, "Transcend"},              // [mmc-utils] [cms] (one community list says "Jiaelec"; not used)
    {0x76, "Patriot"},                // [mmc-utils]
    {0x82, "Sony"},                   // [cms]; [mmc-utils] "Gobe/Sony"; OID "JT" [hardinfo]
    {0x9c, "Angelbird/Hoodman"},      // [hardinfo] [edk2-rk]; OIDs "SO", "BE"
    {0x9f, "Kingston (shared ID)"},   // [linux] CID_MANFID_KINGSTON_SD (Canvas Go! Plus quirk);
                                      // OID "TI"; the same MID/OID shows up on Gigastone and other
                                      // brands [dump: P2-uSD-FS gigastone-00000-8gb]
    {0xad, "Longsys (Lexar)"},        // [dump] Lexar MSSD0 cards, OID "LS" (P2-uSD-FS, sbc-bench
                                      // "Longsys USD00"); older tables say "SK Hynix"
}};

// MMC/eMMC IDs are JEDEC assignments (JEP106-style, one byte in the CID).
constexpr std::array<Vendor, 19> mmc_vendors{{
    {0x00, "SanDisk"},                // [mmc-utils] (old MMC cards)
    {0x02, "SanDisk"},                // [linux] CID_MANFID_SANDISK (iNAND quirks);
                                      // [mmc-utils] "Kingston/SanDisk"
    {0x03, "Toshiba"},                // [mmc-utils] (old MMC cards)
    {0x11, "Toshiba (Kioxia)"},       // [linux] CID_MANFID_TOSHIBA, [mmc-utils]
    {0x13, "Micron"},                 // [linux] CID_MANFID_MICRON, [mmc-utils]
    {0x15, "Samsung"},                // [linux] CID_MANFID_SAMSUNG; [mmc-utils] "Samsung/SanDisk/LG"
    {0x2c, "Kingston"},               // [mmc-utils]
    {0x32, "Phison"},                 // [vendor] mmc_manf_info.h
    {0x37, "KingMax"},                // [mmc-utils]
    {0x44, "ATP"},                    // [mmc-utils] (older copies said "SanDisk")
    {0x45, "SanDisk"},                // [mmc-utils] "SanDisk Corporation", [edk2-rk], [vendor];
                                      // linux-mmc patch CID_MANFID_SANDISK2 (iNAND 7250)
    {0x70, "Kingston"},               // [linux] CID_MANFID_KINGSTON, [mmc-utils]
    {0x88, "Foresee (Longsys)"},      // [edk2-rk] "Foresee", [vendor] "Longsys"
    {0x8f, "UNIC"},                   // [vendor] cidparser
    {0x90, "SK Hynix"},               // [linux] CID_MANFID_HYNIX, [vendor]
    {0x9b, "YMTC"},                   // [edk2-rk]
    {0xd6, "Foresee (Longsys)"},      // [vendor] mmc_manf_info.h "Longsys"
    {0xf4, "Biwin"},                  // [vendor] mmc_manf_info.h, cidparser
    {0xfe, "Micron"},                 // [linux] CID_MANFID_NUMONYX (Numonyx, now Micron), [mmc-utils]
}};

// Each ID at most once, so a lookup never depends on table order.
template <std::size_t N>
constexpr bool unique_ids(const std::array<Vendor, N>& table)
{
    for (std::size_t i = 0; i < N; ++i)
        for (std::size_t j = i + 1; j < N; ++j)
            if (table[i].id == table[j].id) return false;
    return true;
}
static_assert(unique_ids(sd_vendors));
static_assert(unique_ids(mmc_vendors));

template <std::size_t N>
std::string lookup(const std::array<Vendor, N>& table, uint8_t mid)
{
    for (const auto& v : table)
        if (v.id == mid) return std::string(v.name);
    return fmt::format("unknown (0x{:02x})", mid);
}

} // namespace

std::string sd_manufacturer(uint8_t mid) { return lookup(sd_vendors, mid); }
std::string mmc_manufacturer(uint8_t mid) { return lookup(mmc_vendors, mid); }

} // namespace mmc::regs
