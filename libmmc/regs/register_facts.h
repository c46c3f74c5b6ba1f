// Typed facts of one decoded register: the spec fields and decoded values
// that code outside regs/ needs (erase, health, the bus doctor, bench, the
// card summary), each a named member traced to its spec field, so a misspelt
// name fails to compile instead of reading as 0. The string-named lookups
// (DecodedRegister::field, ::find) stay inside regs/; tests/cli/
// library-words.sh reports one outside it.
//
// Each reader takes a decoded register of its kind (std::invalid_argument
// for another kind). A field every layout of the register has is required
// (std::logic_error if the table lost it, which the unit tests catch); a
// field only some layouts have reads as 0, or empty, as noted.
//
// Specs: SD Physical Layer Simplified Specification 9.10 (SD),
// JESD84-B51 (eMMC 5.1).
#pragma once

#include "regs/card_registers.h"
#include "regs/register.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mmc::regs {

// CID: SD 5.2, JESD84-B51 7.2.
struct CidFacts {
    uint8_t mid = 0;          // MID [127:120]
    uint16_t oid = 0;         // OID: SD [119:104] (2 ASCII characters), MMC [111:104]
    std::string pnm;          // PNM as stored: SD [103:64] 5 characters, MMC [103:56] 6
    std::string product_name; // PNM without trailing spaces
    std::string manufacturer; // MID's holder, from the vendor table
    std::string serial_hex;   // PSN as hex, "0x4890060a": SD [55:24], MMC [47:16]
    std::string date;         // MDT as YYYY-MM (MMC: by the EXT_CSD revision's year rule)
};
CidFacts cid_facts(const DecodedRegister& cid);

// CSD: SD 5.3.2-5.3.4, JESD84-B51 7.3.
struct CsdFacts {
    uint8_t csd_structure = 0; // CSD_STRUCTURE [127:126]: SD 0 = SDSC (byte addressed), 1 SDHC/SDXC, 2 SDUC
    uint16_t ccc = 0;          // CCC [95:84], one bit per command class
    bool erase_class = false;  // CCC bit 5: class 5, erase (CMD32/33/38; MMC CMD35/36/38)
    int64_t taac_ns = 0;       // TAAC [119:112], the read access time, in ns
    uint8_t r2w_factor = 0;    // R2W_FACTOR [28:26]: a write takes TAAC x 2^R2W_FACTOR
    bool perm_write_protect = false; // PERM_WRITE_PROTECT [13]
    bool tmp_write_protect = false;  // TMP_WRITE_PROTECT [12]
    // SD only: (SECTOR_SIZE [45:39] + 1) x 2^WRITE_BL_LEN bytes; nullopt on MMC.
    std::optional<uint64_t> erase_sector_bytes;
    // The capacity as the decoder words it; empty for an MMC CSD whose
    // C_SIZE is the placeholder of a card over 2 GB.
    std::string capacity_text;
    std::string capacity_class; // SD only: SDSC, SDHC, SDXC or SDUC; else empty
};
CsdFacts csd_facts(const DecodedRegister& csd);

// SCR: SD 5.6.
struct ScrFacts {
    std::string spec_version; // SD_SPEC, SD_SPEC3, SD_SPEC4, SD_SPECX as "Version 6.0x"
};
ScrFacts scr_facts(const DecodedRegister& scr);

// OCR: SD 5.1, JESD84-B51 7.1.
struct OcrFacts {
    bool busy = false; // bit 31: power up done
    // SD only: S18A, bit 24, switching to 1.8 V accepted (only a raw R3
    // carries it; Linux's sysfs ocr does not); false on MMC.
    bool s18a = false;
};
OcrFacts ocr_facts(const DecodedRegister& ocr);

// One class an SD card claims in its SSR: the raw code and the decoder's
// name for it ("C10", "U3", "V30", "A2"; "not supported", "reserved (5)").
struct ClassClaim {
    uint8_t code = 0;
    std::string name;
};

// SSR (SD Status): SD 4.10.2.
struct SsrFacts {
    ClassClaim speed_class;       // SPEED_CLASS [447:440]
    ClassClaim uhs_speed_grade;   // UHS_SPEED_GRADE [399:396]
    ClassClaim video_speed_class; // VIDEO_SPEED_CLASS [391:384]
    ClassClaim app_perf_class;    // APP_PERF_CLASS [339:336]
    int64_t speed_class_mb_s = 0; // the speed class's minimum write, MB/s (0: Class 0 or reserved)
    std::string au_text;          // AU_SIZE [431:428] as the decoder words it
    bool discard_support = false; // DISCARD_SUPPORT [313]
    bool fule_support = false;    // FULE_SUPPORT [312], full user area logical erase
    bool cache_support = false;   // PERFORMANCE_ENHANCE [335:328] bit 2 (bit 330)
    int cq_depth = 0;             // PERFORMANCE_ENHANCE bits 7:3 ([335:331]) + 1, the queue depth (0: no queue)
};
SsrFacts ssr_facts(const DecodedRegister& ssr);

// SWITCH_FUNC status: SD 4.3.10.
struct SwitchFacts {
    uint16_t fun_grp1_support = 0; // [415:400]: bit 0 SDR12, 1 SDR25, 2 SDR50, 3 SDR104, 4 DDR50
};
SwitchFacts switch_facts(const DecodedRegister& switch_status);

// Card status (R1): SD 4.10.1, JESD84-B51 (device status).
struct StatusFacts {
    bool card_is_locked = false; // CARD_IS_LOCKED, bit 25
    StringList errors;           // the error bits set, by their spec names
};
StatusFacts status_facts(const DecodedRegister& status);

// EXT_CSD life-time estimates (eMMC 5.0 and later, EXT_CSD_REV 7): JESD84-B51 7.4.
struct LifeTime {
    uint8_t typ_a = 0;   // DEVICE_LIFE_TIME_EST_TYP_A [268], 10% steps (0x0b: exceeded)
    uint8_t typ_b = 0;   // DEVICE_LIFE_TIME_EST_TYP_B [269]
    uint8_t pre_eol = 0; // PRE_EOL_INFO [267]: 1 normal, 2 warning, 3 urgent
    std::string typ_a_text, typ_b_text, pre_eol_text; // as the decoder words them
};

// EXT_CSD: JESD84-B51 7.4.
struct ExtCsdFacts {
    uint8_t ext_csd_rev = 0;         // EXT_CSD_REV [192] (8: eMMC 5.1)
    std::string mmc_version;         // the revision's eMMC version, worded: "5.1/5.1A (EXT_CSD rev 1.8)"
    std::string capacity_text;       // SEC_COUNT [215:212] x 512 as the decoder words it
    uint8_t sec_feature_support = 0; // SEC_FEATURE_SUPPORT [231]: bit 0 SECURE_ER_EN, 4 SEC_GB_CL_EN, 6 SEC_SANITIZE
    bool erase_group_def = false;    // ERASE_GROUP_DEF [175] bit 0: high-capacity erase groups in use
    uint8_t erase_timeout_mult = 0;  // ERASE_TIMEOUT_MULT [223], 300 ms units
    uint8_t trim_mult = 0;           // TRIM_MULT [232], 300 ms units
    uint8_t sec_erase_mult = 0;      // SEC_ERASE_MULT [230], in erase timeouts
    uint8_t sec_trim_mult = 0;       // SEC_TRIM_MULT [229], in erase timeouts
    uint8_t device_type = 0;         // DEVICE_TYPE [196]: bus speed modes supported
    bool strobe_support = false;     // STROBE_SUPPORT [184]: HS400 enhanced strobe
    uint8_t boot_wp_status = 0;      // BOOT_WP_STATUS [174]: 2 bits per boot area, 1 power-on, 2 permanent
    uint8_t user_wp = 0;             // USER_WP [171]: bit 0 US_PWR_WP_EN, bit 2 US_PERM_WP_EN
    uint64_t rpmb_bytes = 0;         // RPMB_SIZE_MULT [168] x 128 KiB; 0: no RPMB partition
    LifeTime life;
};
ExtCsdFacts ext_csd_facts(const DecodedRegister& ext_csd);

// The same, from a card's registers: nullopt when the register is absent.
std::optional<CidFacts> cid_facts(const CardRegisters& regs);
std::optional<CsdFacts> csd_facts(const CardRegisters& regs);
std::optional<ScrFacts> scr_facts(const CardRegisters& regs);
std::optional<OcrFacts> ocr_facts(const CardRegisters& regs);
std::optional<SsrFacts> ssr_facts(const CardRegisters& regs);
std::optional<SwitchFacts> switch_facts(const CardRegisters& regs);
std::optional<StatusFacts> status_facts(const CardRegisters& regs);
std::optional<ExtCsdFacts> ext_csd_facts(const CardRegisters& regs);

} // namespace mmc::regs
